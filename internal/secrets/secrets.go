// Package secrets names the parameters and reply members whose values are credentials, for
// the two places that hide them: the fake's journal (fakeserver/internal/pipeline) and the
// suite's recorded exchanges and reports (harness). One list, so that the two cannot drift.
// It imports nothing of the project: both sides may import it.
package secrets

import "strings"

// Params are the names of credential parameters and reply members, in lower case: API keys,
// passwords (the account's and a change's old and new one), JWTs, the fake's JWT signing key
// and push encryption keys.
var Params = []string{"api_key", "password", "old_password", "new_password", "token", "jwt_key", "push_key"}

// IsParam tells whether a parameter or member of this name holds a credential, whatever its
// case.
func IsParam(name string) bool {
	for _, p := range Params {
		if strings.EqualFold(p, name) {
			return true
		}
	}
	return false
}
