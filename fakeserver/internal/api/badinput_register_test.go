package api_test

import (
	"github.com/chatconform/chatconform/fixtures"
)

// routeCasesRegister adds the bad-input cases of the routes whose handlers are in register.go.
func routeCasesRegister(add func(routeSpec)) {
	// --- supporting operations ---
	reg := routeSpec{method: "POST", pattern: "/api/v1/register", path: "/api/v1/register", role: fixtures.RoleMember,
		params: []param{
			{name: "fetch_event_types", kind: kStrList},
			{name: "event_types", kind: kStrList},
			{name: "apply_markdown", kind: kBool},
			{name: "client_gravatar", kind: kBool},
			{name: "slim_presence", kind: kBool},
			{name: "all_public_streams", kind: kBool},
			{name: "include_subscribers", kind: kBool},
			{name: "narrow", kind: kJSONList},
			{name: "client_capabilities", kind: kJSONDict},
		},
		valid: []string{"fetch_event_types", `["realm"]`}}
	add(reg)
}
