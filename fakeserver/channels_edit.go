package fakeserver

import (
	"github.com/chatconform/chatconform/fakeserver/internal/apierr"
	"github.com/chatconform/chatconform/fakeserver/internal/realm"
)

// updateChannel: PATCH /streams/{stream_id} — a channel's access, description and name.
// The settings the fake does not keep (default channel, retention, topics policy, folder,
// permission groups) are not read, so the reply lists them in ignored_parameters_unsupported.
func (s *Server) updateChannel(c *call) (fields, error) {
	id, err := c.pathID("stream_id", apierr.InvalidChannel)
	if err != nil {
		return nil, err
	}
	var ch realm.ChannelChange
	ch.Description = optionalString(c, "description")
	ch.NewName = optionalString(c, "new_name")
	ch.IsPrivate = optionalBool(c, "is_private")
	ch.HistoryPublic = optionalBool(c, "history_public_to_subscribers")
	ch.IsWebPublic = optionalBool(c, "is_web_public")
	if archived := optionalBool(c, "is_archived"); archived != nil && !*archived {
		ch.Unarchive = true
	}
	if err := c.done(); err != nil {
		return nil, err
	}
	return fields{}, s.realm().UpdateChannel(c.user.ID, id, ch)
}

// optionalBool reads an optional JSON boolean; nil when absent.
func optionalBool(c *call, name string) *bool {
	if !c.p.Has(name) {
		return nil
	}
	v := c.p.Bool(name, false)
	return &v
}
