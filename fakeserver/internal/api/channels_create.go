package api

import (
	"github.com/chatconform/chatconform/fakeserver/internal/handler"
	"github.com/chatconform/chatconform/fakeserver/internal/realm"
)

// createChannel: POST /channels/create — one new channel, possibly in a folder, and the listed
// users subscribed.
func (s *Service) createChannel(c *handler.Call) (handler.Fields, error) {
	name := c.P.RequiredString("name")
	description, _ := c.P.String("description")
	subscribers := c.P.RequiredIntList("subscribers")
	opts := realm.SubscribeOptions{InviteOnly: c.P.Bool("invite_only", false)}
	opts.HistoryPublic = optionalBool(c, "history_public_to_subscribers")
	opts.FolderID = folderOrNone(c)
	if err := c.Done(); err != nil {
		return nil, err
	}
	for _, id := range subscribers {
		opts.Principals = append(opts.Principals, int(id))
	}
	id, err := s.realm().CreateChannel(c.User.ID, realm.ChannelSpec{Name: name, Description: description}, opts)
	if err != nil {
		return nil, err
	}
	return handler.Fields{"id": id}, nil
}
