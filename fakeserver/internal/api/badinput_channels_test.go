package api_test

import (
	"strings"

	"github.com/chatconform/chatconform/fixtures"
)

// routeCasesChannels adds the bad-input cases of the routes whose handlers are in channels.go.
func routeCasesChannels(add func(routeSpec)) {
	archive := routeSpec{method: "DELETE", pattern: "/api/v1/streams/{stream_id:[0-9]+}", path: "/api/v1/streams/{id}", id: "1",
		notFound: "Invalid channel ID", role: fixtures.RoleOwner}
	archive.extra = []badCase{
		{"member of the channel", archive.as(memberAuth), badRequest("You do not have permission to administer this channel.")},
		{"moderator", archive.as(modAuth), badRequest("You do not have permission to administer this channel.")},
		{"guest of the channel", archive.as(guestAuth), badRequest("You do not have permission to administer this channel.")},
		{"bot", archive.as(botAuth), badRequest("You do not have permission to administer this channel.")},
	}
	add(archive)

	sid := routeSpec{method: "GET", pattern: "/api/v1/get_stream_id", path: "/api/v1/get_stream_id", role: fixtures.RoleMember,
		params: []param{{name: "stream", required: true, oversizeFails: true}},
		valid:  []string{"stream", setupChan}}
	sid.extra = []badCase{
		{"unknown channel", sid.with("stream", "badinput-nowhere"), badRequest("Invalid channel name 'badinput-nowhere'")},
		{"empty name", sid.with("stream", ""), want{status: 400}},
		{"stream in the body of a GET", request{method: "GET", path: sid.path, auth: memberAuth, body: formBody("stream", setupChan), contentType: formType}, missing("stream")},
	}
	add(sid)

	streams := routeSpec{method: "GET", pattern: "/api/v1/streams", path: "/api/v1/streams", role: fixtures.RoleGuest,
		params: []param{
			{name: "include_public", kind: kBool}, {name: "include_web_public", kind: kBool},
			{name: "include_subscribed", kind: kBool}, {name: "exclude_archived", kind: kBool},
			{name: "include_all", kind: kBool}, {name: "include_all_active", kind: kBool},
			{name: "include_default", kind: kBool}, {name: "include_owner_subscribed", kind: kBool},
			{name: "include_can_access_content", kind: kBool},
		},
		valid: []string{"include_all", "true"}}
	add(streams)

	add(routeSpec{method: "GET", pattern: "/api/v1/streams/{stream_id:[0-9]+}", path: "/api/v1/streams/{id}", id: "1",
		notFound: "Invalid channel ID", role: fixtures.RoleGuest})

	editChannel := routeSpec{method: "PATCH", pattern: "/api/v1/streams/{stream_id:[0-9]+}", path: "/api/v1/streams/{id}", id: "1",
		notFound: "Invalid channel ID", role: fixtures.RoleAdmin,
		params: []param{
			{name: "description", oversizeFails: true},
			{name: "new_name", oversizeFails: true},
			{name: "is_private", kind: kBool},
			{name: "history_public_to_subscribers", kind: kBool},
			{name: "is_web_public", kind: kBool},
			{name: "is_archived", kind: kBool},
		},
		valid: []string{"description", "Edited by the bad-input test"}}
	editChannel.extra = []badCase{
		{"as a member", editChannel.as(memberAuth), badRequest("You do not have permission to administer this channel.")},
		{"the same name", editChannel.with("new_name", "general"), badRequest("Channel already has that name.")},
		{"a blank name", editChannel.with("new_name", "  "), badRequest("Channel name can't be empty.")},
		{"a name too long", editChannel.with("new_name", strings.Repeat("n", 61)), badRequest("Channel name too long (limit: 60 characters).")},
		{"public with protected history", editChannel.with("history_public_to_subscribers", "false"), badRequest("Invalid parameters")},
		{"web-public", editChannel.with("is_web_public", "true"), badRequest("Web-public channels are not enabled.")},
		{"unarchive an active channel", editChannel.with("is_archived", "false"), badRequest("Channel is not currently deactivated")},
		{"description too long, with a good name (all or nothing)", editChannel.as(adminAuth, "description", strings.Repeat("d", 1025), "new_name", newChan), badRequest("description is too long (limit: 1024 characters)")},
		// folder_id is a JSON integer or null, so the generated integer cases do not fit it.
		{"no such folder, with a good description (all or nothing)", editChannel.as(adminAuth, "folder_id", "99", "description", "moved"), badRequest("Invalid channel folder ID")},
		{"folder ID zero", editChannel.with("folder_id", "0"), badRequest("Invalid channel folder ID")},
		{"folder ID a JSON string", editChannel.with("folder_id", `"1"`), badRequest("folder_id is not an integer")},
		{"folder ID a float", editChannel.with("folder_id", "1.5"), badRequest("folder_id is not an integer")},
		{"folder ID not JSON", editChannel.with("folder_id", "one"), badRequest("folder_id is not valid JSON")},
		{"folder ID overflowing", editChannel.with("folder_id", huge), badRequest("folder_id is too large")},
		{"a folder, as a member", editChannel.as(memberAuth, "folder_id", "1"), badRequest("You do not have permission to administer this channel.")},
	}
	add(editChannel)

	add(routeSpec{method: "GET", pattern: "/api/v1/streams/{stream_id:[0-9]+}/members", path: "/api/v1/streams/{id}/members", id: "1",
		notFound: "Invalid channel ID", role: fixtures.RoleGuest})

	add(routeSpec{method: "GET", pattern: "/api/v1/streams/{stream_id:[0-9]+}/email_address", path: "/api/v1/streams/{id}/email_address", id: "1",
		notFound: "Invalid channel ID", role: fixtures.RoleMember})
}
