package api

import (
	"strconv"

	"github.com/chatconform/chatconform/fakeserver/internal/apierr"
	"github.com/chatconform/chatconform/fakeserver/internal/handler"
	"github.com/chatconform/chatconform/fakeserver/internal/mutation"
	"github.com/chatconform/chatconform/fakeserver/internal/realm"
)

// defaultHistoryLimitDays is the document's default for history_limit_days.
const defaultHistoryLimitDays = 14

// updatePresence: POST /users/me/presence (operation 4); humans only.
func (s *Service) updatePresence(c *handler.Call) (handler.Fields, error) {
	status := c.P.RequiredString("status")
	pingOnly := c.P.Bool("ping_only", false)
	c.P.Bool("new_user_input", false)
	slim := c.P.Bool("slim_presence", false)
	if mutation.On("slim-presence-listed-ignored") {
		c.P.Unhonoured("slim_presence")
	}
	if mutation.On("slim-presence-refused") && c.P.Has("slim_presence") {
		c.P.Fail(apierr.BadRequest("slim_presence is no longer supported"))
	}
	q := realm.PresenceQuery{HistoryLimitDays: defaultHistoryLimitDays}
	if mutation.On("presence-history-unbounded-by-default") {
		q.HistoryLimitDays = 36500
	}
	if mutation.On("presence-history-default-13-days") {
		q.HistoryLimitDays = 13
	}
	// Before its protocol, last_update_id is a parameter the server does not know, and lists.
	protocol := s.realm().AtLeast(realm.LevelPresenceUpdateID)
	if mutation.On("presence-protocol-one-level-late") {
		protocol = s.realm().AtLeast(realm.LevelPresenceUpdateID + 1)
	}
	if protocol {
		if id, ok := c.P.Int("last_update_id"); ok {
			last := int(id)
			if mutation.On("presence-minus-one-as-latest") && last == -1 {
				last = 1 << 30
			}
			q.LastUpdateID = &last
		}
	}
	if days, ok := s.historyLimitDays(c); ok {
		if days < 0 {
			c.P.Fail(apierr.BadRequest("history_limit_days is too small"))
		}
		if !mutation.On("history-limit-days-ignored") {
			q.HistoryLimitDays = int(min(days, 36500))
		}
	}
	if err := c.Done(); err != nil {
		return nil, err
	}
	if status != "active" && status != "idle" && !mutation.On("presence-any-status-idle") {
		return nil, apierr.BadRequest("Invalid status: %s", status)
	}
	if mutation.On("ping-only-status-not-recorded") && pingOnly {
		return handler.Fields{}, nil
	}
	s.realm().UpdatePresence(c.User.ID, status, clientName(c))
	if mutation.On("ping-only-ignored") {
		pingOnly = false
	}
	if pingOnly {
		return pingOnlyAnswer(protocol, q.LastUpdateID), nil
	}
	q.Modern = q.LastUpdateID != nil && !mutation.On("presence-legacy-with-update-id") ||
		slim && !mutation.On("presence-legacy-when-slim") || mutation.On("presence-modern-by-default")
	res := s.realm().Presences(q)
	out := handler.Fields{"server_timestamp": float64(s.realm().Now()), "presences": res.Presences}
	if mutation.On("variant-presence-server-timestamp-fraction") {
		out["server_timestamp"] = float64(s.realm().Now()) + 0.6287155
	}
	if mutation.On("presence-server-timestamp-ms") {
		out["server_timestamp"] = float64(s.realm().Now() * 1000)
	}
	if protocol {
		out["presence_last_update_id"] = res.LastUpdateID
		if mutation.On("presence-update-id-below-passed") && q.LastUpdateID != nil && res.LastUpdateID == *q.LastUpdateID {
			out["presence_last_update_id"] = res.LastUpdateID - 1
		}
	}
	return out, nil
}

// pingOnlyAnswer is the answer to a ping_only update: no presence data, so from the
// last_update_id protocol on, presence_last_update_id (which the document lists in every
// answer) is the value passed, or -1 when none was.
func pingOnlyAnswer(protocol bool, passed *int) handler.Fields {
	if !protocol || mutation.On("variant-ping-only-without-update-id") {
		return handler.Fields{}
	}
	last := -1
	if passed != nil {
		last = *passed
	}
	if mutation.On("ping-only-update-id-zero") && passed == nil {
		last = 0
	}
	return handler.Fields{"presence_last_update_id": last}
}

// getUserPresence: GET /users/{user_id_or_email}/presence.
func (s *Service) getUserPresence(c *handler.Call) (handler.Fields, error) {
	key := pathParam(c.R, "user_id_or_email")
	if err := c.Done(); err != nil {
		return nil, err
	}
	id, err := strconv.Atoi(key)
	if err != nil {
		found := false
		if id, found = s.realm().UserIDByEmail(c.User.ID, key); !found {
			return nil, apierr.NoSuchUser
		}
	} else if id <= 0 {
		return nil, apierr.NoSuchUser
	}
	presence, err := s.realm().UserPresence(id, key)
	if err != nil {
		return nil, err
	}
	return handler.Fields{"presence": presence}, nil
}

// getRealmPresence: GET /realm/presence — everyone's presence of the last two weeks in the
// legacy format, keyed by email.
func (s *Service) getRealmPresence(c *handler.Call) (handler.Fields, error) {
	if err := c.Done(); err != nil {
		return nil, err
	}
	res := s.realm().Presences(realm.PresenceQuery{HistoryLimitDays: defaultHistoryLimitDays})
	return handler.Fields{"presences": res.Presences, "server_timestamp": float64(s.realm().Now())}, nil
}

// historyLimitDays reads history_limit_days, from the level that knows it (an unknown
// parameter before, which the fake lists as ignored).
func (s *Service) historyLimitDays(c *handler.Call) (int64, bool) {
	if !s.realm().AtLeast(realm.LevelHistoryLimitDays) {
		return 0, false
	}
	return c.P.Int("history_limit_days")
}
