package realm

import (
	"slices"

	"github.com/chatconform/chatconform/fakeserver/internal/apierr"
)

// UploadedFile is a stored file as a download serves it.
type UploadedFile struct {
	Name        string
	ContentType string
	Content     []byte
}

// The real server's answers for a file that does not exist and for one the user may not see.
var (
	errFileNotFound  = apierr.Of(apierr.KindNotFound, "BAD_REQUEST", "File not found.")
	errFileForbidden = apierr.Of(apierr.KindForbidden, "BAD_REQUEST", "You are not authorized to view this file.")
)

// DownloadFile finds an uploaded file by its path_id for a user who may see it: its owner, or
// whoever can read a message that references it (the real server's validate_attachment_request).
func (s *UploadState) DownloadFile(userID int, pathID string) (UploadedFile, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	a := s.byPath[pathID]
	u := s.accts.users[userID]
	if a == nil || u == nil {
		return UploadedFile{}, errFileNotFound
	}
	if a.OwnerID != userID && !slices.ContainsFunc(a.MessageIDs, func(id int) bool {
		m := s.msgs.messages.get(id)
		return m != nil && s.msgs.canRead(u, m)
	}) {
		return UploadedFile{}, errFileForbidden
	}
	return UploadedFile{Name: a.Name, ContentType: a.ContentType, Content: slices.Clone(a.Content)}, nil
}
