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
	if topic, given := s.topicParam(c); given && !(mutation.On("subject-alias-send-only") && !c.P.Has("topic")) {
		req.Topic = ptrTo(topic)
	}
	req.NotifyOldThread = c.P.Bool("send_notification_to_old_thread", mutation.On("old-thread-notified-by-default"))
	req.NotifyNewThread = c.P.Bool("send_notification_to_new_thread", !mutation.On("new-thread-silent-by-default"))
	if content, given := c.P.String("content"); given {
		req.Content = ptrTo(content)
	}
	if s.realm().AtLeast(realm.LevelPrevContentSHA256) { // unknown, so unread, before
		if sum, given := c.P.String("prev_content_sha256"); given {
			req.PrevContentSHA256 = ptrTo(sum)
			if mutation.On("prev-content-sha256-ignored") {
				req.PrevContentSHA256 = nil
			}
		}
	}
	if mutation.On("propagate-mode-default-change-later") && !c.P.Has("propagate_mode") {
		req.PropagateMode = realm.ChangeLater
	}
	if mutation.On("propagate-mode-default-change-all") && !c.P.Has("propagate_mode") {
		req.PropagateMode = realm.ChangeAll
	}
	if streamID, given := nonNegativeInt(c, "stream_id"); given {
		req.StreamID = ptrTo(streamID)
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
	if mutation.On("detached-uploads-as-path-ids") {
		return handler.Fields{"detached_uploads": pathIDs(detached)}, nil
	}
	if detached != nil && len(detached) == 0 {
		return noDetachedUploads, nil
	}
	return handler.Fields{"detached_uploads": detached}, nil
}

// noDetachedUploads is the reply of an edit that detached no upload, the usual one: one map
// shared by every such reply (the success writer reads a handler's fields and never changes
// them), rather than a map made per edit.
var noDetachedUploads = handler.Fields{"detached_uploads": []realm.DetachedUpload{}}

// ptrTo points at a copy of v. Taking a parameter's address where it is given, rather than
// the address of the variable it was read into, keeps that variable off the heap when the
// parameter is not given (the variable escapes wherever its address is taken).
func ptrTo[T any](v T) *T { return &v }
