package realm

import (
	"maps"
	"slices"

	"github.com/chatconform/chatconform/fakeserver/internal/events"
)

// The domain publishes an event for every state change, in the real server's shapes, while it
// still holds the lock: events therefore reach queues in the order the changes happened, and
// no handler can forget one.

// publish sends ev to the given users' queues.
func (s *core) publish(ev events.Event, userIDs ...int) {
	if len(userIDs) > 0 {
		s.events.Publish(ev, userIDs...)
	}
}

// activeUserIDs lists every active user, in ID order: the audience of realm-wide events.
func (s *AccountState) activeUserIDs() []int {
	var ids []int
	for _, id := range slices.Sorted(maps.Keys(s.users)) {
		if s.users[id].IsActive {
			ids = append(ids, id)
		}
	}
	return ids
}

// channelAudience lists the active users who can see a channel exist: the audience of its
// creation and of updates to its properties.
func (s *ChannelState) channelAudience(ch *Channel) []int {
	var ids []int
	for _, id := range s.accts.activeUserIDs() {
		if ch.canAccess(s.accts.users[id]) || (ch.InviteOnly && s.accts.users[id].IsAdmin()) {
			ids = append(ids, id)
		}
	}
	return ids
}

// channelUpdate publishes a change of one channel property.
func (s *ChannelState) channelUpdate(ch *Channel, property string, value any) {
	s.publish(events.Event{
		"type": "stream", "op": "update", "stream_id": ch.ID, "name": ch.Name, "property": property, "value": value,
	}, s.channelAudience(ch)...)
}

// publishUserAdded tells every user of a new account, each as they may see it; under
// client_gravatar the avatar URL is null where the client can compute it.
func (s *AccountState) publishUserAdded(u *User) {
	s.events.PublishEach(func(id int, c events.Client) []events.Event {
		viewer := s.users[id]
		person := s.userView(viewer, u)
		if c.ClientGravatar && s.canSeeRealEmail(viewer, u) {
			person.AvatarURL = nil
		}
		return []events.Event{{"type": "realm_user", "op": "add", "person": person}}
	}, s.activeUserIDs()...)
}

// publishUserUpdate tells every user of a change to one account's fields.
func (s *AccountState) publishUserUpdate(u *User, fields map[string]any) {
	person := map[string]any{"user_id": u.ID}
	maps.Copy(person, fields)
	s.publish(events.Event{"type": "realm_user", "op": "update", "person": person}, s.activeUserIDs()...)
}

// publishRealmList sends the whole new list of a realm-wide collection (linkifiers,
// playgrounds), as the real server does for these. From feature level 176 on, linkifier
// events go only to clients with the linkifier_url_template capability.
func (s *OrganizationState) publishRealmList(eventType string, list any) {
	ev := events.Event{"type": eventType, eventType: list}
	s.events.PublishEach(func(_ int, c events.Client) []events.Event {
		if eventType == "realm_linkifiers" && !LinkifiersFor(s.settings.FeatureLevel, c) {
			return nil
		}
		return []events.Event{ev}
	}, s.accts.activeUserIDs()...)
}

// LinkifiersFor tells whether a client gets linkifiers at all: from feature level 176 on
// only with the linkifier_url_template capability (older clients cannot read URL templates).
func LinkifiersFor(featureLevel int, c events.Client) bool {
	return featureLevel < LevelLinkifierURLTemplate || c.Can("linkifier_url_template")
}
