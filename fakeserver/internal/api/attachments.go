package api

import (
	"github.com/chatconform/chatconform/fakeserver/internal/apierr"
	"github.com/chatconform/chatconform/fakeserver/internal/handler"
	"github.com/chatconform/chatconform/fakeserver/internal/params"
	"github.com/chatconform/chatconform/fakeserver/internal/realm"
)

// uploadFile: POST /user_uploads, a multipart request carrying exactly one file.
func (s *Service) uploadFile(c *handler.Call) (handler.Fields, error) {
	if err := c.Done(); err != nil {
		return nil, err
	}
	files := c.P.Files()
	switch {
	case len(files) == 0:
		return nil, apierr.BadRequest("You must specify a file to upload")
	case len(files) > 1:
		return nil, apierr.BadRequest("You may only upload one file at a time")
	}
	fh := files[0]
	if fh.Size > realm.MaxUploadBytes {
		return nil, apierr.BadRequest("File is larger than this server's configured maximum upload size (%d MiB).", realm.MaxUploadBytes>>20)
	}
	content, err := params.FileContent(fh, realm.MaxUploadBytes+1)
	if err != nil {
		return nil, err
	}
	contentType := fh.Header.Get("Content-Type")
	if contentType == "" {
		contentType = "application/octet-stream"
	}
	up, err := s.realm().UploadFile(c.User.ID, fh.Filename, contentType, content, s.Config().UploadQuota())
	if err != nil {
		return nil, err
	}
	// uri is the deprecated name of url, still sent by the real server.
	if !s.realm().AtLeast(realm.LevelUploadURL) {
		return handler.Fields{"uri": up.URL, "filename": up.Filename}, nil
	}
	return handler.Fields{"uri": up.URL, "url": up.URL, "filename": up.Filename}, nil
}

// getAttachments: GET /attachments — the requester's uploads.
func (s *Service) getAttachments(c *handler.Call) (handler.Fields, error) {
	if err := c.Done(); err != nil {
		return nil, err
	}
	list, used := s.realm().Attachments(c.User.ID)
	return handler.Fields{"attachments": list, "upload_space_used": used}, nil
}

// removeAttachment: DELETE /attachments/{attachment_id} (operation 18).
func (s *Service) removeAttachment(c *handler.Call) (handler.Fields, error) {
	return handler.ChangeByID(c, "attachment_id", apierr.BadRequest("Invalid attachment"), s.realm().RemoveAttachment)
}
