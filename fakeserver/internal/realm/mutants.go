package realm

import "strings"

// Helpers of the mutation points (package mutation): what a mutant or variant does when its
// point is on, kept here so that each point in the domain stays a one-statement hook.

// topicPolicy is the user's visibility policy of a topic (VisibilityInherit when none).
func (s *UserDataState) topicPolicy(userID, channelID int, topic string) int {
	for _, t := range s.userTopics[userID] {
		if t.ChannelID == channelID && strings.EqualFold(t.Topic, topic) {
			return t.Policy
		}
	}
	return VisibilityInherit
}

// storePlayground adds a playground without any check.
func (s *OrganizationState) storePlayground(name, language, template string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.playgrounds = append(s.playgrounds, &Playground{ID: nextID(&s.nextPlayground), Name: name, PygmentsLanguage: language, URLTemplate: template})
}

// setEveryNotification sets all of a subscription's notification properties to b.
func setEveryNotification(sub *Subscription, b bool) {
	for _, p := range []string{"desktop_notifications", "audible_notifications", "push_notifications", "email_notifications", "wildcard_mentions_notify"} {
		v := b
		*sub.notification(p) = &v
	}
}

// firstIDsAsMax gives each topic entry the ID of its first message in place of its last.
func (s *MessageState) firstIDsAsMax(topics []Topic, channelID int) {
	for i, t := range topics {
		if ids := s.index.topics[channelID][topicKeyOf(t.Name)]; ids.Len() > 0 {
			topics[i].MaxID = ids.First()
		}
	}
}

// ownMessageIDs are the messages referencing an attachment that its owner sent.
func (s *UploadState) ownMessageIDs(a *Attachment) []int {
	ids := []int{}
	for _, id := range a.MessageIDs {
		if m := s.msgs.messages.get(id); m != nil && m.SenderID == a.OwnerID {
			ids = append(ids, id)
		}
	}
	return ids
}
