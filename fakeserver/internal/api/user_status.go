package api

import (
	"github.com/chatconform/chatconform/fakeserver/internal/apierr"
	"github.com/chatconform/chatconform/fakeserver/internal/handler"
	"github.com/chatconform/chatconform/fakeserver/internal/realm"
)

// statusChange reads a status change; away only where the route takes it (the own status).
func statusChange(c *handler.Call, withAway bool) realm.StatusChange {
	var change realm.StatusChange
	if withAway && c.P.Has("away") {
		away := c.P.Bool("away", false)
		change.Away = &away
	}
	change.StatusText = optionalString(c, "status_text")
	change.EmojiName = optionalString(c, "emoji_name")
	change.EmojiCode = optionalString(c, "emoji_code")
	change.ReactionType = optionalString(c, "reaction_type")
	return change
}

// updateStatus: POST /users/me/status.
func (s *Service) updateStatus(c *handler.Call) (handler.Fields, error) {
	change := statusChange(c, true)
	if err := c.Done(); err != nil {
		return nil, err
	}
	return handler.Fields{}, s.realm().UpdateStatus(c.User.ID, change)
}

// updateStatusOf: POST /users/{user_id}/status — an administrator sets another user's
// status; administrators' bots too from LevelAdminBotStatus.
func (s *Service) updateStatusOf(c *handler.Call) (handler.Fields, error) {
	if c.User.IsBot && !s.realm().AtLeast(realm.LevelAdminBotStatus) {
		return nil, apierr.BadRequest("This endpoint does not accept bot requests.")
	}
	id, err := c.PathID("user_id", apierr.NoSuchUser)
	if err != nil {
		return nil, err
	}
	change := statusChange(c, false)
	if err := c.Done(); err != nil {
		return nil, err
	}
	return handler.Fields{}, s.realm().UpdateStatusOf(id, change)
}

// getStatus: GET /users/{user_id}/status.
func (s *Service) getStatus(c *handler.Call) (handler.Fields, error) {
	id, err := c.PathID("user_id", apierr.NoSuchUser)
	if err != nil {
		return nil, err
	}
	if err := c.Done(); err != nil {
		return nil, err
	}
	st, err := s.realm().Status(id)
	if err != nil {
		return nil, err
	}
	return handler.Fields{"status": st}, nil
}
