package api_test

import (
	"github.com/chatconform/chatconform/fixtures"
)

// routeCasesMessages adds the bad-input cases of the routes whose handlers are in messages.go.
func routeCasesMessages(add func(routeSpec)) {
	delMsg := routeSpec{method: "DELETE", pattern: "/api/v1/messages/{message_id:[0-9]+}", path: "/api/v1/messages/{id}", id: "1",
		notFound: "Invalid message(s)", role: fixtures.RoleOwner}
	delMsg.extra = []badCase{
		{"member deleting another user's message", delMsg.as(memberAuth), badRequest("You don't have permission to delete this message")},
	}
	add(delMsg)

	send := routeSpec{method: "POST", pattern: "/api/v1/messages", path: "/api/v1/messages", role: fixtures.RoleOwner,
		params: []param{
			{name: "type", kind: kEnum, required: true},
			{name: "to", required: true, oversizeFails: true},
			{name: "topic"},
			{name: "content", required: true},
			{name: "read_by_sender", kind: kBool},
		},
		valid: []string{"type", "channel", "to", setupChan, "topic", "badinput", "content", "hello"}}
	send.extra = []badCase{
		{"topic and subject", send.with("subject", "other"), bad(400, "REQUEST_CONFUSING_VAR", "Can't decide between 'topic' and 'subject' arguments")},
		{"subject invalid UTF-8", func() request {
			v := send.validValues()
			v.Del("topic")
			v.Set("subject", badUTF8)
			return send.build(v)
		}(), want{status: 400, code: "BAD_REQUEST"}},
		{"channel message without topic", send.without("topic"), badRequest("Missing topic")},
		{"empty content", send.with("content", ""), badRequest("Message must not be empty")},
		{"blank content", send.with("content", " \n\t "), badRequest("Message must not be empty")},
		{"topic with control character", send.with("topic", "a\x00b"), want{status: 400, code: "BAD_REQUEST"}},
		{"unknown channel name", send.with("to", "badinput-nowhere"), want{status: 400, code: "STREAM_DOES_NOT_EXIST"}},
		{"unknown channel id", send.with("to", "999"), want{status: 400, code: "STREAM_DOES_NOT_EXIST"}},
		{"channel id overflow", send.with("to", huge), want{status: 400}},
		{"channel id negative", send.with("to", "-1"), want{status: 400}},
		{"channel as a list of two names", send.with("to", `["general","other"]`), want{status: 400}},
		{"channel as an object", send.with("to", `{"name":"general"}`), want{status: 400}},
		{"guest to an unsubscribed channel", send.as(guestAuth, "to", "badinput-nowhere"), want{status: 400}},
		{"direct: empty list", send.as(ownerAuth, "type", "direct", "to", "[]"), badRequest("Message must have recipients")},
		{"direct: unknown user id", send.as(ownerAuth, "type", "direct", "to", "[999]"), badRequest("Invalid user ID 999")},
		{"direct: negative user id", send.as(ownerAuth, "type", "direct", "to", "[-1]"), want{status: 400}},
		{"direct: float user id", send.as(ownerAuth, "type", "direct", "to", "[1.5]"), want{status: 400}},
		{"direct: huge user id", send.as(ownerAuth, "type", "direct", "to", "["+huge+"]"), want{status: 400}},
		{"direct: bool recipient", send.as(ownerAuth, "type", "direct", "to", "[true]"), want{status: 400}},
		{"direct: object recipient", send.as(ownerAuth, "type", "direct", "to", `[{"id":4}]`), want{status: 400}},
		{"direct: unknown email", send.as(ownerAuth, "type", "direct", "to", `["nobody@chat.example.test"]`), badRequest("Invalid email 'nobody@chat.example.test'")},
		{"direct: truncated JSON", send.as(ownerAuth, "type", "direct", "to", "[4,"), want{status: 400}},
		{"direct: object", send.as(ownerAuth, "type", "direct", "to", `{"a":4}`), want{status: 400}},
		{"direct: 1 MiB", send.as(ownerAuth, "type", "direct", "to", oneMiB), want{status: 400}},
	}
	add(send)

	fetch := routeSpec{method: "GET", pattern: "/api/v1/messages", path: "/api/v1/messages", role: fixtures.RoleOwner,
		params: []param{
			{name: "num_before", kind: kInt, required: true},
			{name: "num_after", kind: kInt, required: true},
			{name: "anchor", oversizeFails: true},
			{name: "include_anchor", kind: kBool},
			{name: "narrow", kind: kJSONList},
			{name: "apply_markdown", kind: kBool},
			{name: "client_gravatar", kind: kBool},
			{name: "allow_empty_topic_name", kind: kBool},
		},
		valid: []string{"anchor", "newest", "num_before", "10", "num_after", "0", "narrow", narrowGeneral}}
	fetch.extra = []badCase{
		{"anchor not a number or word", fetch.with("anchor", "soonest"), badRequest("Invalid anchor")},
		{"no anchor", fetch.without("anchor"), badRequest("Missing 'anchor' argument.")},
		{"num_before negative", fetch.with("num_before", "-1"), badRequest("num_before is too small")},
		{"too many messages", fetch.with("num_after", "5000"), badRequest("Too many messages requested (maximum 5000).")},
		{"unknown operator", fetch.with("narrow", `[{"operator":"bogus","operand":"x"}]`), badNarrow("unknown operator")},
	}
	add(fetch)
}
