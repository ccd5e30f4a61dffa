// Package events is the fake server's event system: per-client event queues in the real
// server's shapes, filled by the domain layer whenever state changes and read by clients
// through long-polling.
package events

// Event is one event's payload in the real server's shape (type, op, …), without its id:
// each queue numbers the events it receives.
type Event map[string]any

// Publisher receives the events the domain layer produces. The realm calls Publish while it
// holds its own lock, so an implementation must never call back into the realm.
type Publisher interface {
	// Publish delivers ev to every queue of the given users whose event types include it.
	Publish(ev Event, userIDs ...int)
	// PublishEach delivers to each queue of the given users the events form returns for that
	// user and the queue's client options (none: the queue gets nothing). For events whose
	// shape depends on how the client registered: message rendering, avatars, narrows,
	// client capabilities. form runs while the publisher holds its lock.
	PublishEach(form func(userID int, c Client) []Event, userIDs ...int)
}

// Idler is a Publisher that can tell that no queue exists: an event published then reaches
// nobody, and a publisher may skip building it.
type Idler interface {
	Idle() bool
}

// Client is what a client said about itself when it registered its queue (POST /register),
// as far as it changes the events the queue receives.
type Client struct {
	// ApplyMarkdown: message content as HTML (else raw Markdown, the real server's default).
	ApplyMarkdown bool
	// ClientGravatar: the client computes gravatar URLs, so avatar_url is null where it can.
	ClientGravatar bool
	// SlimPresence: presence events leave out the user's email.
	SlimPresence bool
	// AllPublicStreams: message events of every public channel, subscribed or not.
	AllPublicStreams bool
	// Narrow: only the message events matching these (operator, operand) terms.
	Narrow [][2]string
	// Capabilities are the client_capabilities the client declared true.
	Capabilities map[string]bool
}

// Can tells whether the client declared a capability.
func (c Client) Can(capability string) bool { return c.Capabilities[capability] }

// Only is a form for PublishEach that gives every queue the same event.
func Only(ev Event) func(int, Client) []Event {
	return func(int, Client) []Event { return []Event{ev} }
}

// Discard is a Publisher that drops every event, for a realm used without an event system.
type Discard struct{}

// Publish implements Publisher.
func (Discard) Publish(Event, ...int) {}

// PublishEach implements Publisher.
func (Discard) PublishEach(func(int, Client) []Event, ...int) {}

// Idle implements Idler: nothing ever receives an event.
func (Discard) Idle() bool { return true }
