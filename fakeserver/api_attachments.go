package fakeserver

import (
	"github.com/chatconform/chatconform/fakeserver/internal/apierr"
	"github.com/chatconform/chatconform/fakeserver/internal/realm"
)

// getAttachments: GET /attachments — the requester's uploads.
func (s *Server) getAttachments(c *call) (fields, error) {
	if err := c.done(); err != nil {
		return nil, err
	}
	list, used := s.realm().Attachments(c.user.ID)
	return fields{"attachments": list, "upload_space_used": used}, nil
}

// removeAttachment: DELETE /attachments/{attachment_id} (operation 18).
func (s *Server) removeAttachment(c *call) (fields, error) {
	invalid := apierr.BadRequest("Invalid attachment")
	id, err := c.pathID("attachment_id", invalid)
	if err != nil {
		return nil, err
	}
	if err := c.done(); err != nil {
		return nil, err
	}
	if aerr := s.realm().RemoveAttachment(c.user.ID, id); aerr != nil {
		return nil, aerr
	}
	return fields{}, nil
}

// uploadQuota is the configured bound on stored uploads.
func (c Config) uploadQuota() realm.UploadQuota {
	return realm.UploadQuota{PerUser: c.UploadQuotaBytesPerUser, Total: c.UploadQuotaBytesTotal}
}
