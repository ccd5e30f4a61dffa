package api_test

import (
	"fmt"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"testing"

	"github.com/chatconform/chatconform/fakeserver"
)

// Servers share what New prepares once (the parsed default fixture, the route table); each
// must still hold a realm, configuration and clock of its own. Two servers changed at the same
// time must each end exactly where one server given only its own changes ends, and a reset of
// one must leave the other as it was.
func TestInstancesNeverSeeEachOthersChanges(t *testing.T) {
	a, b := newServer(t), newServer(t)
	// Each is compared with a server that received its changes alone, one after another.
	onlyA, onlyB := newServer(t), newServer(t)

	start := observeInstance(t, a)
	sameAspects(t, "b at the start", observeInstance(t, b), start)

	t.Run("changed at once", func(t *testing.T) {
		for _, c := range []struct {
			ts  *fakeserver.TestServer
			tag string
		}{{a, "a"}, {b, "b"}} {
			t.Run(c.tag, func(t *testing.T) {
				t.Parallel()
				changeInstance(t, c.ts, c.tag)
			})
		}
	})
	changeInstance(t, onlyA, "a")
	changeInstance(t, onlyB, "b")
	wantA, wantB := observeInstance(t, onlyA), observeInstance(t, onlyB)
	for aspect := range start {
		if wantA[aspect] == start[aspect] || wantA[aspect] == wantB[aspect] {
			t.Fatalf("%s: the changes do not show (start %s, a %s, b %s)", aspect, start[aspect], wantA[aspect], wantB[aspect])
		}
	}
	sameAspects(t, "a beside b", observeInstance(t, a), wantA)
	sameAspects(t, "b beside a", observeInstance(t, b), wantB)

	requireSuccess(t, "reset a", post(t, a.URL, "", "/_fake/reset"))
	sameAspects(t, "a after its reset", observeInstance(t, a), start)
	sameAspects(t, "b after a's reset", observeInstance(t, b), wantB)

	b.Server.Reset()
	sameAspects(t, "b after its reset", observeInstance(t, b), start)
	sameAspects(t, "a after b's reset", observeInstance(t, a), start)
}

// changeInstance changes each aspect observeInstance reads, with values of its own by tag.
func changeInstance(t *testing.T, ts *fakeserver.TestServer, tag string) {
	t.Helper()
	owner := basicAuth(t, "owner")
	seconds := map[string]string{"a": "1000", "b": "2000"}[tag]
	for _, step := range []struct {
		what string
		req  request
	}{
		{"new user", request{method: http.MethodPost, path: "/api/v1/users", auth: owner, contentType: formType,
			body: formBody("email", "new-"+tag+"@example.com", "password", "secret-"+tag, "full_name", "New "+tag)}},
		{"own name", request{method: http.MethodPatch, path: "/api/v1/settings", auth: owner, contentType: formType,
			body: formBody("full_name", "Owner "+tag)}},
		{"new channel", request{method: http.MethodPost, path: "/api/v1/users/me/subscriptions", auth: owner, contentType: formType,
			body: formBody("subscriptions", fmt.Sprintf(`[{"name":"channel %s"}]`, tag))}},
		{"message", request{method: http.MethodPost, path: "/api/v1/messages", auth: owner, contentType: formType,
			body: formBody("type", "stream", "to", "general", "topic", "from "+tag, "content", "hello from "+tag)}},
		{"config", request{method: http.MethodPatch, path: "/_fake/config", contentType: formType,
			body: formBody("unused_attachment_seconds", seconds, "push_configured", "true")}},
		{"clock", request{method: http.MethodPost, path: "/_fake/clock", contentType: formType,
			body: formBody("advance", seconds)}},
	} {
		requireSuccess(t, tag+": "+step.what, do(t, ts.URL, step.req))
	}
}

// observeInstance reads a server's users, channels, messages, configuration and clock, each as
// one canonical string.
func observeInstance(t *testing.T, ts *fakeserver.TestServer) map[string]string {
	t.Helper()
	owner := basicAuth(t, "owner")
	newest := url.Values{"anchor": {"newest"}, "num_before": {"1000"}, "num_after": {"0"}}.Encode()
	reads := map[string]struct{ path, query, field, auth string }{
		"users":    {"/api/v1/users", "", "members", owner},
		"channels": {"/api/v1/streams", "", "streams", owner},
		"messages": {"/api/v1/messages", newest, "messages", owner},
		"config":   {"/_fake/config", "", "config", ""},
		"clock":    {"/_fake/clock", "", "now", ""},
	}
	out := map[string]string{}
	for aspect, r := range reads {
		body := requireSuccess(t, aspect, get(t, ts.URL, r.auth, r.path, r.query))
		if _, ok := body[r.field]; !ok {
			t.Fatalf("%s: no %q in %v", aspect, r.field, body)
		}
		out[aspect] = canonical(body[r.field])
	}
	return out
}

func sameAspects(t *testing.T, what string, got, want map[string]string) {
	t.Helper()
	for _, aspect := range slices.Sorted(maps.Keys(want)) {
		if got[aspect] != want[aspect] {
			t.Errorf("%s: %s are\n%s\nwant\n%s", what, aspect, cut(got[aspect], 2000), cut(want[aspect], 2000))
		}
	}
}
