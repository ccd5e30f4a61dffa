package realm

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/chatconform/chatconform/fakeserver/internal/apierr"
)

// ReportType is one reason a message may be reported for (register's
// server_report_message_types): the key requests name, the name reports show.
type ReportType struct {
	Key  string `json:"key"`
	Name string `json:"name"`
}

// ReportTypes are the real server's report reasons, in its order.
var ReportTypes = []ReportType{
	{"spam", "Spam"}, {"harassment", "Harassment"}, {"inappropriate", "Inappropriate content"},
	{"norms", "Violates community norms"}, {"other", "Other reason"},
}

// ReportTypeKeys are the keys of ReportTypes, the values report_type takes.
func ReportTypeKeys() []string {
	keys := make([]string, len(ReportTypes))
	for i, t := range ReportTypes {
		keys[i] = t.Key
	}
	return keys
}

// MaxReportDescriptionLength bounds a report's description, in characters.
const MaxReportDescriptionLength = 1000

// The real server quotes at most this many characters of the reported message, to leave room
// in the report for the description and the report's own text.
const (
	maxMessageLength       = 10000
	maxReportSnippetLength = maxMessageLength - MaxReportDescriptionLength - 500
	reportTruncated        = "\n[message truncated]"
)

// ModerationRequestChannelID is the realm setting moderation_request_channel_id: the channel
// message reports go to, -1 for none.
func (s *MessageState) ModerationRequestChannelID() int {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if s.org.moderationChannel == 0 {
		return -1
	}
	return s.org.moderationChannel
}

// checkModerationRequestChannel refuses what moderation_request_channel_id may not be: an
// unknown or archived channel, or a public one. A negative ID turns reporting off. The caller
// holds the lock.
func (s *MessageState) checkModerationRequestChannel(id int) error {
	if id < 0 {
		return nil
	}
	ch := s.chans.channels[id]
	switch {
	case ch == nil || ch.Archived:
		return apierr.InvalidChannel
	case !ch.InviteOnly:
		return apierr.BadRequest("Moderation request channel must be private.")
	}
	return nil
}

// ReportMessage reports a message to the realm's moderators (POST /messages/{id}/report): the
// notification bot posts the report to the moderation request channel, in the topic named for
// the reported message's sender. The checks come in the real server's order: the description
// an "other" report needs, a moderation channel, then the reporter's access to the message.
func (s *MessageState) ReportMessage(reporterID, messageID int, reportType, description string) error {
	// The handler takes only these keys; the domain refuses others itself, as reportContent
	// names the type by its index.
	if !slices.ContainsFunc(ReportTypes, func(t ReportType) bool { return t.Key == reportType }) {
		return apierr.BadRequest("Invalid report_type")
	}
	if reportType == "other" && description == "" {
		return apierr.BadRequest("An explanation is required.")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	ch := s.chans.channels[s.org.moderationChannel]
	if ch == nil {
		return apierr.BadRequest("Message reporting is not enabled in this organization.")
	}
	reporter := s.accts.users[reporterID]
	m, err := s.accessibleMessage(reporter, messageID)
	if err != nil {
		return err
	}
	sender := s.userOrBot(m.SenderID)
	s.sendNotification(ch, sender.FullName+" moderation", s.reportContent(reporter, sender, m, reportType, description))
	return nil
}

// reportContent is a report in the real server's form: who reported whose message, sent when
// (and to whom, for a direct message of the reporter's own or a group's); then the reason and
// description quoted, and the message itself, shortened, in a spoiler under a link to it.
func (s *MessageState) reportContent(reporter, sender *User, m *Message, reportType, description string) string {
	sent := "<time:" + time.Unix(m.Timestamp, 0).UTC().Format("2006-01-02T15:04:05+00:00") + ">"
	var to string
	switch {
	case m.IsDirect && len(m.Participants) > 2:
		var others []string
		for _, id := range m.Participants {
			if id != sender.ID {
				others = append(others, silentMention(s.userOrBot(id)))
			}
		}
		to = " to " + spokenList(others)
	case m.IsDirect && sender.ID == reporter.ID:
		other := reporter
		for _, id := range m.Participants {
			if id != reporter.ID {
				other = s.userOrBot(id)
			}
		}
		to = " to " + silentMention(other)
	}
	original := fmt.Sprintf("[Original message](%s)", s.userData.messageLink(m))
	if !m.IsDirect {
		original = fmt.Sprintf("Original message at #**%s>%s@%d**", s.chans.channels[m.ChannelID].Name, m.Topic, m.ID)
	}
	quoted := m.Content
	if r := []rune(quoted); len(r) > maxReportSnippetLength {
		quoted = string(r[:maxReportSnippetLength-len(reportTruncated)]) + reportTruncated
	}
	i := slices.IndexFunc(ReportTypes, func(t ReportType) bool { return t.Key == reportType })
	fence := unusedFence(quoted)
	return fmt.Sprintf("%s reported a message sent by %s%s at %s.\n```quote\n**%s**. %s\n```\n\n%s spoiler %s\n%s\n%s\n",
		silentMention(reporter), silentMention(sender), to, sent, ReportTypes[i].Name, description, fence, original, quoted, fence)
}

// silentMention is the Markdown of a mention that notifies nobody.
func silentMention(u *User) string { return fmt.Sprintf("@_**%s|%d**", u.FullName, u.ID) }

// spokenList joins items as a sentence lists them: "a", "a and b", "a, b, and c".
func spokenList(items []string) string {
	switch len(items) {
	case 0:
		return ""
	case 1:
		return items[0]
	case 2:
		return items[0] + " and " + items[1]
	}
	return strings.Join(items[:len(items)-1], ", ") + ", and " + items[len(items)-1]
}
