package api_test

import (
	"github.com/chatconform/chatconform/fixtures"
)

// routeCasesDeleteTopic adds the bad-input cases of the routes whose handlers are in delete_topic.go.
func routeCasesDeleteTopic(add func(routeSpec)) {
	deleteTopic := routeSpec{method: "POST", pattern: "/api/v1/streams/{stream_id:[0-9]+}/delete_topic", path: "/api/v1/streams/{id}/delete_topic", id: "1",
		notFound: "Invalid channel ID", role: fixtures.RoleOwner,
		params: []param{{name: "topic_name", required: true}},
		valid:  []string{"topic_name", "a topic without messages"}}
	deleteTopic.extra = []badCase{
		{"member", deleteTopic.as(memberAuth), principalAdmin},
		{"moderator, no parameters (role checked first)", request{method: "POST", path: "/api/v1/streams/1/delete_topic", auth: modAuth}, principalAdmin},
	}
	add(deleteTopic)
}
