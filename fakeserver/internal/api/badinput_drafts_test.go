package api_test

import (
	"github.com/chatconform/chatconform/fixtures"
)

// routeCasesDrafts adds the bad-input cases of the routes whose handlers are in drafts.go.
func routeCasesDrafts(add func(routeSpec)) {
	// Drafts: the cases of a draft object, shared by POST /drafts (in a list) and PATCH.
	draftCases := func(rs routeSpec, param string, wrap func(string) string) []badCase {
		at := param
		if param == "drafts" {
			at = "drafts[0]"
		}
		with := func(obj string) request { return rs.with(param, wrap(obj)) }
		return []badCase{
			{"a draft not an object", with(`"x"`), badRequest(at + " is not a dict")},
			{"a draft without content", with(`{"type":"","to":[],"topic":""}`), badRequest(at + `["content"] is missing`)},
			{"an unknown key", with(`{"type":"","to":[],"topic":"","content":"x","colour":1}`), badRequest(`Argument "colour" at ` + at + " is unexpected")},
			{"an unknown type", with(draftOf("channel", "[1]", "t", "x")), badRequest("Invalid " + at + `["type"]`)},
			{"to not a list", with(draftOf("stream", "1", "t", "x")), badRequest(at + `["to"] is not a list`)},
			{"to of strings", with(draftOf("private", `["4"]`, "", "x")), badRequest(at + `["to"][0] is not an integer`)},
			{"content not a string", with(`{"type":"","to":[],"topic":"","content":5}`), badRequest(at + `["content"] is not a string`)},
			{"timestamp not a number", with(`{"type":"","to":[],"topic":"","content":"x","timestamp":"now"}`), badRequest(at + `["timestamp"] is not a number`)},
			{"blank content", with(draftOf("", "[]", "", "  ")), badRequest(at + `["content"] cannot be blank`)},
			{"a null byte in the content", with(draftOf("", "[]", "", `a\u0000b`)), badRequest("Message must not contain null bytes")},
			{"a negative timestamp", with(`{"type":"","to":[],"topic":"","content":"x","timestamp":-1}`), badRequest("Timestamp must not be negative.")},
			{"a negative fraction of a second", with(`{"type":"","to":[],"topic":"","content":"x","timestamp":-0.5}`), badRequest("Timestamp must not be negative.")},
			{"a channel draft to two channels", with(draftOf("stream", "[1,1]", "t", "x")), badRequest("Must specify exactly 1 channel ID for channel messages")},
			{"a channel draft to no channel", with(draftOf("stream", "[]", "t", "x")), badRequest("Must specify exactly 1 channel ID for channel messages")},
			{"an unknown channel", with(draftOf("stream", "[999]", "t", "x")), badRequest("Invalid channel ID")},
			{"a null byte in the topic", with(draftOf("stream", "[1]", `a\u0000b`, "x")), badRequest("Topic must not contain null bytes")},
			{"an unknown recipient", with(draftOf("private", "[4,999]", "", "x")), badRequest("Invalid user ID 999")},
		}
	}
	add(routeSpec{method: "GET", pattern: "/api/v1/drafts", path: "/api/v1/drafts", role: fixtures.RoleMember})

	create := routeSpec{method: "POST", pattern: "/api/v1/drafts", path: "/api/v1/drafts", role: fixtures.RoleMember,
		params: []param{{name: "drafts", kind: kJSONList, required: true}},
		valid:  []string{"drafts", "[" + draftOf("private", "[1]", "", "to the owner") + "]"}}
	create.extra = append(draftCases(create, "drafts", func(obj string) string { return "[" + obj + "]" }),
		badCase{"a good draft, then a bad one (all or nothing)", create.with("drafts", "["+draftOf("", "[]", "", "fine")+","+draftOf("stream", "[999]", "t", "x")+"]"), badRequest("Invalid channel ID")})
	add(create)

	draftNotFound := bad(404, "BAD_REQUEST", "Draft does not exist")
	edit := routeSpec{method: "PATCH", pattern: "/api/v1/drafts/{draft_id:[0-9]+}", path: "/api/v1/drafts/{id}", id: "1",
		notFound: "Draft does not exist", notFoundStatus: 404, role: fixtures.RoleMember,
		params: []param{{name: "draft", kind: kJSONDict, required: true}},
		valid:  []string{"draft", draftOf("stream", "[1]", "edited", "an edited draft")}}
	edit.extra = append(draftCases(edit, "draft", func(obj string) string { return obj }),
		badCase{"another user's draft", edit.as(ownerAuth), draftNotFound})
	add(edit)

	del := routeSpec{method: "DELETE", pattern: "/api/v1/drafts/{draft_id:[0-9]+}", path: "/api/v1/drafts/{id}", id: "1",
		notFound: "Draft does not exist", notFoundStatus: 404, role: fixtures.RoleMember}
	del.extra = []badCase{{"another user's draft", del.as(ownerAuth), draftNotFound}}
	add(del)
}
