package realm

import "github.com/chatconform/chatconform/fakeserver/internal/events"

// The domain publishes an event for every state change, in the real server's shapes, while it
// still holds the lock: events therefore reach queues in the order the changes happened, and
// no handler can forget one.

// publish sends ev to the given users' queues.
func (s *core) publish(ev events.Event, userIDs ...int) {
	if len(userIDs) > 0 {
		s.events.Publish(ev, userIDs...)
	}
}

// noQueues tells that no event queue exists (events.Idler): an event built now reaches nobody,
// so a rule may skip building it and gathering its audience.
func (s *core) noQueues() bool {
	idle, ok := s.events.(events.Idler)
	return ok && idle.Idle()
}

// LinkifiersFor tells whether a client gets linkifiers at all: from feature level 176 on
// only with the linkifier_url_template capability (older clients cannot read URL templates).
func LinkifiersFor(featureLevel int, c events.Client) bool {
	return featureLevel < LevelLinkifierURLTemplate || c.Can("linkifier_url_template")
}
