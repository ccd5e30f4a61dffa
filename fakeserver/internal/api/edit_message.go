package api

import (
	"github.com/chatconform/chatconform/fakeserver/internal/apierr"
	"github.com/chatconform/chatconform/fakeserver/internal/handler"
	"github.com/chatconform/chatconform/fakeserver/internal/mutation"
	"github.com/chatconform/chatconform/fakeserver/internal/realm"
)

// updateMessage: PATCH /messages/{message_id} (operation 1) — edit content, move to another
// topic or channel.
func (s *Service) updateMessage(c *handler.Call) (handler.Fields, error) {
	id, err := c.PathID("message_id", apierr.InvalidMessage)
	if err != nil {
		return nil, err
	}
	modes := []string{realm.ChangeOne, realm.ChangeLater, realm.ChangeAll}
	if v, _ := c.P.String("propagate_mode"); mutation.On("propagate-mode-any-value") {
		modes = append(modes, v)
	}
	req := realm.EditRequest{PropagateMode: c.P.Enum("propagate_mode", realm.ChangeOne, modes...)}
	if topic, given := s.topicParam(c); given {
		req.Topic = &topic
	}
	req.NotifyOldThread = c.P.Bool("send_notification_to_old_thread", mutation.On("old-thread-notified-by-default"))
	req.NotifyNewThread = c.P.Bool("send_notification_to_new_thread", !mutation.On("new-thread-silent-by-default"))
	if content, given := c.P.String("content"); given {
		req.Content = &content
	}
	if s.realm().AtLeast(realm.LevelPrevContentSHA256) { // unknown, so unread, before
		if sum, given := c.P.String("prev_content_sha256"); given {
			req.PrevContentSHA256 = &sum
			if mutation.On("prev-content-sha256-ignored") {
				req.PrevContentSHA256 = nil
			}
		}
	}
	if mutation.On("propagate-mode-default-change-all") && !c.P.Has("propagate_mode") {
		req.PropagateMode = realm.ChangeAll
	}
	if streamID, given := nonNegativeInt(c, "stream_id"); given {
		req.StreamID = &streamID
	}
	if err := c.Done(); err != nil {
		return nil, err
	}
	detached, err := s.realm().UpdateMessage(c.User.ID, id, req)
	if err != nil {
		return nil, err
	}
	if mutation.On("detached-uploads-never-listed") {
		detached = []realm.DetachedUpload{}
	}
	if !s.realm().AtLeast(realm.LevelDetachedUploads) {
		return handler.Fields{}, nil
	}
	return handler.Fields{"detached_uploads": detached}, nil
}

// nonNegativeInt reads an optional JSON integer that must be at least 0 and fit in 32 bits.
func nonNegativeInt(c *handler.Call, name string) (int, bool) {
	n, given := c.P.Int(name)
	if !given {
		return 0, false
	}
	return int32From(c, name, n, 0)
}

// int32From checks that n, the value of the integer parameter name, lies between lo and the
// largest 32-bit integer, with the real server's words for one outside.
func int32From(c *handler.Call, name string, n, lo int64) (int, bool) {
	switch {
	case n < lo:
		c.P.Fail(apierr.BadRequest("%s is too small", name))
		return 0, false
	case n > 1<<31-1:
		c.P.Fail(apierr.BadRequest("%s is too large", name))
		return 0, false
	}
	return int(n), true
}
