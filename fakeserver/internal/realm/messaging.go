package realm

import "github.com/chatconform/chatconform/fixtures"

// messagingState is the state of message editing and moving, topic muting, reactions and
// message flags (issue 4's area).
type messagingState struct{}

// newMessagingState returns the messaging state of a realm loaded from f.
func newMessagingState(*fixtures.Fixture) messagingState { return messagingState{} }
