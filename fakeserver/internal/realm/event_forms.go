package realm

import (
	"maps"
	"slices"
	"strings"

	"github.com/chatconform/chatconform/fakeserver/internal/apierr"
	"github.com/chatconform/chatconform/fakeserver/internal/events"
	"github.com/chatconform/chatconform/fakeserver/internal/mutation"
)

// The events whose shape depends on how a client registered its queue (apply_markdown,
// client_gravatar, narrow, all_public_streams, slim_presence, client_capabilities) are
// published as forms: the hub asks for each queue's version, as the real server's event
// queues finalize each event per client.

// eventMessage is a message as a message event carries it: the flags sit beside it in the
// event, not inside (the shallower field hides MessageView's and is left out when nil).
type eventMessage struct {
	MessageView
	Flags []string `json:"flags,omitempty"`
}

// publishNewMessage sends each recipient, and each client of all_public_streams that can
// read a public channel, the message in the form their queue asked for, with their flags.
func (s *MessageState) publishNewMessage(m *Message) {
	if s.noQueues() {
		return // the audience alone walks every user
	}
	audience := m.Rows.userIDs()
	if ch := s.chans.channels[m.ChannelID]; ch != nil && !ch.InviteOnly {
		for id, u := range s.accts.users {
			if u.IsActive && !u.IsGuest() && !m.Rows.has(id) {
				audience = append(audience, id)
			}
		}
	}
	slices.Sort(audience)
	s.events.PublishEach(func(id int, c events.Client) []events.Event {
		received := m.Rows.has(id)
		if !received && !c.AllPublicStreams {
			return nil
		}
		view := s.messageView(s.accts.users[id], m, ViewOptions{
			ApplyMarkdown: c.ApplyMarkdown, ClientGravatar: c.ClientGravatar, AllowEmptyTopicName: c.Can("empty_topic_name"),
		})
		if mutation.On("event-avatar-null-for-hidden-email") && c.ClientGravatar {
			view.AvatarURL = nil
		}
		flags := view.Flags
		if !received {
			flags = []string{} // the real server's flags for a message outside the user's rows
		}
		if !matchesEventNarrow(view, flags, c.Narrow) {
			return nil
		}
		return []events.Event{{"type": "message", "message": eventMessage{MessageView: view}, "flags": flags}}
	}, audience...)
}

// eventNarrowOperators are the operators a queue's narrow may use, as on the real server.
var eventNarrowOperators = []string{"channel", "stream", "topic", "exact-topic", "sender", "is"}

// CheckEventNarrow validates the narrow of POST /register.
func CheckEventNarrow(narrow [][2]string) error {
	for _, term := range narrow {
		if !slices.Contains(eventNarrowOperators, term[0]) {
			return apierr.BadRequest("Operator %s not supported.", term[0])
		}
		if term[0] == "is" && term[1] == "followed" {
			return apierr.BadRequest("Operand %s not supported.", term[1])
		}
	}
	return nil
}

// matchesEventNarrow is the real server's predicate for a queue's narrow: every term must
// hold; "is" operands it does not know hold for every message.
func matchesEventNarrow(v MessageView, flags []string, narrow [][2]string) bool {
	for _, term := range narrow {
		op, operand := term[0], term[1]
		channel, isChannel := v.DisplayRecipient.(string)
		var ok bool
		switch {
		case op == "channel" || op == "stream":
			ok = isChannel && strings.EqualFold(operand, channel)
		case op == "topic":
			topic, want := strings.ToLower(v.Subject), strings.ToLower(operand)
			ok = isChannel && (want == topic || slices.Contains(strings.Fields(topic), want))
		case op == "exact-topic":
			ok = isChannel && operand == v.Subject
		case op == "sender":
			ok = strings.EqualFold(operand, v.SenderEmail)
		case op == "is" && (operand == "dm" || operand == "private"):
			ok = !isChannel
		case op == "is" && operand == "starred":
			ok = slices.Contains(flags, "starred")
		case op == "is" && operand == "unread":
			ok = !slices.Contains(flags, "read")
		case op == "is" && (operand == "alerted" || operand == "mentioned"):
			ok = slices.Contains(flags, "mentioned")
		case op == "is" && operand == "resolved":
			ok = isChannel && strings.HasPrefix(v.Subject, ResolvedTopicPrefix)
		default:
			ok = true
		}
		if !ok {
			return false
		}
	}
	return true
}

// readersOf maps each active user who could read some of the messages to their ids: only
// they hear of the messages' deletion.
func (s *MessageState) readersOf(ms []*Message) map[int][]int {
	readable := map[int][]int{}
	for _, m := range ms {
		for _, id := range s.accts.activeUserIDs() {
			if s.canRead(s.accts.users[id], m) {
				readable[id] = append(readable[id], m.ID)
			}
		}
	}
	return readable
}

// publishDeletion tells each user the ids of the deleted messages of a channel topic (ch
// nil: direct messages) readable names for them: one event with message_ids for clients
// with the bulk_message_deletion capability, one event per message with message_id for the
// others, as on the real server.
func (s *MessageState) publishDeletion(readable map[int][]int, ch *Channel, topic string) {
	base := events.Event{"type": "delete_message", "message_type": "private"}
	if ch != nil {
		base["message_type"], base["stream_id"], base["topic"] = "stream", ch.ID, topic
	}
	s.events.PublishEach(func(id int, c events.Client) []events.Event {
		ids := readable[id]
		if c.Can("bulk_message_deletion") {
			ev := maps.Clone(base)
			ev["message_ids"] = ids
			return []events.Event{ev}
		}
		out := make([]events.Event, 0, len(ids))
		for _, mid := range ids {
			ev := maps.Clone(base)
			ev["message_id"] = mid
			out = append(out, ev)
		}
		return out
	}, slices.Sorted(maps.Keys(readable))...)
}
