package api_test

import (
	"github.com/chatconform/chatconform/fixtures"
)

// routeCasesChannelsCreate adds the bad-input cases of the routes whose handlers are in
// channels_create.go.
func routeCasesChannelsCreate(add func(routeSpec)) {
	create := routeSpec{method: "POST", pattern: "/api/v1/channels/create", path: "/api/v1/channels/create", role: fixtures.RoleMember,
		params: []param{
			{name: "name", kind: kString, required: true, oversizeFails: true}, {name: "description", kind: kString, oversizeFails: true},
			{name: "subscribers", kind: kJSONList, required: true},
			{name: "invite_only", kind: kBool}, {name: "history_public_to_subscribers", kind: kBool},
			{name: "folder_id", kind: kInt},
		},
		valid: []string{"name", "created by the table", "subscribers", "[4]"}}
	create.extra = []badCase{
		{"a channel that exists", create.with("name", "general"), bad(400, "CHANNEL_ALREADY_EXISTS", "Channel 'general' already exists")},
		{"an empty name", create.with("name", "  "), badRequest("Channel name can't be empty.")},
		{"an unknown subscriber", create.with("subscribers", "[4, 99]"), badRequest("No such user")},
		{"a guest", create.as(guestAuth), badRequest("Not allowed for guest users")},
		{"no such folder", create.with("folder_id", "99"), badRequest("Invalid channel folder ID")},
		{"folder ID zero", create.with("folder_id", "0"), badRequest("Invalid channel folder ID")},
	}
	add(create)
}
