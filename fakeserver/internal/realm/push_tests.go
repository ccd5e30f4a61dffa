package realm

import (
	"github.com/chatconform/chatconform/fakeserver/internal/apierr"
	"github.com/chatconform/chatconform/fakeserver/internal/events"
)

// Removing a client device, and test push notifications. The fake delivers no push
// notification; a test notification checks that there is a registration to send it to.

// RemoveClientDevice forgets one of the user's client devices and its push registration
// (POST /remove_client_device); the user's clients get a device remove event.
func (s *UserDataState) RemoveClientDevice(userID int, deviceID int64) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	var d *Device
	if deviceID > 0 && deviceID <= 1<<31-1 {
		d = s.devices[int(deviceID)]
	}
	if d == nil || d.UserID != userID {
		return apierr.BadRequest("Invalid `device_id`")
	}
	delete(s.devices, d.ID)
	s.publish(events.Event{"type": "device", "op": "remove", "device_id": d.ID}, userID)
	return nil
}

// CheckTestNotification finds the legacy registration a test notification with a token goes
// to (POST /mobile_push/test_notification); without one it goes to all the user's, none
// being no error, as on the real server.
func (s *UserDataState) CheckTestNotification(userID int, token *string) error {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if token == nil {
		return nil
	}
	for _, t := range s.legacyTokens {
		if t.UserID == userID && t.Token == *token {
			return nil
		}
	}
	return apierr.Of(apierr.KindInvalid, "INVALID_PUSH_DEVICE_TOKEN", "Device not recognized")
}

// errNoActivePushDevice is the refusal of an end-to-end encrypted test notification with no
// registration to go to.
func errNoActivePushDevice() error {
	return apierr.Of(apierr.KindInvalid, "NO_ACTIVE_PUSH_DEVICE", "No active registered push device")
}

// CheckE2EETestNotification finds the encrypted registrations an end-to-end encrypted test
// notification goes to (POST /mobile_push/e2ee/test_notification): the user's devices with a
// push token (the one named by id, when given); below LevelPushRedesign, the user's push
// accounts (the one named by id).
func (s *UserDataState) CheckE2EETestNotification(userID int, id *int64) error {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if !s.atLeast(LevelPushRedesign) {
		for k := range s.pushAccounts {
			if k.userID == userID && (id == nil || k.accountID == *id) {
				return nil
			}
		}
		return errNoActivePushDevice()
	}
	for _, d := range s.devices {
		if d.UserID == userID && d.TokenID != "" && (id == nil || int64(d.ID) == *id) {
			return nil
		}
	}
	return errNoActivePushDevice()
}
