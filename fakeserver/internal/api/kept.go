package api

import "github.com/chatconform/chatconform/fakeserver/internal/handler"

// deleteOwn answers a DELETE of one of the user's own items (drafts, scheduled messages,
// reminders, saved snippets) named by the path's ID: missing is the answer for an ID too large
// to name one, remove the domain's deletion.
func deleteOwn(c *handler.Call, idName string, missing error, remove func(userID, id int) error) (handler.Fields, error) {
	id, err := c.PathID(idName, missing)
	if err != nil {
		return nil, err
	}
	if err := c.Done(); err != nil {
		return nil, err
	}
	return handler.Fields{}, remove(c.User.ID, id)
}
