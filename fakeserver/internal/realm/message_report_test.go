package realm

import (
	"testing"

	"github.com/chatconform/chatconform/fakeserver/internal/apierr"
)

// A report type outside ReportTypes is refused by the domain itself, with everything else in
// order (a moderation channel, a message the reporter reads), and nothing is posted: the
// handler's enum is not the only guard between a caller and reportContent.
func TestReportMessageRefusesUnknownType(t *testing.T) {
	s := newIndexedRealm(t)
	secret := s.channelsByName["secret"]
	if _, err := s.UpdateRealm(RealmChange{ModerationChannel: &secret.ID}); err != nil {
		t.Fatalf("setting the moderation channel: %v", err)
	}
	messageID, err := s.Send(1, Draft{Channel: "general", Topic: "reported", TopicGiven: true, Content: "spam, spam", Client: "test"})
	if err != nil {
		t.Fatalf("sending the message to report: %v", err)
	}
	before := s.messages.len()
	err = s.ReportMessage(1, messageID, "nonsense", "why")
	if e := apierr.From(err); err == nil || e.Status != 400 {
		t.Fatalf("ReportMessage with an unknown type: %v, want a 400 refusal", err)
	}
	if s.messages.len() != before {
		t.Errorf("a refused report posted %d messages", s.messages.len()-before)
	}
	if err := s.ReportMessage(1, messageID, "spam", ""); err != nil {
		t.Errorf("ReportMessage with a known type: %v", err)
	}
}
