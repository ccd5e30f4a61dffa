package realm

import "github.com/chatconform/chatconform/fixtures"

// accountState is the state of accounts beyond the user records: user groups created by
// users, custom profile fields, authentication settings (issue 5's area).
type accountState struct{}

// newAccountState returns the account state of a realm loaded from f.
func newAccountState(*fixtures.Fixture) accountState { return accountState{} }
