package realm

import (
	"maps"
	"slices"

	"github.com/chatconform/chatconform/fixtures"
)

// messagingState is the state of message editing and moving, topic muting, reactions and
// message flags.
type messagingState struct {
	// userTopics holds each user's topic visibility settings (muting), by user ID.
	userTopics map[int][]*userTopic
	// systemBots are the real server's system bots (system_bots.go), made at load.
	systemBots []*User
	// moderationChannel is the ID of the channel message reports go to, 0 for none.
	moderationChannel int
	// lastSubmessage numbers submessages.
	lastSubmessage int
	// keptTopics are, by channel, topics whose last message was deleted and that stay listed:
	// only the emptied-topic-still-listed mutant fills and reads it (mutants_messages.go).
	keptTopics map[int][]Topic
}

// loadMessaging sets up the messaging state of a realm being loaded from f (under the lock,
// after the system groups exist).
func (s *State) loadMessaging(*fixtures.Fixture) {
	s.messaging = messagingState{userTopics: map[int][]*userTopic{}}
	s.setDefaultGroupSettings()
	s.loadSystemBots()
}

// The real server's addresses of its notification bot and its Welcome Bot.
const (
	notificationBotEmail = "notification-bot@zulip.com"
	welcomeBotEmail      = "welcome-bot@zulip.com"
)

// userOrBot finds a message sender: a realm user or a system bot.
func (s *State) userOrBot(id int) *User {
	if u := s.users[id]; u != nil {
		return u
	}
	if b := s.systemBotByID(id); b != nil {
		return b
	}
	// Unreachable for stored messages; a placeholder keeps views total.
	return &User{ID: id, FullName: "Unknown user", Email: "unknown@" + s.settings.Host, IsActive: false}
}

// botUser returns the notification bot.
func (s *State) botUser() *User { return s.systemBot(notificationBotEmail) }

// welcomeBotUser returns the Welcome Bot.
func (s *State) welcomeBotUser() *User { return s.systemBot(welcomeBotEmail) }

// sendNotification posts a notification-bot message to a channel's topic, as the real server
// does for moves and resolved topics (under the lock). Every subscriber receives it; it is
// read for the users in readFor and unread for the others.
func (s *State) sendNotification(ch *Channel, topic, content string, readFor ...int) *Message {
	bot := s.botUser()
	rendered := s.render(content)
	m := &Message{
		Content: sharedContent(content, rendered.HTML), Rendered: rendered.HTML, SenderID: bot.ID, Timestamp: s.Now(), Client: "Internal",
		ChannelID: ch.ID, Topic: topic, RecipientID: ch.RecipientID,
		ID: nextID(&s.next.message),
	}
	m.Rows = newRows(slices.Collect(maps.Keys(ch.Subscribers)), func(id int) bool { return slices.Contains(readFor, id) })
	s.storeMessage(m)
	s.applyMentionFlags(m, mentionsOf(rendered))
	s.afterMessageStored(m)
	s.publishNewMessage(m)
	if ch.FirstMessageID == 0 {
		ch.FirstMessageID = m.ID
	}
	return m
}
