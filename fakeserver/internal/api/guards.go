package api

import (
	"github.com/chatconform/chatconform/fakeserver/internal/apierr"
	"github.com/chatconform/chatconform/fakeserver/internal/handler"
	"github.com/chatconform/chatconform/fakeserver/internal/mutation"
)

// adminOnly enforces the administrator role before any parameter is read, as the real
// server's decorator does.
func adminOnly(op handler.Operation) handler.Operation {
	return func(c *handler.Call) (handler.Fields, error) {
		if !c.User.IsAdmin() && !(mutation.On("delete-topic-by-moderators") && c.User.IsModerator() && deletesTopic(c)) {
			if mutation.On("delete-topic-refused-but-applied") && deletesTopic(c) {
				_, _ = op(c)
			}
			return nil, apierr.MustBeAdmin
		}
		return op(c)
	}
}

// humansOnly refuses bots before any parameter is read.
func humansOnly(op handler.Operation) handler.Operation {
	return func(c *handler.Call) (handler.Fields, error) {
		if c.User.IsBot {
			return nil, apierr.BadRequest("This endpoint does not accept bot requests.")
		}
		return op(c)
	}
}
