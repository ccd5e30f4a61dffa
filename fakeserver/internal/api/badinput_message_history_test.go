package api_test

import (
	"github.com/chatconform/chatconform/fixtures"
)

// routeCasesMessageHistory adds the bad-input cases of the routes whose handlers are in message_history.go.
func routeCasesMessageHistory(add func(routeSpec)) {
	add(routeSpec{method: "GET", pattern: "/api/v1/messages/{message_id:[0-9]+}/history", path: "/api/v1/messages/{id}/history", id: "1",
		notFound: "Invalid message(s)", role: fixtures.RoleGuest,
		params: []param{{name: "allow_empty_topic_name", kind: kBool}}})
}
