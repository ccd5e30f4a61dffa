package api_test

// POST /users/{id}/reactivate: the account authenticates again, keeps its subscriptions, and
// everyone is told.

import (
	"net/http"
	"testing"
)

func TestReactivateUser(t *testing.T) {
	ts := newServer(t)
	requireSuccess(t, "deactivate", do(t, ts.URL, request{method: http.MethodDelete, path: "/api/v1/users/4", auth: adminAuth}))
	if res := get(t, ts.URL, memberAuth, "/api/v1/users/me", ""); res.status != http.StatusUnauthorized {
		t.Fatalf("deactivated member: HTTP %d", res.status)
	}
	queue := evRegister(t, ts.URL, ownerAuth, "event_types", `["realm_user"]`)
	requireSuccess(t, "reactivate", post(t, ts.URL, adminAuth, "/api/v1/users/4/reactivate"))
	requireSuccess(t, "the member authenticates again", get(t, ts.URL, memberAuth, "/api/v1/users/me", ""))
	if names := subscribedNames(t, ts.URL, memberAuth); canonical(names) != `["general"]` {
		t.Errorf("subscriptions after reactivation %v", names)
	}
	evs := evPoll(t, ts.URL, ownerAuth, queue, -1, true)
	if len(evs) != 1 || evs[0]["op"] != "update" || canonical(evs[0]["person"]) != `{"is_active":true,"user_id":4}` {
		t.Errorf("events %v, want realm_user update is_active true", evs)
	}
	requireSuccess(t, "reactivate an active user", post(t, ts.URL, adminAuth, "/api/v1/users/4/reactivate"))
	if evs := evPoll(t, ts.URL, ownerAuth, queue, int(evs[0]["id"].(float64)), true); len(evs) != 0 {
		t.Errorf("reactivating an active user sent %v", evs)
	}
}
