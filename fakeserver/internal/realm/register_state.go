package realm

import "slices"

// POST /register: the state a client needs is assembled by the aggregates, each adding the
// part it owns (register_*.go). Each part is read under its own read lock, as the handler
// read them before; a change between two parts is seen again as an event on the queue,
// which is made before the state is read.

// RegisterRequest is what shapes the aggregates' parts of a POST /register answer.
type RegisterRequest struct {
	UserID int
	// Wanted are the event types whose state the client asked for; nil: every type.
	Wanted []string
	// IncludeDeactivatedGroups: the client knows deactivated groups (a client capability).
	IncludeDeactivatedGroups bool
}

// want tells whether the client asked for an event type's state.
func (r RegisterRequest) want(eventType string) bool {
	return r.Wanted == nil || slices.Contains(r.Wanted, eventType)
}

// RegisterState returns the parts of the POST /register state the aggregates own.
func (s *State) RegisterState(r RegisterRequest) map[string]any {
	f := map[string]any{}
	s.AccountState.register(r, f)
	s.GroupState.register(r, f)
	s.ChannelState.register(r, f)
	s.OrganizationState.register(r, f)
	s.UserDataState.register(r, f)
	return f
}
