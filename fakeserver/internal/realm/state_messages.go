package realm

import (
	"maps"
	"slices"
)

// MessageState is the aggregate of messages and topics: the messages with their per-user rows
// (flags), their index by topic, channel and sender, recipients, submessages, and the
// rules of sending, editing, moving, deleting, reacting, reading, narrowing and reporting.
//
// Files: messages.go, message_*.go, fetch_message.go, edit_message*.go, edit_typing.go,
// delete_topic.go, deletion.go, topics.go, flags*.go, mark_*.go, narrow.go, matches_narrow.go,
// mention.go, reactions.go, render.go, widgets.go, event_forms.go, typing.go, welcome_bot.go,
// read_receipts.go, mutants_messages.go, register_messages.go and this file.
type MessageState struct {
	*core
	messages                   messageStore   // by id (message_store.go)
	index                      messageIndex   // message ids by topic, channel, sender and unread (message_index.go)
	recipients                 map[string]int // recipient key -> recipient id
	nextMessage, nextRecipient int
	// lastSubmessage numbers submessages.
	lastSubmessage int
	// keptTopics are, by channel, topics whose last message was deleted and that stay listed:
	// only the emptied-topic-still-listed mutant fills and reads it (mutants_messages.go).
	keptTopics map[int][]Topic
	// lastClient is the client name of the message stored last, which the next shares when it
	// has the same (sharedClient).
	lastClient string
}

func (s *MessageState) reset() {
	*s = MessageState{core: s.core, recipients: map[string]int{}, index: newMessageIndex()}
}

// The real server's addresses of its notification bot and its Welcome Bot.
const (
	notificationBotEmail = "notification-bot@zulip.com"
	welcomeBotEmail      = "welcome-bot@zulip.com"
)

// userOrBot finds a message sender: a realm user or a system bot.
func (s *MessageState) userOrBot(id int) *User {
	if u := s.accts.users[id]; u != nil {
		return u
	}
	if b := s.accts.systemBotByID(id); b != nil {
		return b
	}
	// Unreachable for stored messages; a placeholder keeps views total.
	return &User{ID: id, FullName: "Unknown user", Email: "unknown@" + s.settings.Host, IsActive: false}
}

// botUser returns the notification bot.
func (s *MessageState) botUser() *User { return s.accts.systemBot(notificationBotEmail) }

// welcomeBotUser returns the Welcome Bot.
func (s *MessageState) welcomeBotUser() *User { return s.accts.systemBot(welcomeBotEmail) }

// sendNotification posts a notification-bot message to a channel's topic, as the real server
// does for moves and resolved topics (under the lock). Every subscriber receives it; it is
// read for the users in readFor and unread for the others.
func (s *MessageState) sendNotification(ch *Channel, topic, content string, readFor ...int) *Message {
	bot := s.botUser()
	rendered := s.render(content)
	m := &Message{
		Content: sharedContent(content, rendered.HTML), Rendered: rendered.HTML, SenderID: bot.ID, Timestamp: s.Now(), Client: "Internal",
		ChannelID: ch.ID, Topic: topic, RecipientID: ch.RecipientID,
		ID: nextID(&s.nextMessage),
	}
	m.Rows = newRows(slices.Collect(maps.Keys(ch.Subscribers)), func(id int) bool { return slices.Contains(readFor, id) })
	m = s.storeMessage(m)
	s.applyMentionFlags(m, mentionsOf(rendered))
	s.uploads.afterMessageStored(m)
	s.publishNewMessage(m)
	if ch.FirstMessageID == 0 {
		ch.FirstMessageID = m.ID
	}
	return m
}

// recipientID returns the stable ID of a set of recipients, creating it on first use.
func (s *MessageState) recipientID(key string) int {
	if id, ok := s.recipients[key]; ok {
		return id
	}
	id := nextID(&s.nextRecipient)
	s.recipients[key] = id
	return id
}

// sendAsNotificationBot sends the notification bot's direct message to u (under the lock),
// unread. The bot is no member of the realm (a system bot), so only u has a message row and
// only u is listed among the participants, whose views look their users up in the realm;
// the conversation itself is the pair's.
func (s *MessageState) sendAsNotificationBot(u *User, content string) *Message {
	return s.sendAsSystemBot(s.botUser(), u, content)
}

// sendAsSystemBot sends a system bot's direct message to u (under the lock), as
// sendAsNotificationBot does.
func (s *MessageState) sendAsSystemBot(bot, u *User, content string) *Message {
	pair := []int{bot.ID, u.ID}
	slices.Sort(pair)
	m := &Message{
		ID: nextID(&s.nextMessage), IsDirect: true, Content: content, Rendered: renderPlain(content),
		SenderID: bot.ID, Timestamp: s.Now(), Client: "Internal", Participants: []int{u.ID},
		RecipientID: s.recipientID("direct:" + joinInts(pair)), Rows: newRows([]int{u.ID}, func(int) bool { return false }),
	}
	m = s.storeMessage(m)
	s.publishNewMessage(m)
	return m
}
