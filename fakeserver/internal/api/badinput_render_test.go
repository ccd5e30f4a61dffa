package api_test

import (
	"github.com/chatconform/chatconform/fixtures"
)

// routeCasesRender adds the bad-input cases of the routes whose handlers are in render.go.
func routeCasesRender(add func(routeSpec)) {
	add(routeSpec{method: "POST", pattern: "/api/v1/messages/render", path: "/api/v1/messages/render", role: fixtures.RoleMember,
		params: []param{{name: "content", required: true}}, valid: []string{"content", "**bold** @**Olivia Owner**"}})
}
