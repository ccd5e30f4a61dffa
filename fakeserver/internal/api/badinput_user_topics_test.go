package api_test

import (
	"strings"

	"github.com/chatconform/chatconform/fixtures"
)

// routeCasesUserTopics adds the bad-input cases of the routes whose handlers are in user_topics.go.
func routeCasesUserTopics(add func(routeSpec)) {
	userTopic := routeSpec{method: "POST", pattern: "/api/v1/user_topics", path: "/api/v1/user_topics", role: fixtures.RoleMember,
		params: []param{
			{name: "stream_id", kind: kInt, required: true},
			{name: "topic", required: true, oversizeFails: true},
			{name: "visibility_policy", kind: kInt, required: true},
		},
		valid: []string{"stream_id", "1", "topic", "setup", "visibility_policy", "3"}}
	userTopic.extra = []badCase{
		{"policy out of range", userTopic.with("visibility_policy", "4"), badRequest("Invalid visibility_policy")},
		{"negative policy", userTopic.with("visibility_policy", "-1"), badRequest("Invalid visibility_policy")},
		{"topic too long", userTopic.with("topic", strings.Repeat("t", 61)), badRequest("topic is too long (limit: 60 characters)")},
		{"unknown channel", userTopic.with("stream_id", "999"), badRequest("Invalid channel ID")},
		{"unknown channel, inherit", userTopic.as(memberAuth, "stream_id", "999", "visibility_policy", "0"), badRequest("Invalid channel ID")},
	}
	add(userTopic)
}
