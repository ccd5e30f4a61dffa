package api_test

import (
	"strings"

	"github.com/chatconform/chatconform/fixtures"
)

// routeCasesTopicMuting adds the bad-input cases of the routes whose handlers are in topic_muting.go.
func routeCasesTopicMuting(add func(routeSpec)) {
	mute := routeSpec{method: "PATCH", pattern: "/api/v1/users/me/subscriptions/muted_topics", path: "/api/v1/users/me/subscriptions/muted_topics",
		role: fixtures.RoleMember,
		params: []param{
			{name: "stream_id", kind: kInt},
			{name: "stream", oversizeFails: true},
			{name: "topic", required: true, oversizeFails: true},
			{name: "op", kind: kEnum, required: true},
		},
		valid: []string{"stream_id", "1", "topic", "setup", "op", "add"}}
	muteOnly := func(kv ...string) request { return mute.build(valuesOf(kv...)) }
	mute.extra = []badCase{
		{"neither stream_id nor stream", muteOnly("topic", "setup", "op", "add"), badRequest("Missing 'stream_id' argument")},
		{"both stream_id and stream", mute.with("stream", setupChan), badRequest("Unsupported parameter combination: stream_id, stream")},
		{"unknown channel id", mute.with("stream_id", "999"), badRequest("Invalid channel ID")},
		{"channel id zero", mute.with("stream_id", "0"), badRequest("Invalid channel ID")},
		{"unknown channel name", muteOnly("stream", "badinput-nowhere", "topic", "setup", "op", "add"), badRequest("Invalid channel name 'badinput-nowhere'")},
		{"empty channel name", muteOnly("stream", "", "topic", "setup", "op", "add"), want{status: 400, code: "BAD_REQUEST"}},
		{"unmuting in an unknown channel", mute.as(memberAuth, "stream_id", "999", "op", "remove"), badRequest("Topic is not muted")},
		{"topic one character too long", mute.with("topic", strings.Repeat("t", 61)), badRequest("topic is too long (limit: 60 characters)")},
	}
	add(mute)
}
