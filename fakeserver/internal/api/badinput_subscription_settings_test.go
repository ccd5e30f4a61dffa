package api_test

import (
	"github.com/chatconform/chatconform/fixtures"
)

// routeCasesSubscriptionSettings adds the bad-input cases of the routes whose handlers are in subscription_settings.go.
func routeCasesSubscriptionSettings(add func(routeSpec)) {
	subProp := routeSpec{method: "PATCH", pattern: "/api/v1/users/me/subscriptions/{stream_id:[0-9]+}", path: "/api/v1/users/me/subscriptions/{id}", id: "1",
		notFound: "Invalid channel ID", role: fixtures.RoleOwner,
		params: []param{{name: "property", required: true, oversizeFails: true}, {name: "value", required: true, oversizeFails: true}},
		valid:  []string{"property", "pin_to_top", "value", "true"}}
	subProp.extra = []badCase{
		{"unknown property", subProp.with("property", "bogus"), badRequest("Unknown subscription property: bogus")},
		{"boolean property with a string", subProp.with("value", "maybe"), badRequest("pin_to_top is not a boolean")},
		{"color that is not hex", subProp.as(ownerAuth, "property", "color", "value", "red"), badRequest("color is not a valid hex color")},
		{"color given a boolean", subProp.as(ownerAuth, "property", "color", "value", "true"), badRequest("color is not a valid hex color")},
	}
	add(subProp)

	props := routeSpec{method: "POST", pattern: "/api/v1/users/me/subscriptions/properties", path: "/api/v1/users/me/subscriptions/properties",
		role:   fixtures.RoleMember,
		params: []param{{name: "subscription_data", kind: kJSONList, required: true}},
		valid:  []string{"subscription_data", `[{"stream_id":1,"property":"pin_to_top","value":true},{"stream_id":1,"property":"color","value":"#abcdef"}]`}}
	withData := func(data string) request { return props.with("subscription_data", data) }
	props.extra = []badCase{
		{"item not an object", withData(`[1]`), badRequest("subscription_data[0] is not a dict")},
		{"stream_id a string", withData(`[{"stream_id":"1","property":"pin_to_top","value":true}]`), badRequest(`subscription_data[0]["stream_id"] is not an integer`)},
		{"no property", withData(`[{"stream_id":1,"value":true}]`), badRequest(`subscription_data[0]["property"] is not a string`)},
		{"value a number", withData(`[{"stream_id":1,"property":"pin_to_top","value":1}]`), badRequest(`subscription_data[0]["value"] is not a boolean or a string`)},
		{"unknown property", withData(`[{"stream_id":1,"property":"shiny","value":true}]`), badRequest("Unknown subscription property: shiny")},
		{"bad color", withData(`[{"stream_id":1,"property":"color","value":"red"}]`), badRequest("color is not a valid hex color")},
		{"boolean property as a string", withData(`[{"stream_id":1,"property":"is_muted","value":"yes"}]`), badRequest("is_muted is not a boolean")},
		{"unknown channel", withData(`[{"stream_id":999,"property":"pin_to_top","value":true}]`), badRequest("Invalid channel ID")},
		{"good change, then an unknown channel (all or nothing)", withData(`[{"stream_id":1,"property":"pin_to_top","value":true},{"stream_id":999,"property":"pin_to_top","value":true}]`), badRequest("Invalid channel ID")},
	}
	add(props)
}
