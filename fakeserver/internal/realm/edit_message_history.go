package realm

import (
	"slices"

	"github.com/chatconform/chatconform/fakeserver/internal/mutation"
)

// EditEntry is one edit or move of a message. A field is set only for the kind of change
// that happened: content (PrevContent, PrevRendered), channel (PrevStream, Stream) or topic
// (PrevTopic, Topic).
type EditEntry struct {
	UserID       int
	Timestamp    int64
	PrevContent  *string
	PrevRendered *string
	PrevStream   int // 0: the channel did not change
	Stream       int
	PrevTopic    *string
	Topic        *string
}

// EditEntryView is an edit history entry as the API shows it.
type EditEntryView struct {
	UserID              *int    `json:"user_id"`
	Timestamp           int64   `json:"timestamp"`
	PrevContent         *string `json:"prev_content,omitempty"`
	PrevRenderedContent *string `json:"prev_rendered_content,omitempty"`
	PrevStream          int     `json:"prev_stream,omitempty"`
	Stream              int     `json:"stream,omitempty"`
	PrevTopic           *string `json:"prev_topic,omitempty"`
	Topic               *string `json:"topic,omitempty"`
	// PrevSubject is prev_topic below level 118, where it had this name.
	PrevSubject *string `json:"prev_subject,omitempty"`
}

// isMove reports whether the entry moved the message.
func (e EditEntry) isMove() bool { return e.PrevStream != 0 || e.PrevTopic != nil }

// addEditFields adds edit_history, last_edit_timestamp and last_moved_timestamp to a view,
// honouring the realm's edit history visibility: "none" hides the history, "moves" shows
// only what moved the message.
func (s *MessageState) addEditFields(v *MessageView, m *Message, opts ViewOptions) {
	v.LastEditTimestamp, v.LastMovedTimestamp = m.LastEditTime, m.LastMoveTime
	if !s.atLeast(LevelLastMoved) {
		// Before level 365 a move counted as an edit, and nothing told them apart.
		v.LastEditTimestamp, v.LastMovedTimestamp = max(m.LastEditTime, m.LastMoveTime), 0
	}
	if mutation.On("last-edit-timestamp-oldest-edit") && v.LastEditTimestamp != 0 {
		v.LastEditTimestamp = oldestContentEdit(m)
	}
	if mutation.On("last-edit-timestamp-milliseconds") {
		v.LastEditTimestamp *= 1000
	}
	if mutation.On("last-moved-timestamp-milliseconds") {
		v.LastMovedTimestamp *= 1000
	}
	if mutation.On("last-edit-set-by-move") {
		v.LastEditTimestamp = max(m.LastEditTime, m.LastMoveTime)
	}
	if mutation.On("last-moved-at-send") && v.LastMovedTimestamp == 0 {
		v.LastMovedTimestamp = m.Timestamp
	}
	if mutation.On("last-moved-set-by-content-edit") {
		v.LastMovedTimestamp = max(m.LastEditTime, m.LastMoveTime)
	}
	policy := s.org.editing.EditHistoryVisibility
	if mutation.On("edit-history-shown-when-hidden") {
		policy = "all"
	}
	if policy == "none" {
		return
	}
	var views []EditEntryView
	for _, e := range slices.Backward(m.EditHistory) {
		if policy == "moves" && !e.isMove() {
			continue
		}
		view := EditEntryView{UserID: &e.UserID, Timestamp: e.Timestamp, PrevStream: e.PrevStream, Stream: e.Stream}
		if mutation.On("edit-history-user-is-sender") {
			view.UserID = &m.SenderID
		}
		if mutation.On("edit-history-timestamp-of-message") {
			view.Timestamp = m.Timestamp
		}
		if mutation.On("edit-history-streams-swapped") {
			view.PrevStream, view.Stream = e.Stream, e.PrevStream
		}
		if mutation.On("edit-history-stream-on-every-entry") && e.PrevStream == 0 {
			view.PrevStream, view.Stream = m.ChannelID, m.ChannelID
		}
		if policy == "all" {
			view.PrevContent, view.PrevRenderedContent = e.PrevContent, e.PrevRendered
		}
		if mutation.On("edit-history-prev-rendered-is-markdown") {
			view.PrevRenderedContent = view.PrevContent
		}
		if mutation.On("edit-history-prev-content-on-moves") && policy == "all" && e.PrevContent == nil {
			view.PrevContent, view.PrevRenderedContent = &m.Content, &m.Rendered
		}
		if e.PrevTopic != nil {
			prev, cur := s.shownTopic(*e.PrevTopic, opts), s.shownTopic(*e.Topic, opts)
			view.PrevTopic, view.Topic = &prev, &cur
			if mutation.On("edit-history-prev-topic-is-new") {
				view.PrevTopic = &cur
			}
			if !s.atLeast(LevelTopicNames) || mutation.On("prev-subject-at-modern-level") {
				view.PrevTopic, view.PrevSubject = nil, &prev
			}
		}
		views = append(views, view)
	}
	if mutation.On("edit-history-moves-after-content") {
		contentEditsFirst(views)
	}
	if mutation.On("edit-history-newest-only") && len(views) > 1 {
		views = views[:1]
	}
	if mutation.On("edit-history-oldest-first") {
		slices.Reverse(views)
	}
	if mutation.On("edit-history-present-unedited") && len(views) == 0 {
		views = []EditEntryView{{UserID: &m.SenderID, Timestamp: m.Timestamp}}
	}
	v.EditHistory = views
}

// shownTopic is a channel topic as a client sees it: the empty topic is shown as
// realm_empty_topic_display_name unless the client allows empty topic names.
func (s *MessageState) shownTopic(topic string, opts ViewOptions) string {
	if topic == "" && !opts.AllowEmptyTopicName && !mutation.On("edit-history-empty-topic-shown-empty") {
		return s.settings.EmptyTopicDisplayName
	}
	return topic
}
