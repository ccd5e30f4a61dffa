package api_test

import (
	"github.com/chatconform/chatconform/fixtures"
)

// routeCasesUserChannels adds the bad-input cases of the routes whose handlers are in
// user_channels.go.
func routeCasesUserChannels(add func(routeSpec)) {
	add(routeSpec{method: "GET", pattern: "/api/v1/users/{user_id:[0-9]+}/channels", path: "/api/v1/users/{id}/channels",
		id: "4", notFound: "No such user", role: fixtures.RoleMember})
}
