package realm

import (
	"github.com/chatconform/chatconform/fakeserver/internal/mutation"
)

// UploadState is the aggregate of uploaded files and their attachments to messages: which
// messages reference an upload, and when an unreferenced one expires.
//
// Files: attachments.go, user_uploads.go and this file.
type UploadState struct {
	*core
	// unusedUploadSeconds reports the server configuration's lifetime of an upload no message
	// references. It outlives loads: it belongs to the server, not to the realm's data.
	unusedUploadSeconds func() int64

	attachments    map[int]*Attachment
	byPath         map[string]*Attachment // by path_id
	nextAttachment int
}

func (s *UploadState) reset() {
	*s = UploadState{core: s.core, unusedUploadSeconds: s.unusedUploadSeconds, attachments: map[int]*Attachment{}, byPath: map[string]*Attachment{}}
}

// SetUnusedUploadLifetime installs the function that reports, in seconds, how long an upload
// that no message references lives (the server configuration's unused_attachment_seconds).
// It is read on every Tick, so a configuration change applies from the next one.
func (s *UploadState) SetUnusedUploadLifetime(seconds func() int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.unusedUploadSeconds = seconds
}

// DetachedUpload is a file whose last reference an edit removed (the edit response's
// detached_uploads); it has the shape of the attachment objects of GET /attachments.
type DetachedUpload struct {
	ID         int               `json:"id"`
	Name       string            `json:"name"`
	PathID     string            `json:"path_id"`
	Size       int               `json:"size"`
	CreateTime int64             `json:"create_time"`
	MessageIDs []int             `json:"message_ids"`
	messages   []attachedMessage // set below LevelAttachmentMessageIDs, written instead of MessageIDs
}

// afterMessageStored runs, under the lock, once a new message is stored: the uploads its
// content links, and which its sender may share, become referenced by it.
func (s *UploadState) afterMessageStored(m *Message) {
	for _, a := range s.linkedAttachments(m.Content) {
		s.claimAttachment(a, m)
	}
}

// afterMessagesDeleted runs, under the lock, once messages are removed: an attachment whose
// last referencing message went is deleted automatically.
func (s *UploadState) afterMessagesDeleted(ms []*Message) {
	gone := map[int]bool{}
	for _, m := range ms {
		gone[m.ID] = true
	}
	for _, a := range s.attachmentList() {
		if !a.referencedByAny(gone) {
			continue
		}
		a.dropMessages(gone)
		if len(a.MessageIDs) == 0 && !mutation.On("attachment-kept-after-last-reference") {
			s.deleteAttachment(a)
		} else {
			s.publishAttachment("update", a)
		}
	}
}

// afterContentEdited runs, under the lock, once an edit replaced a message's content: links
// the new content dropped release their attachments, links it added claim theirs. It returns,
// sorted by ID, the sender's uploads that no message references any more (always non-nil).
func (s *UploadState) afterContentEdited(m *Message, oldContent string) []DetachedUpload {
	if len(s.attachments) == 0 {
		return []DetachedUpload{}
	}
	linked := map[int]bool{}
	for _, a := range s.linkedAttachments(m.Content) {
		linked[a.ID] = true
	}
	detached := []DetachedUpload{}
	for _, a := range s.attachmentList() {
		switch {
		case a.references(m.ID) && !linked[a.ID]:
			a.dropMessages(map[int]bool{m.ID: true})
			s.publishAttachment("update", a)
			if len(a.MessageIDs) == 0 && a.OwnerID == m.SenderID {
				detached = append(detached, s.attachmentView(a))
				if mutation.On("detached-upload-size-kib") {
					detached[len(detached)-1].Size = (len(a.Content) + 1023) / 1024
				}
				if mutation.On("detached-upload-path-id-as-url") {
					detached[len(detached)-1].PathID = UploadPathPrefix + a.PathID
				}
			}
		case !a.references(m.ID) && linked[a.ID]:
			s.claimAttachment(a, m)
		}
	}
	return detached
}
