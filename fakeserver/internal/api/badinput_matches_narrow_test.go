package api_test

import (
	"github.com/chatconform/chatconform/fixtures"
)

// routeCasesMatchesNarrow adds the bad-input cases of the routes whose handlers are in matches_narrow.go.
func routeCasesMatchesNarrow(add func(routeSpec)) {
	matches := routeSpec{method: "GET", pattern: "/api/v1/messages/matches_narrow", path: "/api/v1/messages/matches_narrow",
		role: fixtures.RoleOwner,
		params: []param{
			{name: "msg_ids", kind: kJSONList, required: true},
			{name: "narrow", kind: kJSONList, required: true},
		},
		valid: []string{"msg_ids", "[1]", "narrow", narrowGeneral}}
	withNarrow := func(n string) request { return matches.with("narrow", n) }
	matches.extra = []badCase{
		{"msg_ids: float", matches.with("msg_ids", "[1.5]"), badRequest("msg_ids[0] is not an integer")},
		{"msg_ids: string element", matches.with("msg_ids", `["1"]`), badRequest("msg_ids[0] is not an integer")},
		{"unknown operator", withNarrow(`[{"operator":"bogus","operand":"x"}]`), badNarrow("unknown operator")},
		{"legacy unknown operator", withNarrow(`[["bogus","x"]]`), badNarrow("unknown operator")},
		{"term not an object", withNarrow(`[5]`), badRequest("narrow[0] is not a dict")},
		{"legacy term of three", withNarrow(`[["a","b","c"]]`), want{status: 400, code: "BAD_REQUEST"}},
		{"term without operator", withNarrow(`[{"operand":"general"}]`), badRequest(`narrow[0]["operator"] is not a string`)},
		{"term without operand", withNarrow(`[{"operator":"channel"}]`), want{status: 400, code: "BAD_REQUEST"}},
		{"operand an object", withNarrow(`[{"operator":"topic","operand":{"a":1}}]`), badRequest(`narrow[0]["operand"] is not a string`)},
		{"negated not a boolean", withNarrow(`[{"operator":"topic","operand":"x","negated":"yes"}]`), badRequest(`narrow[0]["negated"] is not a boolean`)},
		{"unknown channel", withNarrow(`[{"operator":"channel","operand":"badinput-nowhere"}]`), badNarrow("unknown channel badinput-nowhere")},
		{"unknown is operand", withNarrow(`[{"operator":"is","operand":"bogus"}]`), badNarrow("unknown 'is' operand bogus")},
		{"unknown has operand", withNarrow(`[{"operator":"has","operand":"bogus"}]`), badNarrow("unknown 'has' operand bogus")},
		{"unknown sender", withNarrow(`[{"operator":"sender","operand":"nobody@chat.example.test"}]`), badNarrow("unknown user nobody@chat.example.test")},
		{"good term then bad term", withNarrow(`[{"operator":"channel","operand":"general"},{"operator":"bogus","operand":"x"}]`), badNarrow("unknown operator")},
	}
	add(matches)
}
