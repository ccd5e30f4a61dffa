package api

// The role guards: each refuses a caller of the wrong kind before any parameter is read, as
// the real server's decorators do.

import (
	"net/http"
	"strings"

	"github.com/chatconform/chatconform/fakeserver/internal/apierr"
	"github.com/chatconform/chatconform/fakeserver/internal/handler"
	"github.com/chatconform/chatconform/fakeserver/internal/mutation"
	"github.com/chatconform/chatconform/fakeserver/internal/realm"
)

// adminOnly enforces the administrator role before any parameter is read, as the real
// server's decorator does.
func adminOnly(o op) op {
	return func(s *Service, c *handler.Call) (handler.Fields, error) {
		if !c.User.IsAdmin() && !(mutation.On("delete-topic-by-moderators") && c.User.IsModerator() && deletesTopic(c)) {
			if mutation.On("delete-topic-refused-but-applied") && deletesTopic(c) {
				_, _ = o(s, c)
			}
			return nil, apierr.MustBeAdmin
		}
		return o(s, c)
	}
}

// humansOnly refuses bots before any parameter is read.
func humansOnly(o op) op {
	return func(s *Service, c *handler.Call) (handler.Fields, error) {
		if c.User.IsBot {
			return nil, apierr.BadRequest("This endpoint does not accept bot requests.")
		}
		return o(s, c)
	}
}

// membersOnly refuses guests and bots before any parameter is read, as the real server's
// require_member_or_admin decorator does.
func membersOnly(o op) op {
	return func(s *Service, c *handler.Call) (handler.Fields, error) {
		switch {
		case c.User.IsGuest():
			return nil, apierr.BadRequest("Not allowed for guest users")
		case c.User.IsBot:
			return nil, apierr.BadRequest("This endpoint does not accept bot requests.")
		}
		return o(s, c)
	}
}

// botsOnly refuses human callers before any parameter is read: bot storage is for bots only
// (since feature level 494; the API document gives the code).
func botsOnly(o op) op {
	return func(s *Service, c *handler.Call) (handler.Fields, error) {
		if mutation.On("bot-storage-bots-only-one-level-late") && !s.realm().AtLeast(realm.LevelBotOnlyStorage+1) {
			return o(s, c)
		}
		if mutation.On("bot-storage-humans-with-keys") && !c.User.IsBot && c.P.Has("keys") {
			return o(s, c)
		}
		if !c.User.IsBot && s.realm().AtLeast(realm.LevelBotOnlyStorage) && !mutation.On("bot-storage-for-humans") { // any user's own storage before
			return nil, apierr.New(http.StatusForbidden, "PERMISSION_DENIED", "This endpoint is only available to bot users.")
		}
		return o(s, c)
	}
}

// deletesTopic tells whether the call is delete topic (operation 8), for the mutants that
// break the administrators-only check there alone.
func deletesTopic(c *handler.Call) bool { return strings.HasSuffix(c.R.URL.Path, "/delete_topic") }
