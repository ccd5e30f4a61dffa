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
}

// Discard is a Publisher that drops every event, for a realm used without an event system.
type Discard struct{}

// Publish implements Publisher.
func (Discard) Publish(Event, ...int) {}
