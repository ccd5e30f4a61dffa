package realm

import (
	"slices"
	"strings"

	"github.com/chatconform/chatconform/fakeserver/internal/apierr"
	"github.com/chatconform/chatconform/fakeserver/internal/markdown"
)

// wildcardMentionThreshold is the real server's "many": channel wildcard mentions in channels
// with more subscribers, and topic wildcard mentions in topics with more participants, are
// for members of can_mention_many_users_group only.
const wildcardMentionThreshold = 15

// mentionSet is what a message's content mentions.
type mentionSet struct {
	UserIDs        []int
	StreamWildcard bool
	TopicWildcard  bool
}

func mentionsOf(r markdown.Result) mentionSet {
	return mentionSet{UserIDs: r.MentionedUserIDs, StreamWildcard: r.StreamWildcard, TopicWildcard: r.TopicWildcard}
}

// mentionUsers resolves mention names against the realm's active users (under the lock).
type mentionUsers struct{ s *MessageState }

// MentionUser implements markdown.Users: by ID (the name must match) or by full name; a name
// two active users share mentions nobody, as the real server asks for the ID then.
func (m mentionUsers) MentionUser(name string, id int) (int, string, bool) {
	if id > 0 {
		u := m.s.accts.users[id]
		if u == nil || !u.IsActive || !strings.EqualFold(u.FullName, strings.TrimSpace(name)) {
			return 0, "", false
		}
		return u.ID, u.FullName, true
	}
	var found *User
	for _, u := range m.s.accts.users {
		if u.IsActive && strings.EqualFold(u.FullName, strings.TrimSpace(name)) {
			if found != nil {
				return 0, "", false
			}
			found = u
		}
	}
	if found == nil {
		return 0, "", false
	}
	return found.ID, found.FullName, true
}

// render renders message content with the realm's users for mentions.
func (s *MessageState) render(content string) markdown.Result {
	r := markdown.RenderMessage(content, mentionUsers{s})
	r.HTML = serializedHTML(r.HTML)
	return r
}

// topicParticipants are the users who sent a message to, or reacted to a message in, a
// channel's topic (case-insensitive, as topics are).
func (s *MessageState) topicParticipants(channelID int, topic string) map[int]bool {
	ids := map[int]bool{}
	for _, id := range s.topicMessageIDs(channelID, topic) {
		m := s.messages.get(id)
		ids[m.SenderID] = true
		for _, r := range m.Reactions {
			ids[r.UserID] = true
		}
	}
	return ids
}

// checkWildcardMentions applies can_mention_many_users_group to a message by sender in the
// channel's topic: wildcards are free in small channels and topics only.
func (s *MessageState) checkWildcardMentions(sender *User, ch *Channel, topic string, ms mentionSet) error {
	if !ms.StreamWildcard && !ms.TopicWildcard {
		return nil
	}
	allowed := s.org.inGroupSetting(sender.ID, s.org.editing.CanMentionManyUsersGroup)
	if ms.StreamWildcard && !allowed && len(ch.Subscribers) > wildcardMentionThreshold {
		return apierr.Of(apierr.KindInvalid, "STREAM_WILDCARD_MENTION_NOT_ALLOWED", "You do not have permission to use channel wildcard mentions in this channel.")
	}
	if ms.TopicWildcard && !allowed {
		participants := s.topicParticipants(ch.ID, topic)
		participants[sender.ID] = true
		if len(participants) > wildcardMentionThreshold {
			return apierr.Of(apierr.KindInvalid, "TOPIC_WILDCARD_MENTION_NOT_ALLOWED", "You do not have permission to use topic wildcard mentions in this topic.")
		}
	}
	return nil
}

// applyMentionFlags sets each row's mention flags from the content: mentioned for users
// named, stream_wildcard_mentioned for everyone on a channel wildcard, topic_wildcard_mentioned
// for the topic's participants on a topic wildcard, and the older wildcard_mentioned as the
// OR of the two; and has_alert_word for the recipients, not the sender, whose alert words the
// content holds (alert_words.go). The mentions are the content's, as rendering found them; messages do not keep
// them, since nothing reads them after the flags are set.
func (s *MessageState) applyMentionFlags(m *Message, mentions mentionSet) {
	var participants map[int]bool
	if mentions.TopicWildcard && !m.IsDirect {
		participants = s.topicParticipants(m.ChannelID, m.Topic)
	}
	// Below level 224 there was no topic wildcard and only the one wildcard flag.
	split := s.atLeast(LevelWildcardFlags)
	// Each row's five flags are worked out together and the row is written only when they
	// change it: as setting each flag in turn would leave it, without a search per flag.
	for i := range m.Rows {
		id := int(m.Rows[i].userID)
		stream := mentions.StreamWildcard
		topic := split && mentions.TopicWildcard && !m.IsDirect && participants[id]
		was := m.Rows[i].flags
		f := withFlag(was, flagMentioned, slices.Contains(mentions.UserIDs, id))
		f = withFlag(f, flagStreamWildcardMentioned, split && stream)
		f = withFlag(f, flagTopicWildcardMentioned, topic)
		f = withFlag(f, flagWildcardMentioned, stream || topic)
		f = withFlag(f, flagHasAlertWord, id != m.SenderID && s.userData.hasAlertWord(id, m.Content))
		if f != was {
			s.putRow(m, id, f)
		}
	}
}

// withFlag is f with bit set or cleared.
func withFlag(f, bit flagSet, on bool) flagSet {
	if on {
		return f | bit
	}
	return f &^ bit
}

var (
	flagMentioned               = flagBit("mentioned")
	flagStreamWildcardMentioned = flagBit("stream_wildcard_mentioned")
	flagTopicWildcardMentioned  = flagBit("topic_wildcard_mentioned")
	flagWildcardMentioned       = flagBit("wildcard_mentioned")
	flagHasAlertWord            = flagBit("has_alert_word")
)
