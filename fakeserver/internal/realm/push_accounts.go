package realm

import (
	"strconv"

	"github.com/chatconform/chatconform/fakeserver/internal/events"
)

// Push registration before LevelPushRedesign (levels 406 to 467): no client devices yet; the
// client names its registration by a push account ID of its choosing and sends every field at
// once. Register shows the registrations as push_devices, and a push_device event reports a
// registration's status once the bouncer answered. The fake has no bouncer: a registration is
// active at once, and the fields the bouncer would read are only checked for presence.

type pushAccountKey struct {
	userID    int
	accountID int64
}

// PushAccountInfo is a registration as register's push_devices map shows it.
type PushAccountInfo struct {
	Status    string  `json:"status"`
	ErrorCode *string `json:"error_code"`
}

// RegisterPushAccount records an early registration. Registering an account ID again succeeds
// and changes nothing, as on the real server; only a new one sends the push_device event.
func (s *UserDataState) RegisterPushAccount(userID int, accountID int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	key := pushAccountKey{userID, accountID}
	if s.pushAccounts[key] {
		return
	}
	s.pushAccounts[key] = true
	var id any = strconv.FormatInt(accountID, 10)
	if s.atLeast(LevelPushAccountIDInt) {
		id = accountID
	}
	s.publish(events.Event{"type": "push_device", "push_account_id": id, "status": "active", "error_code": nil}, userID)
}

// PushAccounts returns the user's early registrations by push account ID (as strings, the
// push_devices map's keys).
func (s *UserDataState) PushAccounts(userID int) map[string]PushAccountInfo {
	s.mu.RLock()
	defer s.mu.RUnlock()
	out := map[string]PushAccountInfo{}
	for k := range s.pushAccounts {
		if k.userID == userID {
			out[strconv.FormatInt(k.accountID, 10)] = PushAccountInfo{Status: "active"}
		}
	}
	return out
}
