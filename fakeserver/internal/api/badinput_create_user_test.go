package api_test

import (
	"strings"

	"github.com/chatconform/chatconform/fixtures"
)

// routeCasesCreateUser adds the bad-input cases of the routes whose handlers are in create_user.go.
func routeCasesCreateUser(add func(routeSpec)) {
	users := routeSpec{method: "POST", pattern: "/api/v1/users", path: "/api/v1/users", role: fixtures.RoleOwner,
		params: []param{
			{name: "email", required: true, oversizeFails: true},
			{name: "password", required: true},
			{name: "full_name", required: true, oversizeFails: true},
		},
		valid: []string{"email", "newuser@chat.example.test", "password", "new-user-password", "full_name", "New User"}}
	users.extra = []badCase{
		{"member", users.as(memberAuth), principalAdmin},
		{"member, no parameters (role checked first)", request{method: "POST", path: users.path, auth: memberAuth}, principalAdmin},
		{"administrator without can_create_users", users.as(adminAuth), badRequest("User not authorized to create users")},
		{"email in use", users.with("email", "member@chat.example.test"), badRequest("Email 'member@chat.example.test' already in use")},
		{"email in use, other case", users.with("email", "MEMBER@chat.example.test"), want{status: 400, code: "BAD_REQUEST"}},
		{"email not an address", users.with("email", "not-an-email"), badRequest("Invalid email 'not-an-email'")},
		{"email with plus", users.with("email", "new+tag@chat.example.test"), badRequest("Email addresses containing + are not allowed.")},
		// A 1 MiB local part: the real server's email validator refuses addresses over 320 characters.
		{"email 1 MiB long", users.with("email", oneMiB+"@chat.example.test"), want{status: 400, code: "BAD_REQUEST"}},
		{"weak password", users.with("password", "abc"), want{status: 400, code: "BAD_REQUEST"}},
		{"blank name", users.with("full_name", "  "), badRequest("Name too short!")},
		{"name with bad characters", users.with("full_name", "Bad*Name"), badRequest("Invalid characters in name!")},
		{"name too long", users.with("full_name", strings.Repeat("n", 61)), badRequest("Name too long!")},
	}
	add(users)
}
