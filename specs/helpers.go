package specs

import "github.com/chatconform/chatconform/specs/ops"

// The shared operations of the specs (package ops), by the names the specs call them.
var (
	msgs ops.Messages
	acct ops.Accounts
)
