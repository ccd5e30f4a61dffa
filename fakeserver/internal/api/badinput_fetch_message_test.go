package api_test

import (
	"github.com/chatconform/chatconform/fixtures"
)

// routeCasesFetchMessage adds the bad-input cases of the routes whose handlers are in fetch_message.go.
func routeCasesFetchMessage(add func(routeSpec)) {
	// --- documented operations ---
	getMsg := routeSpec{method: "GET", pattern: "/api/v1/messages/{message_id:[0-9]+}", path: "/api/v1/messages/{id}", id: "1",
		notFound: "Invalid message(s)", role: fixtures.RoleOwner,
		params: []param{{name: "apply_markdown", kind: kBool}, {name: "allow_empty_topic_name", kind: kBool}}}
	add(getMsg)
}
