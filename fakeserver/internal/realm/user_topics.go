package realm

import (
	"strings"
	"unicode/utf8"

	"github.com/chatconform/chatconform/fakeserver/internal/apierr"
)

// SetUserTopic implements POST /user_topics, the replacement of muting topics (operation 3),
// on the same state: any policy from inherit to followed. Setting a policy needs access to
// the channel; going back to inherit only that it exists, as on the real server.
func (s *UserDataState) SetUserTopic(userID, channelID int, topic string, policy int) error {
	if policy < VisibilityInherit || policy > VisibilityFollowed {
		return apierr.BadRequest("Invalid visibility_policy")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if utf8.RuneCountInString(topic) > s.settings.MaxTopicLength {
		return apierr.BadRequest("topic is too long (limit: %d characters)", s.settings.MaxTopicLength)
	}
	ch := s.chans.channels[channelID]
	if policy != VisibilityInherit {
		found, err := s.chans.accessibleChannel(s.accts.users[userID], channelID)
		if err != nil {
			return err
		}
		ch = found
	} else if ch == nil {
		return apierr.InvalidChannel
	}
	topic = strings.TrimSpace(topic)
	if topic == s.settings.EmptyTopicDisplayName {
		topic = ""
	}
	s.setTopicVisibility(userID, ch, topic, policy)
	return nil
}
