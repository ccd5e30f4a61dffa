package realm

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"slices"
	"strconv"
	"strings"

	"github.com/chatconform/chatconform/fakeserver/internal/apierr"
	"github.com/chatconform/chatconform/fakeserver/internal/events"
	"github.com/chatconform/chatconform/fakeserver/internal/mutation"
)

// Push devices: a client registers its device (POST /register_client_device) and then the
// device's end-to-end encrypted push registration (POST /mobile_push/register): a push key the
// server encrypts notifications with, and a provider token that only the push bouncer can
// read. The fake has no bouncer; a registration completes at once. Legacy registrations (a
// plain provider token, POST /users/me/android_gcm_reg_id or apns_device_token) are kept so
// that the E2EE registration can replace the one with the same token.

// Cryptosystems of push keys: the first byte of the key names one.
const (
	// pushKeySecretBox is libsodium's secret box, with a 32-byte key.
	pushKeySecretBox    = 0x31
	secretBoxKeyLength  = 32
	tokenIDLength       = 8 // bytes of the token's SHA-256 hash that identify it
	maxLegacyTokenBytes = 4096
)

// Device is a client device of a user and its push registration, if any.
type Device struct {
	ID     int
	UserID int
	// PushKeyID is set once the device registered for E2EE push notifications.
	PushKeyID *int64
	PushKey   []byte
	TokenKind string
	// TokenID is the Base64 identifier of the provider token (first bytes of its SHA-256).
	TokenID      string
	TokenUpdated int64
}

// DeviceInfo is a device as the registration response's devices map and device events show it.
type DeviceInfo struct {
	PushKeyID                     *int64  `json:"push_key_id"`
	PushTokenID                   *string `json:"push_token_id"`
	PendingPushTokenID            *string `json:"pending_push_token_id"`
	PushTokenLastUpdatedTimestamp *int64  `json:"push_token_last_updated_timestamp"`
	PushRegistrationErrorCode     *string `json:"push_registration_error_code"`
}

func (d *Device) info() DeviceInfo {
	info := DeviceInfo{PushKeyID: d.PushKeyID}
	if d.TokenID != "" {
		token, updated := d.TokenID, d.TokenUpdated
		info.PushTokenID, info.PushTokenLastUpdatedTimestamp = &token, &updated
	}
	return info
}

// legacyToken is a push registration of the older, unencrypted kind.
type legacyToken struct {
	UserID int
	Kind   string // "fcm" or "apns"
	Token  string
	AppID  string
}

// RegisterClientDevice records a new device of the user and returns its ID.
func (s *UserDataState) RegisterClientDevice(userID int) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	d := &Device{ID: nextID(&s.nextDevice), UserID: userID}
	s.devices[d.ID] = d
	return d.ID
}

// Devices returns the user's devices by ID (as strings, the registration response's keys).
func (s *UserDataState) Devices(userID int) map[string]DeviceInfo {
	s.mu.RLock()
	defer s.mu.RUnlock()
	out := map[string]DeviceInfo{}
	for id, d := range s.devices {
		if d.UserID == userID {
			out[strconv.Itoa(id)] = d.info()
		}
	}
	return out
}

// PushRegistration is a POST /mobile_push/register request; nil fields were not sent.
type PushRegistration struct {
	DeviceID                  int64
	PushKey                   *string
	PushKeyID                 *int64
	TokenKind                 *string
	TokenID                   *string
	BouncerPublicKey          *string
	EncryptedPushRegistration *string
}

// RegisterPushDevice registers a device for E2EE push notifications or rotates its push key
// or token, with the real server's checks in its order (the caller checked the push service
// is configured). From LevelLegacyPushRemoval, a registration that sets a token removes the
// user's legacy registration with the same token.
func (s *UserDataState) RegisterPushDevice(userID int, r PushRegistration) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	var d *Device
	if r.DeviceID > 0 && r.DeviceID <= 1<<31-1 {
		d = s.devices[int(r.DeviceID)]
	}
	if d == nil || d.UserID != userID {
		return apierr.BadRequest("Invalid `device_id`")
	}
	keyFields := r.PushKey != nil && r.PushKeyID != nil
	tokenFields := r.TokenKind != nil && r.TokenID != nil && r.BouncerPublicKey != nil && r.EncryptedPushRegistration != nil
	switch {
	case !keyFields && !tokenFields:
		return apierr.BadRequest("Missing parameters: must provide either all push key fields, all token fields, or both.")
	case !tokenFields && d.PushKeyID == nil && !mutation.On("push-key-only-initial-accepted"):
		return apierr.BadRequest("No push registration exists to rotate key for.")
	case !keyFields && d.PushKeyID == nil && mutation.On("push-token-only-initial-accepted"):
		d.TokenKind, d.TokenID, d.TokenUpdated = *r.TokenKind, *r.TokenID, s.Now()
		return nil
	}
	var key []byte
	if keyFields {
		var err error
		if key, err = checkPushKey(*r.PushKey); err != nil {
			if mutation.On("push-invalid-key-registered") {
				d.PushKeyID = r.PushKeyID
			}
			return err
		}
	}
	if tokenFields {
		if err := checkTokenFields(r); err != nil {
			return err
		}
		if (!keyFields || mutation.On("push-initial-token-before-key")) && d.PushKeyID == nil {
			return apierr.BadRequest("No push registration exists to rotate token for.")
		}
	}
	if mutation.On("push-token-rotation-ignored") && !keyFields {
		tokenFields = false
	}
	if mutation.On("push-key-rotation-ignored") && !tokenFields {
		keyFields = false
	}
	changed := false
	if keyFields && (d.PushKeyID == nil || *d.PushKeyID != *r.PushKeyID || !bytes.Equal(d.PushKey, key)) {
		id := *r.PushKeyID
		d.PushKeyID, d.PushKey, changed = &id, key, true
	}
	if tokenFields && (d.TokenKind != *r.TokenKind || d.TokenID != *r.TokenID) {
		d.TokenKind, d.TokenID, d.TokenUpdated, changed = *r.TokenKind, *r.TokenID, s.Now(), true
	}
	if changed {
		info := d.info()
		s.publish(events.Event{
			"type": "device", "op": "update", "device_id": d.ID, "push_key_id": info.PushKeyID,
			"push_token_id": info.PushTokenID, "pending_push_token_id": info.PendingPushTokenID,
			"push_token_last_updated_timestamp": info.PushTokenLastUpdatedTimestamp,
			"push_registration_error_code":      info.PushRegistrationErrorCode,
		}, userID)
	}
	if mutation.On("push-legacy-registration-kept") {
		return nil
	}
	if tokenFields && s.atLeast(LevelLegacyPushRemoval) {
		s.removeLegacyTokens(userID, d.TokenKind, d.TokenID)
	}
	return nil
}

// checkPushKey decodes a push key: standard Base64 of the cryptosystem byte and the key.
func checkPushKey(encoded string) ([]byte, error) {
	key, ok := decodeBase64(encoded)
	if !ok || len(key) != 1+secretBoxKeyLength && !(mutation.On("push-key-34-bytes-accepted") && len(key) == 2+secretBoxKeyLength) || key[0] != pushKeySecretBox {
		return nil, apierr.BadRequest("Invalid `push_key`")
	}
	return key, nil
}

// checkTokenFields checks the token registration's token_id, the one token field the server
// reads. bouncer_public_key and encrypted_push_registration go to the bouncer as they are, and
// only it can refuse them, after the reply (the real server queues them): the documented
// example values ("bouncer-public-key", …), which are not Base64, are accepted.
func checkTokenFields(r PushRegistration) error {
	id, ok := decodeBase64(*r.TokenID)
	if !ok {
		return apierr.BadRequest("`token_id` is not Base64 encoded")
	}
	if len(id) != tokenIDLength {
		return apierr.BadRequest("Invalid `token_id`")
	}
	return nil
}

// decodeBase64 decodes standard Base64 (RFC 4648, with padding) strictly: no line breaks or
// other characters outside the alphabet, as the real server's b64decode(validate=True).
func decodeBase64(s string) ([]byte, bool) {
	if strings.ContainsAny(s, "\r\n") {
		return nil, false
	}
	b, err := base64.StdEncoding.DecodeString(s)
	return b, err == nil
}

// LegacyTokenID is the token_id a client sends for a provider token: standard Base64 of the
// first 8 bytes of the token's SHA-256 hash.
func LegacyTokenID(token string) string {
	sum := sha256.Sum256([]byte(token))
	return base64.StdEncoding.EncodeToString(sum[:tokenIDLength])
}

// checkLegacyToken applies the real server's token checks.
func checkLegacyToken(kind, token string) error {
	if token == "" || len(token) > maxLegacyTokenBytes {
		return apierr.BadRequest("Empty or invalid length token")
	}
	if kind == "apns" && !isHexBytes(token) {
		return apierr.BadRequest("Invalid APNS token")
	}
	return nil
}

// isHexBytes tells whether an APNs token reads as bytes in hex, as the real server reads it
// (Python's bytes.fromhex): pairs of hex digits, whitespace allowed between pairs only.
func isHexBytes(token string) bool {
	digits := 0
	for i := 0; i < len(token); i++ {
		switch c := token[i]; {
		case strings.IndexByte(" \t\n\r\v\f", c) >= 0:
			if digits%2 != 0 {
				return false
			}
		case strings.IndexByte("0123456789abcdefABCDEF", c) >= 0:
			digits++
		default:
			return false
		}
	}
	return digits%2 == 0
}

// AddLegacyToken records a legacy push registration (kind "fcm" or "apns"); adding one again
// only updates its app ID.
func (s *UserDataState) AddLegacyToken(userID int, kind, token, appID string) error {
	if err := checkLegacyToken(kind, token); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for i, t := range s.legacyTokens {
		if t.UserID == userID && t.Kind == kind && t.Token == token {
			s.legacyTokens[i].AppID = appID
			return nil
		}
	}
	s.legacyTokens = append(s.legacyTokens, legacyToken{UserID: userID, Kind: kind, Token: token, AppID: appID})
	return nil
}

// RemoveLegacyToken removes a legacy push registration of the user.
func (s *UserDataState) RemoveLegacyToken(userID int, kind, token string) error {
	if err := checkLegacyToken(kind, token); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	n := len(s.legacyTokens)
	s.legacyTokens = slices.DeleteFunc(s.legacyTokens, func(t legacyToken) bool {
		return t.UserID == userID && t.Kind == kind && t.Token == token
	})
	if len(s.legacyTokens) == n {
		return apierr.Of(apierr.KindInvalid, "INVALID_PUSH_DEVICE_TOKEN", "Device not recognized")
	}
	return nil
}

// removeLegacyTokens drops the user's legacy registrations of the provider token a token_id
// identifies.
func (s *UserDataState) removeLegacyTokens(userID int, kind, tokenID string) {
	s.legacyTokens = slices.DeleteFunc(s.legacyTokens, func(t legacyToken) bool {
		return t.UserID == userID && (mutation.On("push-legacy-every-token-removed") || t.Kind == kind && LegacyTokenID(t.Token) == tokenID)
	})
}
