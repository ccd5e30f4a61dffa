package api

import (
	"unicode/utf8"

	"github.com/chatconform/chatconform/fakeserver/internal/apierr"
	"github.com/chatconform/chatconform/fakeserver/internal/handler"
	"github.com/chatconform/chatconform/fakeserver/internal/realm"
)

// reportMessage: POST /messages/{message_id}/report (from feature level 382) — a report to the
// realm's moderation request channel, posted by the notification bot.
func (s *Service) reportMessage(c *handler.Call) (handler.Fields, error) {
	id, err := c.PathID("message_id", apierr.InvalidMessage)
	if err != nil {
		return nil, err
	}
	reportType := c.P.RequiredEnum("report_type", realm.ReportTypeKeys()...)
	description, _ := c.P.String("description")
	if utf8.RuneCountInString(description) > realm.MaxReportDescriptionLength {
		c.P.Fail(apierr.BadRequest("description is too long (limit: %d characters)", realm.MaxReportDescriptionLength))
	}
	if err := c.Done(); err != nil {
		return nil, err
	}
	return handler.Fields{}, s.realm().ReportMessage(c.User.ID, id, reportType, description)
}
