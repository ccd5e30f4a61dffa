package fakeserver_test

import (
	"github.com/chatconform/chatconform/fixtures"
)

// routeCasesRealm adds the bad-input cases of the routes whose handlers are in api_realm.go.
func routeCasesRealm(add func(routeSpec)) {
	realmPatch := routeSpec{method: "PATCH", pattern: "/api/v1/realm", path: "/api/v1/realm", role: fixtures.RoleOwner,
		params: []param{
			{name: "allow_message_editing", kind: kBool}, {name: "message_content_edit_limit_seconds", kind: kInt},
			{name: "move_messages_within_stream_limit_seconds", kind: kInt}, {name: "move_messages_between_streams_limit_seconds", kind: kInt},
			{name: "moderation_request_channel_id", kind: kInt},
		},
		valid: []string{"allow_message_editing", "true"}}
	realmPatch.extra = []badCase{
		{"member", realmPatch.as(memberAuth), principalAdmin},
		{"zero limit", realmPatch.with("message_content_edit_limit_seconds", "0"), badRequest("message_content_edit_limit_seconds is too small")},
		{"limit beyond 32 bits", realmPatch.with("message_content_edit_limit_seconds", "2147483648"), badRequest("message_content_edit_limit_seconds is too large")},
		{"a public moderation channel", realmPatch.with("moderation_request_channel_id", "1"), badRequest("Moderation request channel must be private.")},
		{"an unknown moderation channel", realmPatch.with("moderation_request_channel_id", "99"), badRequest("Invalid channel ID")},
		{"limit as another word", realmPatch.with("move_messages_within_stream_limit_seconds", `"forever"`), badRequest("move_messages_within_stream_limit_seconds is not an integer")},
	}
	add(realmPatch)
}
