package realm

import "github.com/chatconform/chatconform/fixtures"

// accountState is the state of accounts beyond the user records: user groups created by
// users, custom profile fields, authentication settings (issue 5's area).
type accountState struct{}

// loadAccounts sets up the account state of a realm being loaded from f (under the lock,
// after users and channels exist).
func (s *State) loadAccounts(*fixtures.Fixture) { s.accounts = accountState{} }
