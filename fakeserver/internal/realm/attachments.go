package realm

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/chatconform/chatconform/fakeserver/internal/apierr"
	"github.com/chatconform/chatconform/fakeserver/internal/events"
	"github.com/chatconform/chatconform/fakeserver/internal/mutation"
)

// Uploads and attachments: a file uploaded with POST /user_uploads is an attachment of its
// owner. A message whose content links the file's URL (/user_uploads/<path_id>) references it;
// the attachment goes when its owner deletes it, when the last message referencing it is
// deleted, or when nobody has referenced it for the unused-upload lifetime.

// MaxUploadBytes is the largest file the fake accepts (the real server's setting is in MiB).
const MaxUploadBytes = 10 << 20

// DefaultUnusedUploadSeconds is "a few weeks" (three) for an upload no message references.
const DefaultUnusedUploadSeconds = 21 * 24 * 3600

// UploadPathPrefix starts the URL of every uploaded file, relative to the server's URL.
const UploadPathPrefix = "/user_uploads/"

// Attachment is an uploaded file.
type Attachment struct {
	ID          int
	OwnerID     int
	Name        string // the file name as uploaded
	PathID      string
	ContentType string
	Content     []byte
	CreateTime  int64
	// MessageIDs are the messages that reference the file, sorted, of any sender.
	MessageIDs []int
}

// Upload is a stored file as POST /user_uploads reports it.
type Upload struct {
	URL      string
	Filename string
}

// UploadQuota bounds the bytes of stored files, per owner and in the whole realm.
type UploadQuota struct{ PerUser, Total int64 }

// UploadFile stores a file for its owner and announces it with an attachment add event,
// within the quota.
func (s *UploadState) UploadFile(ownerID int, name, contentType string, content []byte, quota UploadQuota) (Upload, error) {
	if len(content) > MaxUploadBytes {
		return Upload{}, apierr.BadRequest("File is larger than this server's configured maximum upload size (%d MiB).", MaxUploadBytes>>20)
	}
	name = strings.TrimSpace(name)
	if name == "" || !utf8.ValidString(name) {
		name = "uploaded-file"
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.uploadRoom(ownerID, int64(len(content)), quota); err != nil {
		return Upload{}, err
	}
	id := nextID(&s.nextAttachment)
	a := &Attachment{
		ID: id, OwnerID: ownerID, Name: name, ContentType: contentType, Content: content,
		CreateTime: s.Now(), MessageIDs: []int{}, PathID: s.uploadPath(id, name),
	}
	s.attachments[id] = a
	s.byPath[a.PathID] = a
	s.publishAttachment("add", a)
	return Upload{URL: UploadPathPrefix + a.PathID, Filename: name}, nil
}

// uploadPath makes a path_id like the real server's: "<realm>/<random>/<file name>". The
// middle part is derived from the realm, the load and the ID rather than drawn at random, so
// that runs are reproducible; it still differs between attachments, and across resets.
func (s *UploadState) uploadPath(id int, name string) string {
	sum := sha256.Sum256(fmt.Appendf(nil, "%s/%d/%d", s.settings.StringID, s.loads, id))
	return fmt.Sprintf("1/%s/%s", hex.EncodeToString(sum[:])[:24], sanitizeFileName(name))
}

var (
	unsafeFileChars = regexp.MustCompile(`[^A-Za-z0-9._-]+`)
	repeatedDashes  = regexp.MustCompile(`-{2,}`)
)

// sanitizeFileName keeps a file name URL-safe, as the real server's sanitize_name does.
func sanitizeFileName(name string) string {
	name = repeatedDashes.ReplaceAllString(unsafeFileChars.ReplaceAllString(name, "-"), "-")
	name = strings.Trim(name, ".-")
	if name == "" {
		return "uploaded-file"
	}
	return name
}

// AttachmentView is an attachment object of GET /attachments and of attachment events.
type AttachmentView = DetachedUpload

// attachmentView is an attachment as the realm's level shows it: its create_time in
// milliseconds before the level that made it seconds.
func (s *UploadState) attachmentView(a *Attachment) DetachedUpload {
	unit := int64(1)
	if !s.atLeast(LevelAttachmentSeconds) && !mutation.On("attachment-create-time-seconds-early") {
		unit = 1000
	}
	if mutation.On("attachment-create-time-ms") {
		unit = 1000
	}
	created := a.CreateTime * unit
	v := DetachedUpload{
		ID: a.ID, Name: a.Name, PathID: a.PathID, Size: len(a.Content), CreateTime: created,
		MessageIDs: slices.Clone(a.MessageIDs),
	}
	if mutation.On("attachment-message-ids-own-only") {
		v.MessageIDs = s.ownMessageIDs(a)
	}
	if (!s.atLeast(LevelAttachmentMessageIDs) && !mutation.On("attachment-message-ids-early")) || mutation.On("attachment-messages-at-modern-level") {
		v.messages = []attachedMessage{}
		for _, id := range a.MessageIDs {
			if m := s.msgs.messages.get(id); m != nil {
				v.messages = append(v.messages, attachedMessage{ID: id, DateSent: m.Timestamp * unit})
			}
		}
	}
	return v
}

// attachedMessage is a message of an attachment's legacy messages list, its date_sent in the
// same unit as the attachment's create_time.
type attachedMessage struct {
	ID       int   `json:"id"`
	DateSent int64 `json:"date_sent"`
}

// MarshalJSON writes message_ids, or below its level the legacy messages list.
func (d DetachedUpload) MarshalJSON() ([]byte, error) {
	type plain DetachedUpload
	if d.messages == nil {
		return json.Marshal(plain(d))
	}
	return json.Marshal(struct {
		ID         int               `json:"id"`
		Name       string            `json:"name"`
		PathID     string            `json:"path_id"`
		Size       int               `json:"size"`
		CreateTime int64             `json:"create_time"`
		Messages   []attachedMessage `json:"messages"`
	}{d.ID, d.Name, d.PathID, d.Size, d.CreateTime, d.messages})
}

// Attachments lists the user's attachments (GET /attachments) and the realm's upload space used.
func (s *UploadState) Attachments(userID int) ([]AttachmentView, int) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	out := []AttachmentView{}
	for _, a := range s.attachmentList() {
		if a.OwnerID == userID {
			out = append(out, s.attachmentView(a))
		}
	}
	return out, s.uploadSpaceUsed()
}

// RemoveAttachment deletes one of the user's attachments (DELETE /attachments/{id}); someone
// else's and missing ones get the same error.
func (s *UploadState) RemoveAttachment(userID, id int) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	a := s.attachments[id]
	if a == nil && mutation.On("attachment-missing-as-not-found") {
		return apierr.Of(apierr.KindNotFound, "NOT_FOUND", "Invalid attachment")
	}
	if a == nil || a.OwnerID != userID && !mutation.On("attachment-of-other-user-deleted") {
		return apierr.BadRequest("Invalid attachment")
	}
	if mutation.On("attachment-delete-removes-oldest") {
		a = s.oldestAttachmentOf(userID)
	}
	if mutation.On("attachment-referenced-delete-refused") && len(a.MessageIDs) > 0 {
		return apierr.BadRequest("The attachment is referenced by a message")
	}
	if mutation.On("attachment-delete-not-applied") {
		return nil
	}
	s.deleteAttachment(a)
	return nil
}

// attachmentList returns the attachments in ID order.
func (s *UploadState) attachmentList() []*Attachment {
	ids := slices.Sorted(maps.Keys(s.attachments))
	out := make([]*Attachment, len(ids))
	for i, id := range ids {
		out[i] = s.attachments[id]
	}
	return out
}

func (s *UploadState) uploadSpaceUsed() int {
	n := 0
	for _, a := range s.attachments {
		n += len(a.Content)
	}
	return n
}

// deleteAttachment removes an attachment and tells its owner, as the real server does.
func (s *UploadState) deleteAttachment(a *Attachment) {
	delete(s.attachments, a.ID)
	delete(s.byPath, a.PathID)
	if mutation.On("attachment-file-still-served") {
		s.byPath[a.PathID] = a
	}
	s.publish(events.Event{
		"type": "attachment", "op": "remove", "attachment": map[string]any{"id": a.ID},
		"upload_space_used": s.uploadSpaceUsed(),
	}, a.OwnerID)
}

// publishAttachment tells the owner of an attachment's new state (op add or update).
func (s *UploadState) publishAttachment(op string, a *Attachment) {
	s.publish(events.Event{
		"type": "attachment", "op": op, "attachment": s.attachmentView(a), "upload_space_used": s.uploadSpaceUsed(),
	}, a.OwnerID)
}

// uploadLink finds upload URLs (relative or absolute) in content.
var uploadLink = regexp.MustCompile(`/user_uploads/([A-Za-z0-9._~%/-]+)`)

// linkedAttachments returns the existing attachments that content links, in ID order. A link
// may run into trailing punctuation ("see /user_uploads/…/a.txt."), which is trimmed off.
func (s *UploadState) linkedAttachments(content string) []*Attachment {
	// Most messages link nothing: they then cost no map, no regexp search and no sort.
	if len(s.byPath) == 0 || !strings.Contains(content, "/user_uploads/") {
		return nil
	}
	found := map[int]*Attachment{}
	for _, match := range uploadLink.FindAllStringSubmatch(content, -1) {
		path := match[1]
		for path != "" {
			if a := s.byPath[path]; a != nil {
				found[a.ID] = a
				break
			}
			last := path[len(path)-1]
			if !strings.ContainsRune(".,;:!?-~%/", rune(last)) {
				break
			}
			path = path[:len(path)-1]
		}
	}
	out := make([]*Attachment, 0, len(found))
	for _, id := range slices.Sorted(maps.Keys(found)) {
		out = append(out, found[id])
	}
	return out
}

// claimAttachment records that m references a, if its sender may share the file (the real
// server ignores links to files the sender cannot see), and tells the owner.
func (s *UploadState) claimAttachment(a *Attachment, m *Message) {
	sender := s.accts.users[m.SenderID]
	if sender == nil || !s.mayShare(sender, a) || a.references(m.ID) {
		return
	}
	a.MessageIDs = append(a.MessageIDs, m.ID)
	slices.Sort(a.MessageIDs)
	s.publishAttachment("update", a)
}

// mayShare is the real server's attachment access rule: the owner, or a user who can read a
// message that references the file.
func (s *UploadState) mayShare(u *User, a *Attachment) bool {
	if a.OwnerID == u.ID {
		return true
	}
	for _, id := range a.MessageIDs {
		if m := s.msgs.messages.get(id); m != nil && s.msgs.canRead(u, m) {
			return true
		}
	}
	return false
}

func (a *Attachment) references(messageID int) bool { return slices.Contains(a.MessageIDs, messageID) }

func (a *Attachment) referencedByAny(ids map[int]bool) bool {
	return slices.ContainsFunc(a.MessageIDs, func(id int) bool { return ids[id] })
}

func (a *Attachment) dropMessages(ids map[int]bool) {
	a.MessageIDs = slices.DeleteFunc(a.MessageIDs, func(id int) bool { return ids[id] })
}

// expireUnusedUploads deletes the attachments no message references that are older than the
// unused-upload lifetime.
func (s *UploadState) expireUnusedUploads(lifetime int64) {
	if mutation.On("unused-upload-never-expires") {
		return
	}
	now := s.Now()
	for _, a := range s.attachmentList() {
		if len(a.MessageIDs) == 0 && now-a.CreateTime >= lifetime {
			s.deleteAttachment(a)
		}
	}
}
