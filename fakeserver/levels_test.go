package fakeserver_test

import (
	"fmt"
	"testing"

	"github.com/chatconform/chatconform/fakeserver"
	"github.com/chatconform/chatconform/fakeserver/internal/realm"
	"github.com/chatconform/chatconform/fixtures"
)

// newServerAt starts a fake on the default fixture at the given feature level.
func newServerAt(t testing.TB, level int) *fakeserver.TestServer {
	t.Helper()
	f := fixtures.Default()
	f.Realm.FeatureLevel = level
	ts := fakeserver.NewTestServer(fakeserver.WithFixture(f))
	t.Cleanup(ts.Close)
	return ts
}

// TestLevelBoundaries runs each gate one level below its boundary and at it: below, the
// fake answers in the older form the document gives; at the boundary, in the newer one.
func TestLevelBoundaries(t *testing.T) {
	cases := []struct {
		name     string
		boundary int
		// check sends the requests of the gate and tells whether the answer is the newer form.
		newer func(t *testing.T, base string) bool
	}{
		{"ignored_parameters_unsupported", realm.LevelIgnoredParametersUnsupported, func(t *testing.T, base string) bool {
			got := requireSuccess(t, "fetch with an extra parameter", get(t, base, memberAuth, "/api/v1/users/me", "bogus_parameter=1"))
			v, ok := got["ignored_parameters_unsupported"]
			if ok && fmt.Sprint(v) != "[bogus_parameter]" {
				t.Errorf("ignored_parameters_unsupported %v, want [bogus_parameter]", v)
			}
			return ok
		}},
		{"duplicate reaction code", realm.LevelReactionAlreadyExists, func(t *testing.T, base string) bool {
			id := msgSend(t, base, ownerAuth, "shapes", "react twice")
			path := fmt.Sprintf("/api/v1/messages/%d/reactions", id)
			requireSuccess(t, "react", post(t, base, memberAuth, path, "emoji_name", "octopus"))
			again := post(t, base, memberAuth, path, "emoji_name", "octopus")
			code := fmt.Sprint(again.env["code"])
			if again.env["result"] != "error" || again.env["msg"] != "Reaction already exists." || (code != "REACTION_ALREADY_EXISTS" && code != "BAD_REQUEST") {
				t.Errorf("duplicate reaction: %s", again)
			}
			return code == "REACTION_ALREADY_EXISTS"
		}},
		{"reaction without the legacy user object", realm.LevelReactionUserDropped, func(t *testing.T, base string) bool {
			id := msgSend(t, base, ownerAuth, "shapes", "react once")
			requireSuccess(t, "react", post(t, base, memberAuth, fmt.Sprintf("/api/v1/messages/%d/reactions", id), "emoji_name", "octopus"))
			reaction := msgFetch(t, base, ownerAuth, id)["reactions"].([]any)[0].(map[string]any)
			user, has := reaction["user"]
			if has && canonical(user) != `{"email":"member@chat.example.test","full_name":"Max Member","id":4,"is_mirror_dummy":false}` {
				t.Errorf("legacy reaction user %s", canonical(user))
			}
			return !has
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for _, level := range []int{c.boundary - 1, c.boundary} {
				if got, want := c.newer(t, newServerAt(t, level).URL), level >= c.boundary; got != want {
					t.Errorf("at level %d: newer form %v, want %v", level, got, want)
				}
			}
		})
	}
}
