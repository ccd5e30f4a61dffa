package realm

import "github.com/chatconform/chatconform/fixtures"

// messagingState is the state of message editing and moving, topic muting, reactions and
// message flags (issue 4's area).
type messagingState struct{}

// loadMessaging sets up the messaging state of a realm being loaded from f (under the lock,
// after users and channels exist).
func (s *State) loadMessaging(*fixtures.Fixture) { s.messaging = messagingState{} }
