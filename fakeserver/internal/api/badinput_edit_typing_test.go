package api_test

import (
	"github.com/chatconform/chatconform/fixtures"
)

// routeCasesEditTyping adds the bad-input cases of the routes whose handlers are in edit_typing.go.
func routeCasesEditTyping(add func(routeSpec)) {
	typing := routeSpec{method: "POST", pattern: "/api/v1/messages/{message_id:[0-9]+}/typing", path: "/api/v1/messages/{id}/typing", id: "1",
		notFound: "Invalid message(s)", role: fixtures.RoleOwner,
		params: []param{{name: "op", kind: kEnum, required: true}},
		valid:  []string{"op", "start"}}
	typing.extra = []badCase{
		{"a message the requester cannot edit", typing.as(memberAuth), badRequest("You don't have permission to edit this message")},
	}
	add(typing)
}
