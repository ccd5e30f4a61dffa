package api_test

import (
	"testing"

	"github.com/chatconform/chatconform/fakeserver/internal/realm"
)

// A ping_only report returns no presence data; from the last_update_id protocol on, its answer
// still gives presence_last_update_id, which the document lists in every answer: the value
// passed, or -1 when none was.
func TestPingOnlyAnswer(t *testing.T) {
	for _, tc := range []struct {
		name  string
		level int
		kv    []string
		want  any // nil: no presence_last_update_id
	}{
		{"no last_update_id", realm.LevelPresenceUpdateID, nil, -1.0},
		{"last_update_id passed", realm.LevelPresenceUpdateID, []string{"last_update_id", "7"}, 7.0},
		{"last_update_id -1", realm.LevelPresenceUpdateID, []string{"last_update_id", "-1"}, -1.0},
		{"before the protocol", realm.LevelPresenceUpdateID - 1, nil, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ts := newServerAt(t, tc.level)
			env := requireSuccess(t, "ping", post(t, ts.URL, memberAuth, "/api/v1/users/me/presence",
				append([]string{"status", "active", "ping_only", "true"}, tc.kv...)...))
			for _, absent := range []string{"presences", "server_timestamp"} {
				if _, ok := env[absent]; ok {
					t.Errorf("%s in a ping_only answer: %v", absent, env)
				}
			}
			if got, ok := env["presence_last_update_id"]; got != tc.want || ok != (tc.want != nil) {
				t.Errorf("presence_last_update_id %v (given: %t), want %v", got, ok, tc.want)
			}
		})
	}
}
