package realm

import "github.com/chatconform/chatconform/fixtures"

// integrationState is the state of uploads and attachments, reminders, bot storage, push
// devices and video calls (issue 6's area).
type integrationState struct{}

// loadIntegrations sets up the integration state of a realm being loaded from f (under the lock,
// after users and channels exist).
func (s *State) loadIntegrations(*fixtures.Fixture) { s.integrations = integrationState{} }

// DetachedUpload is a file whose last reference an edit removed (the edit response's
// detached_uploads).
type DetachedUpload struct {
	ID         int    `json:"id"`
	Name       string `json:"name"`
	PathID     string `json:"path_id"`
	Size       int    `json:"size"`
	CreateTime int64  `json:"create_time"`
	MessageIDs []int  `json:"message_ids"`
}

// afterMessageStored runs, under the lock, once a new message is stored: the place where
// uploads its content links become referenced.
func (s *State) afterMessageStored(*Message) {}

// afterMessagesDeleted runs, under the lock, once messages are removed: the place where
// attachments they alone referenced are deleted.
func (s *State) afterMessagesDeleted([]*Message) {}

// afterContentEdited runs, under the lock, once an edit replaced a message's content; it
// returns the uploads that lost their last reference (always a non-nil list).
func (s *State) afterContentEdited(m *Message, oldContent string) []DetachedUpload {
	return []DetachedUpload{}
}

// Tick runs what falls due when virtual time moves (the control API's clock): reminder
// delivery and the expiry of unused uploads.
func (s *State) Tick() {}
