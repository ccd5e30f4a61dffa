package fakeserver

import "github.com/chatconform/chatconform/fakeserver/internal/realm"

// createChannel: POST /channels/create — one new channel, possibly in a folder, and the listed
// users subscribed.
func (s *Server) createChannel(c *call) (fields, error) {
	name := c.p.RequiredString("name")
	description, _ := c.p.String("description")
	subscribers := c.p.RequiredIntList("subscribers")
	opts := realm.SubscribeOptions{InviteOnly: c.p.Bool("invite_only", false)}
	opts.HistoryPublic = optionalBool(c, "history_public_to_subscribers")
	opts.FolderID = folderOrNone(c)
	if err := c.done(); err != nil {
		return nil, err
	}
	for _, id := range subscribers {
		opts.Principals = append(opts.Principals, int(id))
	}
	id, err := s.realm().CreateChannel(c.user.ID, realm.ChannelSpec{Name: name, Description: description}, opts)
	if err != nil {
		return nil, err
	}
	return fields{"id": id}, nil
}
