package realm

import (
	"fmt"
	"net/url"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/chatconform/chatconform/fakeserver/internal/apierr"
	"github.com/chatconform/chatconform/fakeserver/internal/events"
	"github.com/chatconform/chatconform/fakeserver/internal/markdown"
	"github.com/chatconform/chatconform/fakeserver/internal/mutation"
)

// Message reminders: at the scheduled time the notification bot sends the requester a direct
// message that links the referenced message and quotes it, with the requester's note.

// MaxReminderNoteLength is the real server's limit on a reminder's note, in characters.
const MaxReminderNoteLength = 1000

// Reminder is a scheduled reminder of a message.
type Reminder struct {
	ID        int
	UserID    int
	MessageID int
	// DeliverAt is the scheduled delivery time, UNIX seconds.
	DeliverAt int64
	Note      string
	// Failed is set when the reminder fell due but could not be delivered (the message was
	// deleted or the requester lost access to it); it stays listed, as on the real server.
	Failed bool
}

// ReminderView is a reminder as GET /reminders lists it: the real server's fields and the
// Reminder resource of the API document (message_id, note).
type ReminderView struct {
	ReminderID                 int     `json:"reminder_id"`
	MessageID                  int     `json:"message_id"`
	ScheduledDeliveryTimestamp int64   `json:"scheduled_delivery_timestamp"`
	Note                       *string `json:"note,omitempty"` // from LevelReminderNote
	Type                       string  `json:"type"`
	To                         []int   `json:"to"`
	Content                    string  `json:"content"`
	RenderedContent            string  `json:"rendered_content"`
	Failed                     bool    `json:"failed"`
	ReminderTargetMessageID    int     `json:"reminder_target_message_id"`
}

// CreateReminder schedules a reminder of a message the user can read (POST /reminders), with
// the real server's checks in its order: the time first, then the message, then the note.
func (s *UserDataState) CreateReminder(userID, messageID int, deliverAt int64, note string) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if deliverAt <= s.Now() {
		return 0, apierr.BadRequest("Scheduled delivery time must be in the future.")
	}
	u := s.accts.users[userID]
	if m := s.msgs.messages.get(messageID); mutation.On("reminder-unreadable-message-accepted") && m != nil {
		u = s.msgs.userOrBot(m.SenderID)
	}
	if _, err := s.msgs.accessibleMessage(u, messageID); err != nil {
		return 0, err
	}
	note = strings.TrimLeft(strings.TrimRight(note, " \t\r\n\f\v"), "\n")
	if utf8.RuneCountInString(note) > MaxReminderNoteLength {
		return 0, apierr.BadRequest("Maximum reminder note length: %d characters", MaxReminderNoteLength)
	}
	if err := roomFor(s.accts, s.reminders, reminderOwner, userID, 1, MaxRemindersPerUser, "reminders"); err != nil {
		return 0, err
	}
	if mutation.On("reminder-scheduled-nowhere") {
		return nextID(&s.nextReminder), nil
	}
	r := &Reminder{
		ID: nextID(&s.nextReminder), UserID: userID, MessageID: messageID, DeliverAt: deliverAt, Note: note,
	}
	s.reminders[r.ID] = r
	s.publishReminders(events.Event{"type": "reminders", "op": "add", "reminders": []ReminderView{s.reminderView(r)}}, userID)
	return r.ID, nil
}

// Reminders lists the user's undelivered reminders in ID order (GET /reminders).
func (s *UserDataState) Reminders(userID int) []ReminderView {
	s.mu.RLock()
	defer s.mu.RUnlock()
	out := ownList(inIDOrder(s.reminders), reminderOwner, userID, s.reminderView)
	if len(out) > 0 && mutation.On("reminder-not-listed") {
		return []ReminderView{}
	}
	return out
}

// DeleteReminder cancels one of the user's reminders (DELETE /reminders/{id}).
func (s *UserDataState) DeleteReminder(userID, id int) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return deleteOwn(s.reminders, reminderOwner, userID, id, errNoReminder, s.removeReminder)
}

// errNoReminder is the real server's answer for a reminder that is not the user's.
func errNoReminder() error { return apierr.BadRequest("Reminder does not exist") }

func (s *UserDataState) removeReminder(r *Reminder) {
	delete(s.reminders, r.ID)
	s.publishReminders(events.Event{"type": "reminders", "op": "remove", "reminder_id": r.ID}, r.UserID)
}

// publishReminders tells the user's clients of a change to their reminders, from the level
// that has reminders events.
func (s *UserDataState) publishReminders(ev events.Event, userID int) {
	audience := []int{userID}
	if mutation.On("reminder-events-to-everyone") {
		audience = s.accts.activeUserIDs()
	}
	if s.atLeast(LevelReminderList) {
		s.publish(ev, audience...)
	}
}

func (s *UserDataState) reminderView(r *Reminder) ReminderView {
	content := ""
	if m := s.msgs.messages.get(r.MessageID); m != nil {
		content = s.reminderContent(m, r.Note)
	}
	v := ReminderView{
		ReminderID: r.ID, MessageID: r.MessageID, ScheduledDeliveryTimestamp: r.DeliverAt,
		Type: "private", To: []int{r.UserID}, Content: content, RenderedContent: renderPlain(content),
		Failed: r.Failed, ReminderTargetMessageID: r.MessageID,
	}
	if mutation.On("reminder-timestamp-milliseconds") {
		v.ScheduledDeliveryTimestamp *= 1000
	}
	if s.atLeast(LevelReminderNote) {
		v.Note = &r.Note
	}
	return v
}

// deliverDueReminders sends every reminder whose time has come, in time order (under the lock).
func (s *UserDataState) deliverDueReminders() {
	var due []*Reminder
	for _, r := range s.reminders {
		if mutation.On("reminder-delivered-a-minute-early") && !r.Failed && r.DeliverAt-60 <= s.Now() && r.DeliverAt > s.Now() {
			due = append(due, r)
		}
		if !r.Failed && r.DeliverAt <= s.Now() {
			due = append(due, r)
		}
	}
	slices.SortFunc(due, func(a, b *Reminder) int {
		if a.DeliverAt != b.DeliverAt {
			return int(a.DeliverAt - b.DeliverAt)
		}
		return a.ID - b.ID
	})
	for _, r := range due {
		u := s.accts.users[r.UserID]
		m := s.msgs.messages.get(r.MessageID)
		if u == nil || !u.IsActive || m == nil || !s.msgs.canRead(u, m) {
			r.Failed = true
			continue
		}
		s.msgs.sendAsNotificationBot(u, s.reminderContent(m, r.Note))
		s.removeReminder(r)
	}
}

// reminderContent is the reminder message in the real server's words: a link to the message,
// the note, and the message quoted under a link to it.
func (s *UserDataState) reminderContent(m *Message, note string) string {
	link := s.messageLink(m)
	var b strings.Builder
	if m.IsDirect {
		b.WriteString("You requested a reminder for the following direct message.")
	} else {
		ch := s.chans.channels[m.ChannelID]
		fmt.Fprintf(&b, "You requested a reminder for [#%s > %s @ 💬](%s).", ch.Name, s.topicDisplay(m.Topic), link)
	}
	if mutation.On("reminder-note-dropped") {
		note = ""
	}
	if note != "" {
		fmt.Fprintf(&b, " Note:\n > %s", note)
	}
	sender := s.accts.users[m.SenderID]
	name, id := "unknown", m.SenderID
	if sender != nil {
		name = sender.FullName
	}
	fence := unusedFence(m.Content)
	fmt.Fprintf(&b, "\n\n@_**%s|%d** [said](%s):\n%squote\n%s\n%s", name, id, link, fence, m.Content, fence)
	return b.String()
}

// unusedFence is a code fence of backticks that content does not contain, so that it can
// quote content whole.
func unusedFence(content string) string {
	fence := "```"
	for strings.Contains(content, fence) {
		fence += "`"
	}
	return fence
}

// topicDisplay shows the empty topic by its display name.
func (s *UserDataState) topicDisplay(topic string) string {
	if topic == "" {
		return s.settings.EmptyTopicDisplayName
	}
	return topic
}

// messageLink is a permanent link to a message, in the real server's narrow URL form.
func (s *UserDataState) messageLink(m *Message) string {
	if m.IsDirect {
		return fmt.Sprintf("/#narrow/dm/%s/near/%d", joinInts(m.Participants), m.ID)
	}
	ch := s.chans.channels[m.ChannelID]
	return fmt.Sprintf("/#narrow/channel/%d-%s/topic/%s/near/%d",
		ch.ID, narrowSlug(ch.Name), narrowSlug(s.topicDisplay(m.Topic)), m.ID)
}

// narrowSlug encodes a channel or topic name for a narrow URL, as the real server's
// hash-encoding does: URL escaping with "." in place of "%".
func narrowSlug(name string) string {
	return strings.ReplaceAll(url.PathEscape(strings.ReplaceAll(name, " ", "-")), "%", ".")
}

// renderPlain renders bot-written Markdown; mentions in it are silent and stay text.
func renderPlain(content string) string {
	if content == "" {
		return ""
	}
	return serializedHTML(markdown.Render(content))
}
