package fakeserver_test

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
	"testing"

	"github.com/chatconform/chatconform/fixtures"
)

// clientSetUp gives every route's fake what this area's routes act on: the member's heart
// reaction to the setup message, and the member's presence.
func clientSetUp(t testing.TB, base string) {
	t.Helper()
	requireSuccess(t, "setup reaction", post(t, base, memberAuth, "/api/v1/messages/1/reactions", "emoji_name", "heart"))
	requireSuccess(t, "setup presence", post(t, base, memberAuth, "/api/v1/users/me/presence", "status", "active"))
}

// clientStateOf adds, to a bad-input test's state, what this area's requests could change
// beyond the common state: channels with their settings, the member's subscriptions (with
// their settings, and the ones left), topic policies and presence, and the groups.
func clientStateOf(t testing.TB, base string, state map[string]any) {
	t.Helper()
	read := func(key string, res response, name string) { recordField(state, key, res, name) }
	read("channels", get(t, base, ownerAuth, "/api/v1/streams", "include_all=true&exclude_archived=false"), "streams")
	member := post(t, base, memberAuth, "/api/v1/register", "fetch_event_types", `["subscription","user_topic","presence"]`)
	for _, key := range []string{"subscriptions", "unsubscribed", "user_topics", "presences"} {
		read("member "+key, member, key)
	}
	read("groups", get(t, base, ownerAuth, "/api/v1/user_groups", "include_deactivated_groups=true"), "user_groups")
}

// clientRouteCases adds the bad-input cases of the routes real clients call around the
// documented operations. The setup message (ID 1) was sent by the owner to
// general > setup; general (ID 1) is the fixture's one channel, with everyone subscribed.
func clientRouteCases(add func(routeSpec)) {
	unsub := routeSpec{method: "DELETE", pattern: "/api/v1/users/me/subscriptions", path: "/api/v1/users/me/subscriptions",
		role: fixtures.RoleMember,
		params: []param{
			{name: "subscriptions", kind: kStrList, required: true},
			{name: "principals", kind: kJSONList},
		},
		valid: []string{"subscriptions", `["general"]`}}
	unsub.extra = []badCase{
		{"unknown channel", unsub.with("subscriptions", `["general","nowhere"]`), badRequest("Channel(s) (nowhere) do not exist")},
		{"blank name", unsub.with("subscriptions", `[" "]`), badRequest("Channel name can't be empty.")},
		{"another user, as a member", unsub.with("principals", "[1]"), badRequest("Insufficient permission")},
		{"unknown principal", unsub.with("principals", "[4,999]"), badRequest("No such user")},
		{"unknown principal email", unsub.with("principals", `["nobody@chat.example.test"]`), badRequest("No such user")},
		{"principal of the wrong type", unsub.with("principals", "[true]"), want{status: 400, code: "BAD_REQUEST"}},
	}
	add(unsub)

	markChannel := routeSpec{method: "POST", pattern: "/api/v1/mark_stream_as_read", path: "/api/v1/mark_stream_as_read",
		role:   fixtures.RoleMember,
		params: []param{{name: "stream_id", kind: kInt, required: true}},
		valid:  []string{"stream_id", "1"}}
	markChannel.extra = []badCase{
		{"unknown channel", markChannel.with("stream_id", "999"), badRequest("Invalid channel ID")},
		{"channel zero", markChannel.with("stream_id", "0"), badRequest("Invalid channel ID")},
	}
	add(markChannel)

	markTopic := routeSpec{method: "POST", pattern: "/api/v1/mark_topic_as_read", path: "/api/v1/mark_topic_as_read",
		role: fixtures.RoleMember,
		params: []param{
			{name: "stream_id", kind: kInt, required: true},
			{name: "topic_name", required: true, oversizeFails: true},
		},
		valid: []string{"stream_id", "1", "topic_name", "SETUP"}}
	markTopic.extra = []badCase{
		{"unknown channel", markTopic.with("stream_id", "999"), badRequest("Invalid channel ID")},
		{"unknown topic", markTopic.with("topic_name", "elsewhere"), badRequest("No such topic 'elsewhere'")},
	}
	add(markTopic)

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

	unreact := routeSpec{method: "DELETE", pattern: "/api/v1/messages/{message_id:[0-9]+}/reactions", path: "/api/v1/messages/{id}/reactions", id: "1",
		notFound: "Invalid message(s)", role: fixtures.RoleMember,
		params: []param{
			{name: "emoji_name", oversizeFails: true},
			{name: "emoji_code", oversizeFails: true},
			{name: "reaction_type", oversizeFails: true},
		},
		valid: []string{"emoji_name", "heart"}}
	unreact.extra = []badCase{
		{"neither name nor code", unreact.without("emoji_name"), badRequest("At least one of the following arguments must be present: emoji_name, emoji_code")},
		{"unknown emoji name", unreact.with("emoji_name", "no_such_emoji"), badRequest("Emoji 'no_such_emoji' does not exist")},
		{"a reaction the member did not make", unreact.with("emoji_name", "octopus"), badRequest("Reaction doesn't exist.")},
		{"another user's reaction", unreact.as(ownerAuth), badRequest("Reaction doesn't exist.")},
		{"the right code in another type", unreact.as(memberAuth, "emoji_code", "2764", "reaction_type", "realm_emoji"), badRequest("Reaction doesn't exist.")},
	}
	add(unreact)

	typing := routeSpec{method: "POST", pattern: "/api/v1/typing", path: "/api/v1/typing", role: fixtures.RoleMember,
		params: []param{
			{name: "type", kind: kEnum},
			{name: "op", kind: kEnum, required: true},
			{name: "to", kind: kJSONList},
			{name: "stream_id", kind: kInt},
			{name: "topic", oversizeFails: false},
		},
		valid: []string{"op", "start", "to", "[1]"}}
	inChannel := func(kv ...string) request {
		return typing.build(valuesOf(append([]string{"type", "channel", "op", "start"}, kv...)...))
	}
	typing.extra = []badCase{
		{"direct without to", typing.without("to"), badRequest("Missing 'to' argument")},
		{"empty to", typing.with("to", "[]"), badRequest("Empty 'to' list")},
		{"unknown user", typing.with("to", "[1,999]"), badRequest("Invalid user ID 999")},
		{"to not integers", typing.with("to", `["owner@chat.example.test"]`), want{status: 400, code: "BAD_REQUEST"}},
		{"channel without stream_id", inChannel("topic", "t"), badRequest("Missing 'stream_id' argument")},
		{"channel without topic", inChannel("stream_id", "1"), badRequest("Missing topic")},
		{"unknown channel", inChannel("stream_id", "999", "topic", "t"), badRequest("Invalid channel ID")},
	}
	add(typing)

	add(routeSpec{method: "GET", pattern: "/api/v1/messages/{message_id:[0-9]+}/history", path: "/api/v1/messages/{id}/history", id: "1",
		notFound: "Invalid message(s)", role: fixtures.RoleGuest,
		params: []param{{name: "allow_empty_topic_name", kind: kBool}}})

	add(routeSpec{method: "POST", pattern: "/api/v1/messages/render", path: "/api/v1/messages/render", role: fixtures.RoleMember,
		params: []param{{name: "content", required: true}}, valid: []string{"content", "**bold** @**Olivia Owner**"}})

	// The path takes an ID or an email, so a non-numeric segment is an email, not a 404.
	presence := routeSpec{method: "GET", pattern: "/api/v1/users/{user_id_or_email:(?:[^/][^/][^/]+|[^/m][^/]?|m[^/e]?)}/presence", path: "/api/v1/users/4/presence", role: fixtures.RoleGuest}
	presenceOf := func(who string) request {
		return request{method: "GET", path: "/api/v1/users/" + who + "/presence", auth: guestAuth}
	}
	presence.extra = []badCase{
		{"unknown ID", presenceOf("999"), badRequest("No such user")},
		{"ID zero", presenceOf("0"), badRequest("No such user")},
		{"ID beyond the range", presenceOf(huge), badRequest("No such user")},
		{"unknown email", presenceOf("nobody@chat.example.test"), badRequest("No such user")},
		{"a word", presenceOf("abc"), badRequest("No such user")},
		{"a bot", presenceOf("6"), badRequest("Presence is not supported for bot users.")},
		{"a user who never reported", presenceOf("owner@chat.example.test"), badRequest("No presence data for owner@chat.example.test")},
	}
	add(presence)
	add(routeSpec{method: "GET", pattern: "/api/v1/realm/presence", path: "/api/v1/realm/presence", role: fixtures.RoleGuest})
	add(routeSpec{method: "GET", pattern: "/api/v1/realm/emoji", path: "/api/v1/realm/emoji", role: fixtures.RoleGuest})

	userTopic := routeSpec{method: "POST", pattern: "/api/v1/user_topics", path: "/api/v1/user_topics", role: fixtures.RoleMember,
		params: []param{
			{name: "stream_id", kind: kInt, required: true},
			{name: "topic", required: true, oversizeFails: true},
			{name: "visibility_policy", kind: kInt, required: true},
		},
		valid: []string{"stream_id", "1", "topic", "setup", "visibility_policy", "3"}}
	userTopic.extra = []badCase{
		{"policy out of range", userTopic.with("visibility_policy", "4"), badRequest("Invalid visibility_policy")},
		{"negative policy", userTopic.with("visibility_policy", "-1"), badRequest("Invalid visibility_policy")},
		{"topic too long", userTopic.with("topic", strings.Repeat("t", 61)), badRequest("topic is too long (limit: 60 characters)")},
		{"unknown channel", userTopic.with("stream_id", "999"), badRequest("Invalid channel ID")},
		{"unknown channel, inherit", userTopic.as(memberAuth, "stream_id", "999", "visibility_policy", "0"), badRequest("Invalid channel ID")},
	}
	add(userTopic)

	flagsNarrow := routeSpec{method: "POST", pattern: "/api/v1/messages/flags/narrow", path: "/api/v1/messages/flags/narrow", role: fixtures.RoleMember,
		params: []param{
			{name: "anchor", required: true, oversizeFails: true},
			{name: "include_anchor", kind: kBool},
			{name: "num_before", kind: kInt, required: true},
			{name: "num_after", kind: kInt, required: true},
			{name: "narrow", kind: kJSONList, required: true},
			{name: "op", kind: kEnum, required: true},
			{name: "flag", required: true, oversizeFails: true},
		},
		valid: []string{"anchor", "oldest", "num_before", "0", "num_after", "10", "narrow", `[{"operator":"channel","operand":"general"}]`, "op", "add", "flag", "starred"}}
	flagsNarrow.extra = []badCase{
		{"anchor excluded mid-range", flagsNarrow.as(memberAuth, "anchor", "1", "num_before", "1", "include_anchor", "false"), badRequest("The anchor can only be excluded at an end of the range")},
		{"flag not editable", flagsNarrow.with("flag", "mentioned"), badRequest("Flag not editable: 'mentioned'")},
		{"unknown flag", flagsNarrow.with("flag", "shiny"), badRequest("Invalid flag: 'shiny'")},
		{"unknown narrow operator", flagsNarrow.with("narrow", `[{"operator":"shiny","operand":"x"}]`), bad(400, "BAD_NARROW", "")},
		{"bad anchor", flagsNarrow.with("anchor", "soon"), badRequest("Invalid anchor")},
	}
	add(flagsNarrow)

	reactivate := routeSpec{method: "POST", pattern: "/api/v1/users/{user_id:[0-9]+}/reactivate", path: "/api/v1/users/{id}/reactivate", id: "4",
		notFound: "No such user", role: fixtures.RoleAdmin}
	reactivate.extra = []badCase{
		{"as a moderator", reactivate.as(modAuth), principalAdmin},
		{"an owner, as an administrator", request{method: "POST", path: "/api/v1/users/1/reactivate", auth: adminAuth}, badRequest("Insufficient permission")},
	}
	add(reactivate)

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
	}
	add(editChannel)

	group := routeSpec{method: "PATCH", pattern: "/api/v1/user_groups/{user_group_id:[0-9]+}", path: "/api/v1/user_groups/{id}", id: "8",
		notFound: "Invalid user group", role: fixtures.RoleAdmin,
		params: []param{
			{name: "name", oversizeFails: true},
			{name: "description", oversizeFails: true},
			{name: "deactivated", kind: kBool},
		},
		valid: []string{"name", "renamed by the bad-input test"}}
	group.extra = []badCase{
		{"nothing to change", group.without("name"), badRequest("No new data supplied")},
		{"a system group", request{method: "PATCH", path: "/api/v1/user_groups/1", auth: adminAuth, body: []byte("name=x"), contentType: formType}, badRequest("Insufficient permission")},
		{"as a member who did not create it", group.as(memberAuth), badRequest("Insufficient permission")},
		{"as a guest", group.as(guestAuth), badRequest("Not allowed for guest users")},
		{"the name of another group", group.with("name", "ESCALATION"), badRequest("User group 'ESCALATION' already exists.")},
		{"a blank name", group.with("name", " "), badRequest("User group name cannot be empty.")},
		{"a role: name", group.with("name", "role:x"), badRequest("User group name cannot start with 'role:'.")},
		{"a good name, a description too long (all or nothing)", group.as(adminAuth, "description", strings.Repeat("d", 1025)), badRequest("description is too long (limit: 1024 characters)")},
	}
	add(group)

	add(routeSpec{method: "GET", pattern: "/api/v1/streams/{stream_id:[0-9]+}/members", path: "/api/v1/streams/{id}/members", id: "1",
		notFound: "Invalid channel ID", role: fixtures.RoleGuest})
	add(routeSpec{method: "GET", pattern: "/api/v1/streams/{stream_id:[0-9]+}/email_address", path: "/api/v1/streams/{id}/email_address", id: "1",
		notFound: "Invalid channel ID", role: fixtures.RoleMember})
	subStatus := routeSpec{method: "GET", pattern: "/api/v1/users/{user_id:[0-9]+}/subscriptions/{stream_id:[0-9]+}",
		path: "/api/v1/users/4/subscriptions/{id}", id: "1", notFound: "Invalid channel ID", role: fixtures.RoleMember}
	ofUser := func(user string) request {
		r := subStatus.as(memberAuth)
		r.path = "/api/v1/users/" + user + "/subscriptions/1"
		return r
	}
	subStatus.extra = []badCase{
		{"unknown user", ofUser("999"), badRequest("No such user")},
		{"user id zero", ofUser("0"), badRequest("No such user")},
		{"user id overflow", ofUser(huge), badRequest("No such user")},
		{"user id not a number", ofUser("abc"), notFound404},
		{"unknown user and channel (the user first)", func() request { r := ofUser("999"); r.path += "9"; return r }(), badRequest("No such user")},
	}
	add(subStatus)

	// The setup upload (integrationSetUp): the owner's, attachment 1, whose path_id the fake
	// derives from the realm and the ID.
	setupFile := "/user_uploads/1/" + setupUpload + "/" + integSetupFile
	for _, prefix := range []string{"/api/v1", ""} { // the temporary URL, and the bytes
		file := routeSpec{method: "GET", pattern: prefix + "/user_uploads/*", path: prefix + setupFile, role: fixtures.RoleOwner, raw: prefix == ""}
		file.extra = []badCase{
			{"no such file", request{method: "GET", path: prefix + "/user_uploads/1/nothing/x.txt", auth: ownerAuth}, bad(404, "BAD_REQUEST", "File not found.")},
			{"a file the member may not see", file.as(memberAuth), bad(403, "BAD_REQUEST", "You are not authorized to view this file.")},
		}
		add(file)
	}
	add(routeSpec{method: "GET", pattern: "/user_uploads/temporary/{token}/{name}", path: "/user_uploads/temporary/0123456789abcdef/" + integSetupFile,
		unknowable: "a temporary URL's token is random (TestUploadedFileDownloads uses one)"})
	avatar := routeSpec{method: "GET", pattern: "/avatar/{user_id_or_email:(?:[^/][^/][^/]+|[^/m][^/]?|m[^/e]?)}", path: "/avatar/4", role: fixtures.RoleGuest, raw: true}
	avatar.extra = []badCase{{"no such user", request{method: "GET", path: "/avatar/999", auth: guestAuth}, badRequest("No such user")}}
	add(avatar)
	add(routeSpec{method: "GET", pattern: "/avatar/{user_id_or_email:(?:[^/][^/][^/]+|[^/m][^/]?|m[^/e]?)}/medium", path: "/avatar/member@chat.example.test/medium",
		role: fixtures.RoleGuest, raw: true})
	add(routeSpec{method: "GET", pattern: "/static/images/logo/zulip-icon-128x128.png", path: "/static/images/logo/zulip-icon-128x128.png", raw: true})
	add(routeSpec{method: "GET", pattern: "/openapi.json", path: "/openapi.json", raw: true})
}

// setupUpload stands for the middle part of the setup upload's path_id in the cases; it
// depends on how many resets the server has seen, so the runner fills it in (withOwnerQueue).
const setupUpload = "SETUPUPLOAD"

// setupUploadHash is the middle part of the setup upload's path_id after the given number of
// fixture loads: the fake derives it from the realm's string ID, the load and the
// attachment's ID, so that runs are reproducible and no path id outlives a reset.
func setupUploadHash(loads int) string {
	sum := sha256.Sum256(fmt.Appendf(nil, "%s/%d/1", defaultFixture.Realm.StringID, loads))
	return hex.EncodeToString(sum[:])[:24]
}
