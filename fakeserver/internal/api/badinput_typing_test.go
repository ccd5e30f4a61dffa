package api_test

import (
	"github.com/chatconform/chatconform/fixtures"
)

// routeCasesTyping adds the bad-input cases of the routes whose handlers are in typing.go.
func routeCasesTyping(add func(routeSpec)) {
	typing := routeSpec{method: "POST", pattern: "/api/v1/typing", path: "/api/v1/typing", role: fixtures.RoleMember,
		params: []param{
			{name: "type", kind: kEnum},
			{name: "op", kind: kEnum, required: true},
			{name: "to", kind: kJSONList},
			{name: "stream_id", kind: kInt},
			{name: "topic", oversizeFails: false},
		},
		valid: []string{"op", "start", "to", "[1]"}}
	inChannel := func(kv ...string) request {
		return typing.build(valuesOf(append([]string{"type", "channel", "op", "start"}, kv...)...))
	}
	typing.extra = []badCase{
		{"direct without to", typing.without("to"), badRequest("Missing 'to' argument")},
		{"empty to", typing.with("to", "[]"), badRequest("Empty 'to' list")},
		{"unknown user", typing.with("to", "[1,999]"), badRequest("Invalid user ID 999")},
		{"to not integers", typing.with("to", `["owner@chat.example.test"]`), want{status: 400, code: "BAD_REQUEST"}},
		{"channel without stream_id", inChannel("topic", "t"), badRequest("Missing 'stream_id' argument")},
		{"channel without topic", inChannel("stream_id", "1"), badRequest("Missing topic")},
		{"unknown channel", inChannel("stream_id", "999", "topic", "t"), badRequest("Invalid channel ID")},
	}
	add(typing)
}
