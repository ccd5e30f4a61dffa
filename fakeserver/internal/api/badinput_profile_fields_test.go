package api_test

import (
	"strings"

	"github.com/chatconform/chatconform/fixtures"
)

// routeCasesProfileFields adds the bad-input cases of the routes whose handlers are in profile_fields.go.
func routeCasesProfileFields(add func(routeSpec)) {
	add(routeSpec{method: "GET", pattern: "/api/v1/realm/profile_fields", path: "/api/v1/realm/profile_fields", role: fixtures.RoleGuest})

	addField := routeSpec{method: "POST", pattern: "/api/v1/realm/profile_fields", path: "/api/v1/realm/profile_fields", role: fixtures.RoleAdmin,
		params: []param{
			{name: "name", required: true, oversizeFails: true}, {name: "hint", oversizeFails: true},
			{name: "field_type", kind: kInt, required: true},
		},
		valid: []string{"name", "Team", "field_type", "1"}}
	addField.extra = []badCase{
		{"member", addField.as(memberAuth), principalAdmin},
		{"name in use", addField.with("name", "website"), badRequest("A field with that label already exists.")},
		{"blank name", addField.with("name", " "), badRequest("Label cannot be blank.")},
		{"name too long", addField.with("name", strings.Repeat("n", 41)), badRequest("name is too long (limit: 40 characters)")},
		{"choice type (needs field data)", addField.with("field_type", "3"), badRequest("Invalid field type.")},
		{"unknown type", addField.with("field_type", "99"), badRequest("Invalid field type.")},
		{"negative type", addField.with("field_type", "-1"), badRequest("Invalid field type.")},
	}
	add(addField)

	add(routeSpec{method: "DELETE", pattern: "/api/v1/realm/profile_fields/{field_id:[0-9]+}", path: "/api/v1/realm/profile_fields/{id}", id: "1",
		role: fixtures.RoleAdmin,
		extra: []badCase{
			{"member", request{method: "DELETE", path: "/api/v1/realm/profile_fields/1", auth: memberAuth}, principalAdmin},
			{"unknown field", request{method: "DELETE", path: "/api/v1/realm/profile_fields/999", auth: adminAuth}, badRequest("Field id 999 not found.")},
		}})
}
