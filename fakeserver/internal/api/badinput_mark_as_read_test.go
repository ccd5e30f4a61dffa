package api_test

import (
	"github.com/chatconform/chatconform/fixtures"
)

// routeCasesMarkAsRead adds the bad-input cases of the routes whose handlers are in mark_as_read.go.
func routeCasesMarkAsRead(add func(routeSpec)) {
	markChannel := routeSpec{method: "POST", pattern: "/api/v1/mark_stream_as_read", path: "/api/v1/mark_stream_as_read",
		role:   fixtures.RoleMember,
		params: []param{{name: "stream_id", kind: kInt, required: true}},
		valid:  []string{"stream_id", "1"}}
	markChannel.extra = []badCase{
		{"unknown channel", markChannel.with("stream_id", "999"), badRequest("Invalid channel ID")},
		{"channel zero", markChannel.with("stream_id", "0"), badRequest("Invalid channel ID")},
	}
	add(markChannel)

	markTopic := routeSpec{method: "POST", pattern: "/api/v1/mark_topic_as_read", path: "/api/v1/mark_topic_as_read",
		role: fixtures.RoleMember,
		params: []param{
			{name: "stream_id", kind: kInt, required: true},
			{name: "topic_name", required: true, oversizeFails: true},
		},
		valid: []string{"stream_id", "1", "topic_name", "SETUP"}}
	markTopic.extra = []badCase{
		{"unknown channel", markTopic.with("stream_id", "999"), badRequest("Invalid channel ID")},
		{"unknown topic", markTopic.with("topic_name", "elsewhere"), badRequest("No such topic 'elsewhere'")},
	}
	add(markTopic)
}
