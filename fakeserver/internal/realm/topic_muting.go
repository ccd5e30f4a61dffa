package realm

import (
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/chatconform/chatconform/fakeserver/internal/apierr"
	"github.com/chatconform/chatconform/fakeserver/internal/events"
	"github.com/chatconform/chatconform/fakeserver/internal/mutation"
)

// Topic visibility policies, as the real server numbers them.
const (
	VisibilityInherit  = 0
	VisibilityMuted    = 1
	VisibilityUnmuted  = 2
	VisibilityFollowed = 3
)

// userTopic is one user's visibility setting for a channel's topic.
type userTopic struct {
	ChannelID   int
	Topic       string
	Policy      int
	LastUpdated int64
}

// UserTopicView is a topic visibility setting as POST /register (user_topics) shows it.
type UserTopicView struct {
	StreamID         int    `json:"stream_id"`
	TopicName        string `json:"topic_name"`
	LastUpdated      int64  `json:"last_updated"`
	VisibilityPolicy int    `json:"visibility_policy"`
}

// ChannelRef names a channel by ID or by name (exactly one is set).
type ChannelRef struct {
	ID   int
	Name string
}

// lookupChannel finds a channel by reference that u may access, with the real server's
// messages for each kind of reference.
func (s *UserDataState) lookupChannel(u *User, ref ChannelRef) (*Channel, error) {
	if ref.Name == "" {
		return s.chans.accessibleChannel(u, ref.ID)
	}
	ch := s.chans.channelsByName[strings.ToLower(strings.TrimSpace(ref.Name))]
	if ch == nil || !ch.canAccess(u) {
		return nil, apierr.BadRequest("Invalid channel name '%s'", ref.Name)
	}
	return ch, nil
}

// MuteTopic mutes (mute=true) or unmutes a topic for the user (PATCH
// /users/me/subscriptions/muted_topics). Both are idempotent; muting needs access to the
// channel, unmuting only that it exists, as on the real server.
func (s *UserDataState) MuteTopic(userID int, ref ChannelRef, topic string, mute bool) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if n := utf8.RuneCountInString(topic); n > s.settings.MaxTopicLength {
		return apierr.BadRequest("topic is too long (limit: %d characters)", s.settings.MaxTopicLength)
	}
	if mutation.On("mute-topic-refused-at-limit") && utf8.RuneCountInString(topic) == s.settings.MaxTopicLength {
		return apierr.BadRequest("topic is too long (limit: %d characters)", s.settings.MaxTopicLength)
	}
	u := s.accts.users[userID]
	var ch *Channel
	if mute {
		found, err := s.lookupChannel(u, ref)
		if err != nil {
			return err
		}
		ch = found
	} else {
		ch = s.chans.channels[ref.ID]
		if ref.Name != "" {
			ch = s.chans.channelsByName[strings.ToLower(strings.TrimSpace(ref.Name))]
		}
		if ch == nil {
			return apierr.BadRequest("Topic is not muted")
		}
	}
	topic = strings.TrimSpace(topic)
	if topic == s.settings.EmptyTopicDisplayName {
		topic = ""
	}
	if !s.atLeast(LevelIdempotentMuting) {
		muted := slices.ContainsFunc(s.userTopics[userID], func(t *userTopic) bool {
			return t.ChannelID == ch.ID && strings.EqualFold(t.Topic, topic) && t.Policy == VisibilityMuted
		})
		switch {
		case mute && muted:
			return apierr.BadRequest("Topic already muted")
		case !mute && !muted:
			return apierr.BadRequest("Topic is not muted")
		}
	}
	if mutation.On("mute-empty-topic-refused") && mute && !s.msgs.topicHasMessages(ch.ID, topic) {
		return apierr.BadRequest("Topic has no messages")
	}
	if mutation.On("mute-not-applied") && mute {
		return nil
	}
	if mutation.On("unmute-by-channel-name-ignored") && !mute && ref.Name != "" {
		return nil
	}
	if mutation.On("unmute-ignored") && !mute {
		return nil
	}
	if mutation.On("mute-repeat-refused") && mute && s.topicPolicy(userID, ch.ID, topic) == VisibilityMuted {
		return apierr.BadRequest("Topic already muted")
	}
	if mutation.On("unmute-unmuted-refused") && !mute && s.topicPolicy(userID, ch.ID, topic) != VisibilityMuted {
		return apierr.BadRequest("Topic is not muted")
	}
	policy := VisibilityInherit
	if mute {
		policy = VisibilityMuted
	}
	s.setTopicVisibility(userID, ch, topic, policy)
	return nil
}

// setTopicVisibility records a user's policy for a topic and tells the user's clients.
func (s *UserDataState) setTopicVisibility(userID int, ch *Channel, topic string, policy int) {
	list := s.userTopics[userID]
	i := slices.IndexFunc(list, func(t *userTopic) bool { return t.ChannelID == ch.ID && strings.EqualFold(t.Topic, topic) })
	switch {
	case i >= 0 && list[i].Policy == policy:
		return
	case i >= 0 && policy == VisibilityInherit:
		list = slices.Delete(slices.Clone(list), i, i+1)
	case i >= 0:
		list[i].Policy, list[i].LastUpdated = policy, s.Now()
	case policy == VisibilityInherit:
		return
	default:
		list = append(list, &userTopic{ChannelID: ch.ID, Topic: topic, Policy: policy, LastUpdated: s.Now()})
	}
	s.userTopics[userID] = list
	// The legacy event first, as the real server sends it; the hub keeps it from queues that
	// asked for user_topic.
	s.publish(events.Event{"type": "muted_topics", "muted_topics": s.mutedTopics(userID)}, userID)
	if s.atLeast(LevelUserTopicState) {
		ev := events.Event{"type": "user_topic", "stream_id": ch.ID, "topic_name": topic, "last_updated": s.Now(), "visibility_policy": policy}
		if mutation.On("user-topic-event-to-everyone") {
			s.publish(ev, s.accts.activeUserIDs()...)
			return
		}
		s.publish(ev, userID)
	}
}

// clearTopicVisibility removes every user's setting for a topic (a deleted topic).
func (s *UserDataState) clearTopicVisibility(ch *Channel, topic string) {
	for userID, list := range s.userTopics {
		for _, t := range list {
			if t.ChannelID == ch.ID && strings.EqualFold(t.Topic, topic) {
				s.setTopicVisibility(userID, ch, t.Topic, VisibilityInherit)
				break
			}
		}
	}
}

// UserTopics lists the user's topic visibility settings for POST /register.
func (s *UserDataState) UserTopics(userID int) []UserTopicView {
	s.mu.RLock()
	defer s.mu.RUnlock()
	out := []UserTopicView{}
	for _, t := range s.userTopics[userID] {
		out = append(out, UserTopicView{StreamID: t.ChannelID, TopicName: t.Topic, LastUpdated: t.LastUpdated, VisibilityPolicy: t.Policy})
	}
	return out
}

// MutedTopics lists the user's muted topics in the legacy shape [channel name, topic, time].
func (s *UserDataState) MutedTopics(userID int) [][]any {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.mutedTopics(userID)
}

func (s *UserDataState) mutedTopics(userID int) [][]any {
	out := [][]any{}
	for _, t := range s.userTopics[userID] {
		if ch := s.chans.channels[t.ChannelID]; ch != nil && t.Policy == VisibilityMuted {
			out = append(out, []any{ch.Name, t.Topic, t.LastUpdated})
		}
	}
	return out
}
