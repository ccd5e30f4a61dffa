package api_test

import (
	"github.com/chatconform/chatconform/fixtures"
)

// routeCasesTopics adds the bad-input cases of the routes whose handlers are in topics.go.
func routeCasesTopics(add func(routeSpec)) {
	topics := routeSpec{method: "GET", pattern: "/api/v1/users/me/{stream_id:[0-9]+}/topics", path: "/api/v1/users/me/{id}/topics", id: "1",
		notFound: "Invalid channel ID", role: fixtures.RoleOwner,
		params: []param{{name: "allow_empty_topic_name", kind: kBool}}}
	add(topics)
}
