package fakeserver

import (
	"unicode/utf8"

	"github.com/chatconform/chatconform/fakeserver/internal/apierr"
	"github.com/chatconform/chatconform/fakeserver/internal/realm"
)

// reportMessage: POST /messages/{message_id}/report (from feature level 382) — a report to the
// realm's moderation request channel, posted by the notification bot.
func (s *Server) reportMessage(c *call) (fields, error) {
	id, err := c.pathID("message_id", apierr.InvalidMessage)
	if err != nil {
		return nil, err
	}
	reportType := c.p.RequiredEnum("report_type", realm.ReportTypeKeys()...)
	description, _ := c.p.String("description")
	if utf8.RuneCountInString(description) > realm.MaxReportDescriptionLength {
		c.p.Fail(apierr.BadRequest("description is too long (limit: %d characters)", realm.MaxReportDescriptionLength))
	}
	if err := c.done(); err != nil {
		return nil, err
	}
	return fields{}, s.realm().ReportMessage(c.user.ID, id, reportType, description)
}
