package api_test

import (
	"net/url"
	"strings"

	"github.com/chatconform/chatconform/fixtures"
)

// routeCasesControl adds the bad-input cases of the routes whose handlers are in internal/control/control.go.
func routeCasesControl(add func(routeSpec)) {
	// --- control API ---
	add(routeSpec{method: "GET", pattern: "/_fake/health", path: "/_fake/health"})

	add(routeSpec{method: "POST", pattern: "/_fake/reset", path: "/_fake/reset"})

	fix := routeSpec{method: "POST", pattern: "/_fake/fixture", path: "/_fake/fixture",
		params: []param{{name: "fixture", required: true, oversizeFails: true}},
		valid:  []string{"fixture", string(fixtures.DefaultYAML())}}
	withFixture := func(yaml string) request { return fix.with("fixture", yaml) }
	noOwner := strings.Replace(string(fixtures.DefaultYAML()), "role: owner", "role: member", 1)
	fix.extra = []badCase{
		{"empty fixture", withFixture(""), want{status: 400, code: "BAD_REQUEST"}},
		{"YAML syntax error", withFixture("realm: {name: [unclosed"), want{status: 400, code: "BAD_REQUEST"}},
		{"truncated JSON", withFixture(`{"realm": {"name": "x"`), want{status: 400, code: "BAD_REQUEST"}},
		{"unknown field", withFixture("realm:\n  bogus: 1\nusers:" + strings.SplitN(string(fixtures.DefaultYAML()), "users:", 2)[1]), want{status: 400, code: "BAD_REQUEST"}},
		{"users not a list", withFixture("users: 5"), want{status: 400, code: "BAD_REQUEST"}},
		{"a list at the top", withFixture("[1, 2]"), want{status: 400, code: "BAD_REQUEST"}},
		{"no owner", withFixture(noOwner), want{status: 400, code: "BAD_REQUEST"}},
		{"YAML sent as the body", request{method: "POST", path: fix.path, body: fixtures.DefaultYAML(), contentType: "application/yaml"}, missing("fixture")},
	}
	add(fix)

	add(routeSpec{method: "GET", pattern: "/_fake/clock", path: "/_fake/clock"})

	clk := routeSpec{method: "POST", pattern: "/_fake/clock", path: "/_fake/clock",
		params: []param{{name: "mode", kind: kEnum}, {name: "now", kind: kInt}, {name: "advance", kind: kInt}},
		valid:  []string{"advance", "60"}}
	clk.extra = []badCase{
		{"an unknown setting", clk.build(url.Values{"other": {"1"}}), want{status: 400, code: "BAD_REQUEST", msg: "Unknown setting: other"}},
		{"empty body", request{method: "POST", path: clk.path}, missing("advance")},
		{"now and advance", clk.with("now", "1767225600"), want{status: 400, code: "BAD_REQUEST"}},
		{"negative advance", clk.with("advance", "-1"), want{status: 400, code: "BAD_REQUEST"}},
		// time.Duration(advance) * time.Second overflows int64 nanoseconds beyond ~292 years.
		{"advance beyond time.Duration", clk.with("advance", "9223372036854775807"), want{status: 400, code: "BAD_REQUEST"}},
		{"advance of 300 years", clk.with("advance", "9467280000"), want{status: 400, code: "BAD_REQUEST"}},
		{"wall mode with a negative advance (all or nothing)", clk.as("", "mode", "wall", "advance", "-1"), badRequest("advance must not be negative; use now to go back")},
	}
	add(clk)

	add(routeSpec{method: "GET", pattern: "/_fake/config", path: "/_fake/config"})

	cfg := routeSpec{method: "PATCH", pattern: "/_fake/config", path: "/_fake/config",
		params: []param{
			{name: "push_configured", kind: kBool},
			{name: "event_poll_timeout_seconds", kind: kInt},
			{name: "event_queue_idle_seconds", kind: kInt},
			{name: "rate_limit_requests", kind: kInt},
			{name: "rate_limit_window_seconds", kind: kInt},
		},
		valid: []string{"push_configured", "true"}}
	cfg.extra = []badCase{
		{"poll timeout zero", cfg.with("event_poll_timeout_seconds", "0"), badRequest("event_poll_timeout_seconds must be between 1 and 300")},
		{"poll timeout over 300", cfg.with("event_poll_timeout_seconds", "301"), badRequest("event_poll_timeout_seconds must be between 1 and 300")},
		{"idle time zero", cfg.with("event_queue_idle_seconds", "0"), badRequest("event_queue_idle_seconds must be between 1 and 3153600000")},
		{"idle time negative", cfg.with("event_queue_idle_seconds", "-600"), badRequest("event_queue_idle_seconds must be between 1 and 3153600000")},
		{"idle time beyond the clock's range", cfg.with("event_queue_idle_seconds", "9223372036854775807"), badRequest("event_queue_idle_seconds must be between 1 and 3153600000")},
		{"good setting, bad setting (all or nothing)", cfg.as("", "event_poll_timeout_seconds", "5", "event_queue_idle_seconds", "0"), badRequest("event_queue_idle_seconds must be between 1 and 3153600000")},
		{"negative rate limit", cfg.with("rate_limit_requests", "-1"), badRequest("rate_limit_requests must be between 0 and 1000000")},
		{"rate limit window zero", cfg.as("", "rate_limit_requests", "5", "rate_limit_window_seconds", "0"), badRequest("rate_limit_window_seconds must be between 1 and 86400")},
	}
	add(cfg)

	add(routeSpec{method: "GET", pattern: "/_fake/faults", path: "/_fake/faults"})

	add(routeSpec{method: "DELETE", pattern: "/_fake/faults", path: "/_fake/faults"})

	fault := routeSpec{method: "POST", pattern: "/_fake/faults", path: "/_fake/faults",
		params: []param{{name: "status", kind: kInt}, {name: "delay_ms", kind: kInt}, {name: "drop", kind: kBool}, {name: "times", kind: kInt}},
		valid:  []string{"path", "/api/v1/nothing-here", "status", "503"}}
	fault.extra = []badCase{
		{"no effect", fault.build(url.Values{"path": {"/x"}}), badRequest("A fault needs a status, drop or delay_ms")},
		{"a success status", fault.as("", "status", "200"), badRequest("status must be an HTTP error status, 400 to 599")},
		{"drop and status", fault.as("", "status", "503", "drop", "true"), badRequest("Send either drop or status, not both")},
		{"a bad pattern", fault.as("", "status", "503", "path", "/api/["), badRequest("Invalid path pattern: /api/[")},
		{"a path without its leading slash", fault.as("", "status", "503", "path", "api/v1/messages"),
			badRequest(`path must start with / (such as /api/v1/messages): a request's path always does, so "api/v1/messages" could never match`)},
	}
	add(fault)

	journal := routeSpec{method: "GET", pattern: "/_fake/journal", path: "/_fake/journal",
		params: []param{{name: "status", kind: kInt}}, valid: []string{"since", "1764403200000"}}
	sinceFormat := badRequest("since must be a wall-clock time in UNIX milliseconds, a whole number such as 1764403200000 (2025-11-29T08:00:00Z): the journal's entries from that time on")
	journal.extra = []badCase{
		{"since as a date", journal.with("since", "2025-11-29"), sinceFormat},
		{"since in seconds with a fraction", journal.with("since", "1764403200.5"), sinceFormat},
		{"since negative", journal.with("since", "-1"), sinceFormat},
		{"since empty", journal.with("since", ""), sinceFormat},
	}
	add(journal)

	add(routeSpec{method: "DELETE", pattern: "/_fake/journal", path: "/_fake/journal"})

	vcall := routeSpec{method: "POST", pattern: "/_fake/vcall_token", path: "/_fake/vcall_token",
		params: []param{{name: "user_id", kind: kInt, required: true}, {name: "has_token", kind: kBool}},
		valid:  []string{"user_id", "4", "has_token", "true"}}
	vcall.extra = []badCase{
		{"unknown user", vcall.with("user_id", "999"), badRequest("No such user")},
		{"user id zero", vcall.with("user_id", "0"), badRequest("No such user")},
	}
	add(vcall)

	accept := routeSpec{method: "POST", pattern: "/_fake/invites/accept", path: "/_fake/invites/accept",
		params: []param{{name: "email", required: true, oversizeFails: true}, {name: "full_name", required: true, oversizeFails: true},
			{name: "link_url", oversizeFails: true}},
		valid: []string{"email", "invited@chat.example.test", "full_name", "Invited User"}}
	accept.extra = []badCase{
		{"no invitation for the address", accept.with("email", "stranger@chat.example.test"), badRequest("No unexpired invitation matches")},
		{"an address with an account", accept.with("email", "member@chat.example.test"), badRequest("Email 'member@chat.example.test' already in use")},
		{"an invalid address", accept.with("email", "not-an-address"), badRequest("Invalid email 'not-an-address'")},
		{"an empty name", accept.with("full_name", " "), badRequest("Name too short!")},
		{"an unknown link", accept.with("link_url", "https://chat.example.test/join/none/"), badRequest("No unexpired invitation matches")},
	}
	add(accept)

	confirm := routeSpec{method: "POST", pattern: "/_fake/email_changes/confirm", path: "/_fake/email_changes/confirm",
		params: []param{{name: "user_id", kind: kInt, required: true}}, valid: []string{"user_id", "4"}}
	confirm.extra = []badCase{
		{"no change started", confirm.with("user_id", "2"), badRequest("No email change to confirm for user 2")},
		{"unknown user", confirm.with("user_id", "999"), badRequest("No email change to confirm for user 999")},
		{"user id zero", confirm.with("user_id", "0"), badRequest("No such user")},
	}
	add(confirm)
}
