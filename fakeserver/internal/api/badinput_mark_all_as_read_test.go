package api_test

import (
	"github.com/chatconform/chatconform/fixtures"
)

// routeCasesMarkAllAsRead adds the bad-input cases of the routes whose handlers are in mark_all_as_read.go.
func routeCasesMarkAllAsRead(add func(routeSpec)) {
	add(routeSpec{method: "POST", pattern: "/api/v1/mark_all_as_read", path: "/api/v1/mark_all_as_read", role: fixtures.RoleMember})
}
