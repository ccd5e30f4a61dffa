package fakeserver_test

import (
	"net/http"
	"net/url"
	"sort"
	"strings"
	"testing"

	"github.com/chatconform/chatconform/fakeserver"
	"github.com/chatconform/chatconform/fixtures"
	"github.com/go-chi/chi/v5"
)

// linkifierParams are the parameters of adding and of editing a linkifier.
var linkifierParams = []param{
	{name: "pattern", required: true, oversizeFails: true},
	{name: "url_template", required: true, oversizeFails: true},
	{name: "example_input", oversizeFails: true},
	{name: "reverse_template", oversizeFails: true},
	{name: "alternative_url_templates", kind: kStrList},
}

// routeTable is every route of the fake; TestRouteTableCoversRouter keeps it complete.
func routeTable() []routeSpec {
	var table []routeSpec
	add := func(rs routeSpec) { table = append(table, rs) }

	// --- /api/v1, without credentials ---
	add(routeSpec{method: "GET", pattern: "/api/v1/server_settings", path: "/api/v1/server_settings"})

	fetch := routeSpec{method: "POST", pattern: "/api/v1/fetch_api_key", path: "/api/v1/fetch_api_key",
		params: []param{{name: "username", required: true, oversizeFails: true}, {name: "password", required: true, oversizeFails: true}},
		valid:  []string{"username", "owner@chat.example.test", "password", "owner-password"}}
	fetch.extra = []badCase{
		{"wrong password", fetch.with("password", "nope"), bad(401, "AUTHENTICATION_FAILED", "Your username or password is incorrect")},
		{"unknown user", fetch.with("username", "nobody@chat.example.test"), bad(401, "AUTHENTICATION_FAILED", "")},
		{"username not an email", fetch.with("username", "owner"), badRequest("Enter a valid email address.")},
		{"bot login", fetch.with("username", "helper-bot@chat.example.test"), bad(401, "AUTHENTICATION_FAILED", "")},
		{"empty password", fetch.with("password", ""), bad(401, "AUTHENTICATION_FAILED", "")},
	}
	add(fetch)

	// --- documented operations ---
	getMsg := routeSpec{method: "GET", pattern: "/api/v1/messages/{message_id:[0-9]+}", path: "/api/v1/messages/{id}", id: "1",
		notFound: "Invalid message(s)", role: fixtures.RoleOwner,
		params: []param{{name: "apply_markdown", kind: kBool}, {name: "allow_empty_topic_name", kind: kBool}}}
	add(getMsg)

	topics := routeSpec{method: "GET", pattern: "/api/v1/users/me/{stream_id:[0-9]+}/topics", path: "/api/v1/users/me/{id}/topics", id: "1",
		notFound: "Invalid channel ID", role: fixtures.RoleOwner,
		params: []param{{name: "allow_empty_topic_name", kind: kBool}}}
	add(topics)

	pg := routeSpec{method: "POST", pattern: "/api/v1/realm/playgrounds", path: "/api/v1/realm/playgrounds", role: fixtures.RoleOwner,
		params: []param{
			{name: "name", required: true},
			{name: "pygments_language", required: true, oversizeFails: true},
			{name: "url_template", required: true, oversizeFails: true},
		},
		valid: []string{"name", "Go Playground", "pygments_language", "Go", "url_template", "https://go.example/play?code={code}"}}
	pg.extra = []badCase{
		{"member", pg.as(memberAuth), principalAdmin},
		{"moderator", pg.as(modAuth), principalAdmin},
		{"guest, no parameters (role checked first)", request{method: "POST", path: pg.path, auth: guestAuth}, principalAdmin},
		{"bot", pg.as(botAuth), principalAdmin},
		{"blank name", pg.with("name", "   "), badRequest("This field cannot be blank.")},
		{"blank language", pg.with("pygments_language", ""), badRequest("This field cannot be blank.")},
		{"language too long", pg.with("pygments_language", strings.Repeat("x", 41)), badRequest("pygments_language is too long (limit: 40 characters)")},
		{"language with bad characters", pg.with("pygments_language", "C&&<script>"), badRequest("Invalid characters in pygments language")},
		{"template without code", pg.with("url_template", "https://go.example/play"), badRequest(`Missing the required variable "code" in the URL template`)},
		{"template with two variables", pg.with("url_template", "https://go.example/{code}/{other}"), badRequest(`"code" should be the only variable present in the URL template`)},
		{"template not RFC 6570", pg.with("url_template", "https://go.example/{code"), badRequest("Invalid URL template.")},
		{"empty template", pg.with("url_template", ""), badRequest("Invalid URL template.")},
		{"duplicate of an existing playground", pg.as(ownerAuth, "name", "Setup Playground", "pygments_language", "Python"), badRequest("Realm playground with this Realm, Pygments language and Name already exists.")},
	}
	add(pg)

	add(routeSpec{method: "GET", pattern: "/api/v1/realm/linkifiers", path: "/api/v1/realm/linkifiers", role: fixtures.RoleMember})

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

	presence := routeSpec{method: "POST", pattern: "/api/v1/users/me/presence", path: "/api/v1/users/me/presence", role: fixtures.RoleMember,
		params: []param{
			{name: "status", required: true, oversizeFails: true},
			{name: "ping_only", kind: kBool}, {name: "new_user_input", kind: kBool}, {name: "slim_presence", kind: kBool},
			{name: "last_update_id", kind: kInt}, {name: "history_limit_days", kind: kInt},
		},
		valid: []string{"status", "active"}}
	presence.extra = []badCase{
		{"unknown status", presence.with("status", "away"), badRequest("Invalid status: away")},
		{"negative history_limit_days", presence.with("history_limit_days", "-1"), badRequest("history_limit_days is too small")},
		{"bot", presence.as(botAuth), badRequest("This endpoint does not accept bot requests.")},
	}
	add(presence)

	deleteTopic := routeSpec{method: "POST", pattern: "/api/v1/streams/{stream_id:[0-9]+}/delete_topic", path: "/api/v1/streams/{id}/delete_topic", id: "1",
		notFound: "Invalid channel ID", role: fixtures.RoleOwner,
		params: []param{{name: "topic_name", required: true}},
		valid:  []string{"topic_name", "a topic without messages"}}
	deleteTopic.extra = []badCase{
		{"member", deleteTopic.as(memberAuth), principalAdmin},
		{"moderator, no parameters (role checked first)", request{method: "POST", path: "/api/v1/streams/1/delete_topic", auth: modAuth}, principalAdmin},
	}
	add(deleteTopic)

	archive := routeSpec{method: "DELETE", pattern: "/api/v1/streams/{stream_id:[0-9]+}", path: "/api/v1/streams/{id}", id: "1",
		notFound: "Invalid channel ID", role: fixtures.RoleOwner}
	archive.extra = []badCase{
		{"member of the channel", archive.as(memberAuth), badRequest("You do not have permission to administer this channel.")},
		{"moderator", archive.as(modAuth), badRequest("You do not have permission to administer this channel.")},
		{"guest of the channel", archive.as(guestAuth), badRequest("You do not have permission to administer this channel.")},
		{"bot", archive.as(botAuth), badRequest("You do not have permission to administer this channel.")},
	}
	add(archive)

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

	add(routeSpec{method: "GET", pattern: "/api/v1/users/me/subscriptions", path: "/api/v1/users/me/subscriptions", role: fixtures.RoleMember,
		params: []param{{name: "include_subscribers", kind: kBool}}})

	delMsg := routeSpec{method: "DELETE", pattern: "/api/v1/messages/{message_id:[0-9]+}", path: "/api/v1/messages/{id}", id: "1",
		notFound: "Invalid message(s)", role: fixtures.RoleOwner}
	delMsg.extra = []badCase{
		{"member deleting another user's message", delMsg.as(memberAuth), badRequest("You don't have permission to delete this message")},
	}
	add(delMsg)

	realmPatch := routeSpec{method: "PATCH", pattern: "/api/v1/realm", path: "/api/v1/realm", role: fixtures.RoleOwner,
		params: []param{
			{name: "allow_message_editing", kind: kBool}, {name: "message_content_edit_limit_seconds", kind: kInt},
			{name: "move_messages_within_stream_limit_seconds", kind: kInt}, {name: "move_messages_between_streams_limit_seconds", kind: kInt},
		},
		valid: []string{"allow_message_editing", "true"}}
	realmPatch.extra = []badCase{
		{"member", realmPatch.as(memberAuth), principalAdmin},
		{"zero limit", realmPatch.with("message_content_edit_limit_seconds", "0"), badRequest("message_content_edit_limit_seconds is too small")},
		{"limit beyond 32 bits", realmPatch.with("message_content_edit_limit_seconds", "2147483648"), badRequest("message_content_edit_limit_seconds is too large")},
		{"limit as another word", realmPatch.with("move_messages_within_stream_limit_seconds", `"forever"`), badRequest("move_messages_within_stream_limit_seconds is not an integer")},
	}
	add(realmPatch)

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

	// The event routes need a queue of the route's user: the first stateOf after setUp
	// registers the owner's first queue of the current generation, which the runner puts in
	// place of ownerQueue (see withOwnerQueue).
	badQueue := func(id string) want { return bad(400, "BAD_EVENT_QUEUE_ID", "Bad event queue ID: "+id) }
	evs := routeSpec{method: "GET", pattern: "/api/v1/events", path: "/api/v1/events", role: fixtures.RoleOwner,
		params: []param{
			// Neither is required as such: without queue_id, dont_block=true makes a new queue.
			{name: "queue_id", oversizeFails: true},
			{name: "last_event_id", kind: kInt},
			{name: "dont_block", kind: kBool},
			{name: "event_types", kind: kStrList},
		},
		valid: []string{"queue_id", ownerQueue, "last_event_id", "-1", "dont_block", "true"}}
	evs.extra = []badCase{
		{"no parameters", evs.build(url.Values{}), badRequest("Missing 'queue_id' argument")},
		{"no queue_id, blocking", evs.build(url.Values{"last_event_id": {"-1"}}), badRequest("Missing 'queue_id' argument")},
		{"no queue_id, dont_block false", evs.build(url.Values{"dont_block": {"false"}}), badRequest("Missing 'queue_id' argument")},
		{"no last_event_id", evs.without("last_event_id"), badRequest("Missing 'last_event_id' argument")},
		{"no last_event_id, blocking", evs.build(url.Values{"queue_id": {ownerQueue}}), badRequest("Missing 'last_event_id' argument")},
		{"unknown queue", evs.with("queue_id", "1:999999"), badQueue("1:999999")},
		{"empty queue_id", evs.with("queue_id", ""), badQueue("")},
		{"unknown queue, blocking", evs.as(ownerAuth, "queue_id", "bogus", "dont_block", "false"), badQueue("bogus")},
		{"another user's queue", evs.as(memberAuth), badQueue(ownerQueue)},
		{"another user's queue, blocking", evs.as(guestAuth, "dont_block", "false"), badQueue(ownerQueue)},
		{"last_event_id ahead of the queue", evs.with("last_event_id", "5"), badRequest("Event 5 was not in this queue")},
		{"last_event_id behind -1", evs.with("last_event_id", "-2"), badRequest("An event newer than -2 has already been pruned!")},
		{"queue_id in the body of a GET", request{method: "GET", path: evs.path, auth: ownerAuth, body: formBody("queue_id", ownerQueue, "last_event_id", "-1"), contentType: formType}, badRequest("Missing 'queue_id' argument")},
	}
	add(evs)

	delEvs := routeSpec{method: "DELETE", pattern: "/api/v1/events", path: "/api/v1/events", role: fixtures.RoleOwner,
		params: []param{{name: "queue_id", required: true, oversizeFails: true}},
		valid:  []string{"queue_id", ownerQueue}}
	delEvs.extra = []badCase{
		{"unknown queue", delEvs.with("queue_id", "1:999999"), badQueue("1:999999")},
		{"empty queue_id", delEvs.with("queue_id", ""), badQueue("")},
		{"another user's queue", delEvs.as(memberAuth), badQueue(ownerQueue)},
		{"bot deleting its owner's queue", delEvs.as(botAuth), badQueue(ownerQueue)},
	}
	add(delEvs)

	send := routeSpec{method: "POST", pattern: "/api/v1/messages", path: "/api/v1/messages", role: fixtures.RoleOwner,
		params: []param{
			{name: "type", kind: kEnum, required: true},
			{name: "to", required: true, oversizeFails: true},
			{name: "topic"},
			{name: "content", required: true},
			{name: "read_by_sender", kind: kBool},
		},
		valid: []string{"type", "channel", "to", setupChan, "topic", "badinput", "content", "hello"}}
	send.extra = []badCase{
		{"topic and subject", send.with("subject", "other"), bad(400, "REQUEST_CONFUSING_VAR", "Can't decide between 'topic' and 'subject' arguments")},
		{"subject invalid UTF-8", func() request {
			v := send.validValues()
			v.Del("topic")
			v.Set("subject", badUTF8)
			return send.build(v)
		}(), want{status: 400, code: "BAD_REQUEST"}},
		{"channel message without topic", send.without("topic"), badRequest("Missing topic")},
		{"empty content", send.with("content", ""), badRequest("Message must not be empty")},
		{"blank content", send.with("content", " \n\t "), badRequest("Message must not be empty")},
		{"topic with control character", send.with("topic", "a\x00b"), want{status: 400, code: "BAD_REQUEST"}},
		{"unknown channel name", send.with("to", "badinput-nowhere"), want{status: 400, code: "STREAM_DOES_NOT_EXIST"}},
		{"unknown channel id", send.with("to", "999"), want{status: 400, code: "STREAM_DOES_NOT_EXIST"}},
		{"channel id overflow", send.with("to", huge), want{status: 400}},
		{"channel id negative", send.with("to", "-1"), want{status: 400}},
		{"channel as a list of two names", send.with("to", `["general","other"]`), want{status: 400}},
		{"channel as an object", send.with("to", `{"name":"general"}`), want{status: 400}},
		{"guest to an unsubscribed channel", send.as(guestAuth, "to", "badinput-nowhere"), want{status: 400}},
		{"direct: empty list", send.as(ownerAuth, "type", "direct", "to", "[]"), badRequest("Message must have recipients")},
		{"direct: unknown user id", send.as(ownerAuth, "type", "direct", "to", "[999]"), badRequest("Invalid user ID 999")},
		{"direct: negative user id", send.as(ownerAuth, "type", "direct", "to", "[-1]"), want{status: 400}},
		{"direct: float user id", send.as(ownerAuth, "type", "direct", "to", "[1.5]"), want{status: 400}},
		{"direct: huge user id", send.as(ownerAuth, "type", "direct", "to", "["+huge+"]"), want{status: 400}},
		{"direct: bool recipient", send.as(ownerAuth, "type", "direct", "to", "[true]"), want{status: 400}},
		{"direct: object recipient", send.as(ownerAuth, "type", "direct", "to", `[{"id":4}]`), want{status: 400}},
		{"direct: unknown email", send.as(ownerAuth, "type", "direct", "to", `["nobody@chat.example.test"]`), badRequest("Invalid email 'nobody@chat.example.test'")},
		{"direct: truncated JSON", send.as(ownerAuth, "type", "direct", "to", "[4,"), want{status: 400}},
		{"direct: object", send.as(ownerAuth, "type", "direct", "to", `{"a":4}`), want{status: 400}},
		{"direct: 1 MiB", send.as(ownerAuth, "type", "direct", "to", oneMiB), want{status: 400}},
	}
	add(send)

	sub := routeSpec{method: "POST", pattern: "/api/v1/users/me/subscriptions", path: "/api/v1/users/me/subscriptions", role: fixtures.RoleOwner,
		params: []param{
			{name: "subscriptions", kind: kJSONList, required: true},
			{name: "invite_only", kind: kBool},
			{name: "history_public_to_subscribers", kind: kBool},
			{name: "principals", kind: kJSONList},
		},
		valid: []string{"subscriptions", `[{"name":"` + newChan + `","description":"made by the test"}]`}}
	subs := func(s string) request { return sub.with("subscriptions", s) }
	sub.extra = []badCase{
		{"subscriptions: empty list", subs("[]"), want{status: 400, code: "BAD_REQUEST"}},
		{"subscriptions: list of numbers", subs("[1]"), want{status: 400, code: "BAD_REQUEST"}},
		{"subscriptions: list of strings", subs(`["` + newChan + `"]`), want{status: 400, code: "BAD_REQUEST"}},
		{"subscriptions: no name", subs(`[{"description":"x"}]`), badRequest(`subscriptions[0]["name"] is not a string`)},
		{"subscriptions: numeric name", subs(`[{"name":5}]`), badRequest(`subscriptions[0]["name"] is not a string`)},
		{"subscriptions: second entry bad", subs(`[{"name":"` + newChan + `"},{"name":null}]`), badRequest(`subscriptions[1]["name"] is not a string`)},
		{"subscriptions: numeric description", subs(`[{"name":"badinput-desc","description":5}]`), badRequest(`subscriptions[0]["description"] is not a string`)},
		{"subscriptions: empty name", subs(`[{"name":""}]`), want{status: 400, code: "BAD_REQUEST"}},
		{"subscriptions: blank name", subs(`[{"name":"   "}]`), want{status: 400, code: "BAD_REQUEST"}},
		{"subscriptions: name too long", subs(`[{"name":"` + strings.Repeat("c", 61) + `"}]`), want{status: 400, code: "BAD_REQUEST"}},
		{"subscriptions: 1 MiB name", subs(`[{"name":"` + oneMiB + `"}]`), want{status: 400, code: "BAD_REQUEST"}},
		{"subscriptions: control character", subs(`[{"name":"badinput-x\u0007"}]`), want{status: 400, code: "BAD_REQUEST"}},
		{"subscriptions: description too long", subs(`[{"name":"badinput-desc","description":"` + strings.Repeat("d", 1025) + `"}]`), want{status: 400, code: "BAD_REQUEST"}},
		{"subscriptions: good then bad", subs(`[{"name":"` + newChan + `"},{"name":"` + strings.Repeat("c", 61) + `"}]`), want{status: 400, code: "BAD_REQUEST"}},
		{"principals: unknown email", sub.with("principals", `["nobody@chat.example.test"]`), want{status: 400, code: "BAD_REQUEST"}},
		{"principals: unknown id", sub.with("principals", "[999]"), want{status: 400, code: "BAD_REQUEST"}},
		{"principals: negative id", sub.with("principals", "[-1]"), want{status: 400, code: "BAD_REQUEST"}},
		{"principals: huge id", sub.with("principals", "["+huge+"]"), want{status: 400, code: "BAD_REQUEST"}},
		{"principals: float id", sub.with("principals", "[1.5]"), want{status: 400, code: "BAD_REQUEST"}},
		{"principals: bool", sub.with("principals", "[true]"), want{status: 400, code: "BAD_REQUEST"}},
		{"principals: nested list", sub.with("principals", "[[4]]"), want{status: 400, code: "BAD_REQUEST"}},
		{"principals: good then unknown", sub.with("principals", "[4,999]"), want{status: 400, code: "BAD_REQUEST"}},
		{"guest creating a channel", sub.as(guestAuth, "subscriptions", `[{"name":"badinput-guest"}]`), want{status: 400, code: "BAD_REQUEST"}},
		{"guest subscribing others", sub.as(guestAuth, "subscriptions", `[{"name":"general"}]`, "principals", "[4]"), want{status: 400, code: "BAD_REQUEST"}},
	}
	add(sub)

	sid := routeSpec{method: "GET", pattern: "/api/v1/get_stream_id", path: "/api/v1/get_stream_id", role: fixtures.RoleMember,
		params: []param{{name: "stream", required: true, oversizeFails: true}},
		valid:  []string{"stream", setupChan}}
	sid.extra = []badCase{
		{"unknown channel", sid.with("stream", "badinput-nowhere"), badRequest("Invalid channel name 'badinput-nowhere'")},
		{"empty name", sid.with("stream", ""), want{status: 400}},
		{"stream in the body of a GET", request{method: "GET", path: sid.path, auth: memberAuth, body: formBody("stream", setupChan), contentType: formType}, missing("stream")},
	}
	add(sid)

	add(routeSpec{method: "GET", pattern: "/api/v1/users", path: "/api/v1/users", role: fixtures.RoleGuest,
		params: []param{{name: "client_gravatar", kind: kBool}, {name: "include_custom_profile_fields", kind: kBool}}})
	add(routeSpec{method: "GET", pattern: "/api/v1/users/me", path: "/api/v1/users/me", role: fixtures.RoleBot})
	add(routeSpec{method: "GET", pattern: "/api/v1/users/{user_id:[0-9]+}", path: "/api/v1/users/{id}", id: "4",
		notFound: "No such user", role: fixtures.RoleMember,
		params: []param{{name: "client_gravatar", kind: kBool}, {name: "include_custom_profile_fields", kind: kBool}}})

	upd := routeSpec{method: "PATCH", pattern: "/api/v1/users/{user_id:[0-9]+}", path: "/api/v1/users/{id}", id: "4",
		notFound: "No such user", role: fixtures.RoleOwner,
		params: []param{{name: "full_name", oversizeFails: true}, {name: "role", kind: kInt}},
		valid:  []string{"full_name", "Renamed Member"}}
	upd.extra = []badCase{
		{"role negative", upd.with("role", "-1"), badRequest("Invalid role")},
		{"role zero", upd.with("role", "0"), badRequest("Invalid role")},
		{"role between values", upd.with("role", "250"), badRequest("Invalid role")},
		{"role bot-ish value", upd.with("role", "700"), badRequest("Invalid role")},
		{"role as name", upd.with("role", "owner"), badRequest("role is not valid JSON")},
		{"name with bad characters", upd.with("full_name", "Bad*Name"), badRequest("Invalid characters in name!")},
		{"name too long", upd.with("full_name", strings.Repeat("n", 61)), badRequest("Name too long!")},
		{"member changing a user", upd.as(memberAuth), badRequest("Insufficient permission")},
		{"guest changing a role", upd.as(guestAuth, "role", "100"), badRequest("Insufficient permission")},
		{"administrator making an owner", upd.as(adminAuth, "role", "100"), bad(400, "UNAUTHORIZED_PRINCIPAL", "Must be an organization owner")},
		{"administrator demoting the owner", func() request { r := upd.as(adminAuth, "role", "400"); r.path = upd.pathWith("1"); return r }(), bad(400, "UNAUTHORIZED_PRINCIPAL", "Must be an organization owner")},
		{"the only owner demoting themselves", func() request { r := upd.with("role", "400"); r.path = upd.pathWith("1"); return r }(), badRequest("The owner permission cannot be removed from the only organization owner.")},
		{"valid name, bad role (all or nothing)", upd.as(ownerAuth, "full_name", "Half Change", "role", "5"), badRequest("Invalid role")},
	}
	add(upd)

	bots := routeSpec{method: "POST", pattern: "/api/v1/bots", path: "/api/v1/bots", role: fixtures.RoleOwner,
		params: []param{
			{name: "full_name", required: true, oversizeFails: true},
			// A 1 MiB short name makes a 1 MiB email, which the real server's validator refuses.
			{name: "short_name", required: true, oversizeFails: true},
			{name: "bot_type", kind: kInt},
		},
		valid: []string{"full_name", "Bad Input Bot", "short_name", "badinput"}}
	bots.extra = []badCase{
		{"bot_type zero", bots.with("bot_type", "0"), badRequest("Invalid bot_type")},
		{"bot_type negative", bots.with("bot_type", "-1"), badRequest("Invalid bot_type")},
		{"bot_type unknown", bots.with("bot_type", "5"), badRequest("Invalid bot_type")},
		{"short name with bad characters", bots.with("short_name", "Bad Name!"), badRequest("Bad name or username")},
		{"empty short name", bots.with("short_name", ""), badRequest("Bad name or username")},
		{"short name in use", bots.with("short_name", "helper"), badRequest("Username already in use")},
		{"blank full name", bots.with("full_name", " "), badRequest("Name too short!")},
		{"bot creating a bot", bots.as(botAuth), badRequest("This endpoint does not accept bot requests.")},
		{"bot, no parameters (checked first)", request{method: "POST", path: bots.path, auth: botAuth}, badRequest("This endpoint does not accept bot requests.")},
		{"guest creating a bot", bots.as(guestAuth), badRequest("Not allowed for guest users")},
	}
	add(bots)

	settings := routeSpec{method: "PATCH", pattern: "/api/v1/settings", path: "/api/v1/settings", role: fixtures.RoleOwner,
		params: []param{{name: "email_address_visibility", kind: kInt}},
		valid:  []string{"email_address_visibility", "4"}}
	settings.extra = []badCase{
		{"visibility zero", settings.with("email_address_visibility", "0"), badRequest("Invalid email_address_visibility")},
		{"visibility negative", settings.with("email_address_visibility", "-1"), badRequest("Invalid email_address_visibility")},
		{"visibility unknown", settings.with("email_address_visibility", "6"), badRequest("Invalid email_address_visibility")},
	}
	add(settings)

	lf := routeSpec{method: "POST", pattern: "/api/v1/realm/filters", path: "/api/v1/realm/filters", role: fixtures.RoleOwner,
		params: linkifierParams,
		valid:  []string{"pattern", "BI-(?P<id>[0-9]+)", "url_template", "https://bi.example/{id}"}}
	lf.extra = []badCase{
		{"member", lf.as(memberAuth), principalAdmin},
		{"moderator, no parameters (role checked first)", request{method: "POST", path: lf.path, auth: modAuth}, principalAdmin},
		{"pattern not a regex", lf.with("pattern", "BI-(?P<id>[0-9]+"), want{status: 400, code: "BAD_REQUEST"}},
		{"empty pattern", lf.with("pattern", ""), want{status: 400, code: "BAD_REQUEST"}},
		{"pattern with huge repetition", lf.with("pattern", "(?P<id>a{1001})"), want{status: 400, code: "BAD_REQUEST"}},
		{"template variable not in pattern", lf.with("url_template", "https://bi.example/{other}"), badRequest("Group 'other' in URL template is not present in linkifier pattern.")},
		{"pattern group not in template", lf.with("url_template", "https://bi.example/"), badRequest("Group 'id' in linkifier pattern is not present in URL template.")},
		{"template not RFC 6570", lf.with("url_template", "https://bi.example/{id"), badRequest("Invalid URL template.")},
		{"empty template", lf.with("url_template", ""), badRequest("Invalid URL template.")},
		{"example input does not match", lf.with("example_input", "nothing"), badRequest("Example input does not match the linkifier pattern.")},
		{"reverse template without example", lf.with("reverse_template", "BI-{id}"), badRequest("Reverse template requires an example input.")},
		{"alternative template invalid", lf.with("alternative_url_templates", `["https://bi.example/{id"]`), badRequest("Invalid URL template.")},
		{"duplicate pattern", lf.as(ownerAuth, "pattern", "SETUP-(?P<id>[0-9]+)", "url_template", "https://other.example/{id}"), badRequest("Linkifier with this Pattern and Realm already exists.")},
	}
	add(lf)

	rmLf := routeSpec{method: "DELETE", pattern: "/api/v1/realm/filters/{filter_id:[0-9]+}", path: "/api/v1/realm/filters/{id}", id: "1",
		notFound: "Linkifier not found.", role: fixtures.RoleOwner}
	rmLf.extra = []badCase{
		{"member", rmLf.as(memberAuth), principalAdmin},
		{"moderator", rmLf.as(modAuth), principalAdmin},
	}
	add(rmLf)

	rmPg := routeSpec{method: "DELETE", pattern: "/api/v1/realm/playgrounds/{playground_id:[0-9]+}", path: "/api/v1/realm/playgrounds/{id}", id: "1",
		notFound: "Invalid playground", role: fixtures.RoleOwner}
	rmPg.extra = []badCase{
		{"guest", rmPg.as(guestAuth), principalAdmin},
		{"bot", rmPg.as(botAuth), principalAdmin},
	}
	add(rmPg)

	// --- control API ---
	add(routeSpec{method: "GET", pattern: "/_fake/health", path: "/_fake/health"})
	add(routeSpec{method: "POST", pattern: "/_fake/reset", path: "/_fake/reset"})

	fix := routeSpec{method: "POST", pattern: "/_fake/fixture", path: "/_fake/fixture",
		params: []param{{name: "fixture", required: true, oversizeFails: true}},
		valid:  []string{"fixture", string(fixtures.DefaultYAML())}}
	withFixture := func(yaml string) request { return fix.with("fixture", yaml) }
	noOwner := strings.Replace(string(fixtures.DefaultYAML()), "role: owner", "role: member", 1)
	fix.extra = []badCase{
		{"empty fixture", withFixture(""), want{status: 400, code: "BAD_REQUEST"}},
		{"YAML syntax error", withFixture("realm: {name: [unclosed"), want{status: 400, code: "BAD_REQUEST"}},
		{"truncated JSON", withFixture(`{"realm": {"name": "x"`), want{status: 400, code: "BAD_REQUEST"}},
		{"unknown field", withFixture("realm:\n  bogus: 1\nusers:" + strings.SplitN(string(fixtures.DefaultYAML()), "users:", 2)[1]), want{status: 400, code: "BAD_REQUEST"}},
		{"users not a list", withFixture("users: 5"), want{status: 400, code: "BAD_REQUEST"}},
		{"a list at the top", withFixture("[1, 2]"), want{status: 400, code: "BAD_REQUEST"}},
		{"no owner", withFixture(noOwner), want{status: 400, code: "BAD_REQUEST"}},
		{"YAML sent as the body", request{method: "POST", path: fix.path, body: fixtures.DefaultYAML(), contentType: "application/yaml"}, missing("fixture")},
	}
	add(fix)

	add(routeSpec{method: "GET", pattern: "/_fake/clock", path: "/_fake/clock"})

	clk := routeSpec{method: "POST", pattern: "/_fake/clock", path: "/_fake/clock",
		params: []param{{name: "mode", kind: kEnum}, {name: "now", kind: kInt}, {name: "advance", kind: kInt}},
		valid:  []string{"advance", "60"}}
	clk.extra = []badCase{
		{"an unknown setting", clk.build(url.Values{"other": {"1"}}), want{status: 400, code: "BAD_REQUEST", msg: "Unknown setting: other"}},
		{"empty body", request{method: "POST", path: clk.path}, missing("advance")},
		{"now and advance", clk.with("now", "1767225600"), want{status: 400, code: "BAD_REQUEST"}},
		{"negative advance", clk.with("advance", "-1"), want{status: 400, code: "BAD_REQUEST"}},
		// time.Duration(advance) * time.Second overflows int64 nanoseconds beyond ~292 years.
		{"advance beyond time.Duration", clk.with("advance", "9223372036854775807"), want{status: 400, code: "BAD_REQUEST"}},
		{"advance of 300 years", clk.with("advance", "9467280000"), want{status: 400, code: "BAD_REQUEST"}},
		{"wall mode with a negative advance (all or nothing)", clk.as("", "mode", "wall", "advance", "-1"), badRequest("advance must not be negative; use now to go back")},
	}
	add(clk)

	add(routeSpec{method: "GET", pattern: "/_fake/config", path: "/_fake/config"})
	cfg := routeSpec{method: "PATCH", pattern: "/_fake/config", path: "/_fake/config",
		params: []param{
			{name: "push_configured", kind: kBool},
			{name: "event_poll_timeout_seconds", kind: kInt},
			{name: "event_queue_idle_seconds", kind: kInt},
			{name: "rate_limit_requests", kind: kInt},
			{name: "rate_limit_window_seconds", kind: kInt},
		},
		valid: []string{"push_configured", "true"}}
	cfg.extra = []badCase{
		{"poll timeout zero", cfg.with("event_poll_timeout_seconds", "0"), badRequest("event_poll_timeout_seconds must be between 1 and 300")},
		{"poll timeout over 300", cfg.with("event_poll_timeout_seconds", "301"), badRequest("event_poll_timeout_seconds must be between 1 and 300")},
		{"idle time zero", cfg.with("event_queue_idle_seconds", "0"), badRequest("event_queue_idle_seconds must be between 1 and 3153600000")},
		{"idle time negative", cfg.with("event_queue_idle_seconds", "-600"), badRequest("event_queue_idle_seconds must be between 1 and 3153600000")},
		{"idle time beyond the clock's range", cfg.with("event_queue_idle_seconds", "9223372036854775807"), badRequest("event_queue_idle_seconds must be between 1 and 3153600000")},
		{"good setting, bad setting (all or nothing)", cfg.as("", "event_poll_timeout_seconds", "5", "event_queue_idle_seconds", "0"), badRequest("event_queue_idle_seconds must be between 1 and 3153600000")},
		{"negative rate limit", cfg.with("rate_limit_requests", "-1"), badRequest("rate_limit_requests must be between 0 and 1000000")},
		{"rate limit window zero", cfg.as("", "rate_limit_requests", "5", "rate_limit_window_seconds", "0"), badRequest("rate_limit_window_seconds must be between 1 and 86400")},
	}
	add(cfg)

	add(routeSpec{method: "GET", pattern: "/_fake/", path: "/_fake/", raw: true})
	add(routeSpec{method: "GET", pattern: "/_fake/ui", path: "/_fake/ui", raw: true})
	inspect := routeSpec{method: "GET", pattern: "/_fake/inspect", path: "/_fake/inspect",
		params: []param{{name: "section", kind: kString, required: true}, {name: "offset", kind: kInt}, {name: "limit", kind: kInt}, {name: "status", kind: kInt}},
		valid:  []string{"section", "users", "limit", "10"}}
	inspect.extra = []badCase{
		{"an unknown section", inspect.with("section", "secrets"), badRequest("Invalid section")},
		{"limit zero", inspect.with("limit", "0"), badRequest("limit must be between 1 and 500")},
		{"a negative offset", inspect.as("", "section", "journal", "offset", "-1"), badRequest("offset must be between 0 and 2147483647")},
		{"a bad path pattern", inspect.as("", "section", "journal", "path", "/api/["), badRequest("Invalid path pattern: /api/[")},
		{"an unknown filter", inspect.as("", "section", "users", "colour", "red"), badRequest("Unknown setting: colour")},
	}
	add(inspect)
	add(routeSpec{method: "GET", pattern: "/_fake/faults", path: "/_fake/faults"})
	add(routeSpec{method: "DELETE", pattern: "/_fake/faults", path: "/_fake/faults"})
	fault := routeSpec{method: "POST", pattern: "/_fake/faults", path: "/_fake/faults",
		params: []param{{name: "status", kind: kInt}, {name: "delay_ms", kind: kInt}, {name: "drop", kind: kBool}, {name: "times", kind: kInt}},
		valid:  []string{"path", "/api/v1/nothing-here", "status", "503"}}
	fault.extra = []badCase{
		{"no effect", fault.build(url.Values{"path": {"/x"}}), badRequest("A fault needs a status, drop or delay_ms")},
		{"a success status", fault.as("", "status", "200"), badRequest("status must be an HTTP error status, 400 to 599")},
		{"drop and status", fault.as("", "status", "503", "drop", "true"), badRequest("Send either drop or status, not both")},
		{"a bad pattern", fault.as("", "status", "503", "path", "/api/["), badRequest("Invalid path pattern: /api/[")},
	}
	add(fault)
	add(routeSpec{method: "GET", pattern: "/_fake/journal", path: "/_fake/journal"})
	add(routeSpec{method: "DELETE", pattern: "/_fake/journal", path: "/_fake/journal"})

	vcall := routeSpec{method: "POST", pattern: "/_fake/vcall_token", path: "/_fake/vcall_token",
		params: []param{{name: "user_id", kind: kInt, required: true}, {name: "has_token", kind: kBool}},
		valid:  []string{"user_id", "4", "has_token", "true"}}
	vcall.extra = []badCase{
		{"unknown user", vcall.with("user_id", "999"), badRequest("No such user")},
		{"user id zero", vcall.with("user_id", "0"), badRequest("No such user")},
	}
	add(vcall)

	// Each area of the API keeps its route cases in its own file.
	messagingRouteCases(add)
	accountRouteCases(add)
	integrationRouteCases(add)
	clientRouteCases(add)
	personalRouteCases(add)
	return table
}

// walkRoutes returns the methods the router serves, by pattern.
func walkRoutes(t testing.TB) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	err := chi.Walk(fakeserver.New().Router(), func(method, route string, _ http.Handler, _ ...func(http.Handler) http.Handler) error {
		out[route] = append(out[route], method)
		return nil
	})
	if err != nil {
		t.Fatalf("walking the router: %v", err)
	}
	return out
}

// olderLevelRoutes are served only below the fixture's level, where the table's setup does not
// run (it needs later routes): TestOlderRoutesBadInput has their bad-input cases.
var olderLevelRoutes = map[string]bool{
	"POST /api/v1/message_edit_typing":                  true,
	"DELETE /api/v1/user_groups/{user_group_id:[0-9]+}": true,
}

func TestRouteTableCoversRouter(t *testing.T) {
	walked := walkRoutes(t)
	inTable := map[string]bool{}
	for _, rs := range routeTable() {
		key := rs.method + " " + rs.pattern
		if inTable[key] {
			t.Errorf("route table lists %s twice", key)
		}
		inTable[key] = true
	}
	var routes []string
	for pattern, methods := range walked {
		for _, m := range methods {
			routes = append(routes, m+" "+pattern)
		}
	}
	sort.Strings(routes)
	for _, key := range routes {
		if olderLevelRoutes[key] {
			continue
		}
		if !inTable[key] {
			t.Errorf("the router serves %s but the bad-input route table has no entry for it: add one to routeTable", key)
		}
		delete(inTable, key)
	}
	for key := range inTable {
		t.Errorf("the route table lists %s, which the router does not serve", key)
	}
	t.Logf("%d routes walked", len(routes))
}
