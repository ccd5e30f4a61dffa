package realm

import "github.com/chatconform/chatconform/fakeserver/internal/mutation"

// DeleteTopic deletes the messages of a topic that the requester can access, newest first in
// batches (POST /streams/{id}/delete_topic). complete is false when the bound stopped it early;
// the client repeats the request to finish.
func (s *MessageState) DeleteTopic(requesterID, channelID int, topic string, b Batching) (complete bool, _ error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	u := s.accts.users[requesterID]
	ch, err := s.chans.accessibleChannel(u, channelID)
	if err != nil {
		return false, err
	}
	if !mutation.On("delete-topic-display-name-literal") {
		topic = s.topicNamed(topic)
	}
	if mutation.On("delete-topic-in-every-channel") {
		return b.run(s.topicInEveryChannel(u, topic), s.deleteMessages), nil
	}
	if !b.run(s.topicMessages(u, ch.ID, topic), s.deleteMessages) {
		if mutation.On("delete-topic-stopped-reports-complete") {
			return true, nil
		}
		return false, nil
	}
	// The real server forgets the topic's visibility settings with the topic.
	s.userData.clearTopicVisibility(ch, topic)
	return true, nil
}
