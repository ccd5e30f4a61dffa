package api_test

// DELETE /users/me/subscriptions: the real server's unsubscribing, its permission, its
// events and its effect on unread messages.

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
)

// unsubscribe sends DELETE /users/me/subscriptions as auth.
func unsubscribe(t *testing.T, base, auth string, kv ...string) response {
	t.Helper()
	return do(t, base, request{method: http.MethodDelete, path: "/api/v1/users/me/subscriptions", body: formBody(kv...), contentType: formType, auth: auth})
}

// subscribedNames lists the names of the channels auth is subscribed to.
func subscribedNames(t *testing.T, base, auth string) []string {
	t.Helper()
	var names []string
	for _, s := range requireSuccess(t, "subscriptions", get(t, base, auth, "/api/v1/users/me/subscriptions", ""))["subscriptions"].([]any) {
		names = append(names, s.(map[string]any)["name"].(string))
	}
	return names
}

func TestUnsubscribeSelf(t *testing.T) {
	ts := newServer(t)
	id := newTestChannel(t, ts.URL, ownerAuth, "leaving", false, "[1,4]")
	requireSuccess(t, "send", post(t, ts.URL, ownerAuth, "/api/v1/messages", "type", "stream", "to", "leaving", "topic", "t", "content", "unread for the member"))
	memberQueue := evRegister(t, ts.URL, memberAuth, "event_types", `["subscription","update_message_flags"]`)
	ownerQueue := evRegister(t, ts.URL, ownerAuth, "event_types", `["subscription"]`)

	env := requireSuccess(t, "unsubscribe", unsubscribe(t, ts.URL, memberAuth, "subscriptions", `[" leaving ","general"]`))
	if canonical(env["removed"]) != `["leaving","general"]` || canonical(env["not_removed"]) != `[]` {
		t.Errorf("reply %v, want both removed", env)
	}
	if names := subscribedNames(t, ts.URL, memberAuth); len(names) != 0 {
		t.Errorf("member still subscribed to %v", names)
	}
	env = requireSuccess(t, "unsubscribe again", unsubscribe(t, ts.URL, memberAuth, "subscriptions", `["LEAVING"]`))
	if canonical(env["removed"]) != `[]` || canonical(env["not_removed"]) != `["leaving"]` {
		t.Errorf("second reply %v, want leaving not removed", env)
	}

	evs := evPoll(t, ts.URL, memberAuth, memberQueue, -1, true)
	if len(evs) != 2 || evs[0]["type"] != "subscription" || evs[0]["op"] != "remove" ||
		canonical(evs[0]["subscriptions"]) != fmt.Sprintf(`[{"name":"leaving","stream_id":%d},{"name":"general","stream_id":1}]`, id) {
		t.Fatalf("member's events %v, want one subscription remove naming both channels, then the read flags", evs)
	}
	if ev := evs[1]; ev["type"] != "update_message_flags" || ev["op"] != "add" || ev["flag"] != "read" || len(ev["messages"].([]any)) != 1 {
		t.Errorf("member's second event %v, want the channel's unread message marked read", ev)
	}
	evs = evPoll(t, ts.URL, ownerAuth, ownerQueue, -1, true)
	if len(evs) != 2 || evs[0]["op"] != "peer_remove" || canonical(evs[0]["stream_ids"]) != fmt.Sprintf("[%d]", id) ||
		canonical(evs[0]["user_ids"]) != "[4]" || canonical(evs[1]["stream_ids"]) != "[1]" {
		t.Errorf("owner's events %v, want a peer_remove of the member per channel", evs)
	}
}

func TestUnsubscribeOthers(t *testing.T) {
	ts := newServer(t)
	newTestChannel(t, ts.URL, ownerAuth, "owners", false, "[1,3,4]")
	newTestChannel(t, ts.URL, memberAuth, "members", false, "[3,4]")
	for _, tc := range []struct {
		name, auth, channel, principals, msg string
	}{
		{"a member removing another member", modAuth, "owners", "[4]", "Insufficient permission"},
		{"an unknown principal", ownerAuth, "owners", "[4,999]", "No such user"},
		{"an unknown channel beside a known one", ownerAuth, `owners","nowhere`, "[4]", "Channel(s) (nowhere) do not exist"},
		{"an empty name", ownerAuth, ``, "[4]", "Channel name can't be empty."},
	} {
		res := unsubscribe(t, ts.URL, tc.auth, "subscriptions", `["`+tc.channel+`"]`, "principals", tc.principals)
		wantRefusal(t, tc.name, res, tc.msg)
	}
	if names := subscribedNames(t, ts.URL, memberAuth); canonical(names) != `["general","owners","members"]` {
		t.Fatalf("refusals changed the member's subscriptions: %v", names)
	}

	// The channel's creator administers it; an administrator may remove anyone, by email too.
	env := requireSuccess(t, "the creator removing a subscriber", unsubscribe(t, ts.URL, memberAuth, "subscriptions", `["members"]`, "principals", "[3]"))
	if canonical(env["removed"]) != `["members"]` {
		t.Errorf("creator's reply %v", env)
	}
	env = requireSuccess(t, "an administrator removing two", unsubscribe(t, ts.URL, adminAuth, "subscriptions", `["owners"]`,
		"principals", `["member@chat.example.test","admin@chat.example.test"]`))
	if canonical(env["removed"]) != `["owners"]` || canonical(env["not_removed"]) != `["owners"]` {
		t.Errorf("administrator's reply %v, want the member removed and the administrator not removed", env)
	}
	// A user's own bot counts as the user.
	requireSuccess(t, "the owner removing their bot", unsubscribe(t, ts.URL, ownerAuth, "subscriptions", `["general"]`, "principals", "[6]"))
	requireSuccess(t, "the member removing themselves by ID", unsubscribe(t, ts.URL, memberAuth, "subscriptions", `["general"]`, "principals", "[4]"))
	if names := subscribedNames(t, ts.URL, memberAuth); canonical(names) != `["members"]` {
		t.Errorf("member subscribed to %v, want only members", names)
	}
}

func TestUnsubscribeFromAPrivateChannelHidesIt(t *testing.T) {
	ts := newServer(t)
	id := newTestChannel(t, ts.URL, ownerAuth, "secret", true, "[1,4]")
	queue := evRegister(t, ts.URL, memberAuth, "event_types", `["subscription","stream"]`)
	requireSuccess(t, "unsubscribe", unsubscribe(t, ts.URL, memberAuth, "subscriptions", `["secret"]`))
	evs := evPoll(t, ts.URL, memberAuth, queue, -1, true)
	if len(evs) != 2 || evs[1]["type"] != "stream" || evs[1]["op"] != "delete" || canonical(evs[1]["stream_ids"]) != fmt.Sprintf("[%d]", id) {
		t.Errorf("events %v, want the subscription remove and the channel's deletion from the member's view", evs)
	}
	wantRefusal(t, "reading the channel's topics", get(t, ts.URL, memberAuth, fmt.Sprintf("/api/v1/users/me/%d/topics", id), ""), "Invalid channel ID")
}

func TestSubscriptionPropertiesAllOrNothing(t *testing.T) {
	ts := newServer(t)
	other := newTestChannel(t, ts.URL, ownerAuth, "other", false, "[1]")
	queue := evRegister(t, ts.URL, memberAuth, "event_types", `["subscription"]`)
	path := "/api/v1/users/me/subscriptions/properties"
	wantRefusal(t, "a change to a channel the member is not in", post(t, ts.URL, memberAuth, path, "subscription_data",
		fmt.Sprintf(`[{"stream_id":1,"property":"pin_to_top","value":true},{"stream_id":%d,"property":"pin_to_top","value":true}]`, other)),
		fmt.Sprintf("Not subscribed to channel ID %d", other))
	sub := requireSuccess(t, "subscriptions", get(t, ts.URL, memberAuth, "/api/v1/users/me/subscriptions", ""))["subscriptions"].([]any)[0].(map[string]any)
	if sub["pin_to_top"] != false {
		t.Fatalf("a refused request pinned the channel: %v", sub)
	}
	requireSuccess(t, "two changes", post(t, ts.URL, memberAuth, path, "subscription_data",
		`[{"stream_id":1,"property":"pin_to_top","value":true},{"stream_id":1,"property":"in_home_view","value":false}]`))
	sub = requireSuccess(t, "subscriptions", get(t, ts.URL, memberAuth, "/api/v1/users/me/subscriptions", ""))["subscriptions"].([]any)[0].(map[string]any)
	if sub["pin_to_top"] != true || sub["is_muted"] != true {
		t.Errorf("after the changes: %v", sub)
	}
	var got []string
	for _, ev := range evPoll(t, ts.URL, memberAuth, queue, -1, true) {
		got = append(got, fmt.Sprintf("%v=%v", ev["property"], ev["value"]))
	}
	if fmt.Sprint(got) != "[pin_to_top=true in_home_view=false is_muted=true]" {
		t.Errorf("events %v, want one update per property in order, in_home_view before is_muted", got)
	}
}

// TestLeftSubscriptionsInTheRegisterState: a channel the user left is in unsubscribed, not
// never_subscribed, and subscribing again restores the user's settings for it.
func TestLeftSubscriptionsInTheRegisterState(t *testing.T) {
	ts := newServer(t)
	id := newTestChannel(t, ts.URL, memberAuth, "visited", false, "[4]")
	requireSuccess(t, "color", post(t, ts.URL, memberAuth, "/api/v1/users/me/subscriptions/properties", "subscription_data",
		fmt.Sprintf(`[{"stream_id":%d,"property":"color","value":"#123456"}]`, id)))
	requireSuccess(t, "leave", unsubscribe(t, ts.URL, memberAuth, "subscriptions", `["visited"]`))
	state := requireSuccess(t, "register", post(t, ts.URL, memberAuth, "/api/v1/register", "fetch_event_types", `["subscription"]`))
	names := func(key string) []string {
		var out []string
		for _, s := range state[key].([]any) {
			out = append(out, s.(map[string]any)["name"].(string))
		}
		return out
	}
	if fmt.Sprint(names("unsubscribed")) != "[visited]" || fmt.Sprint(names("never_subscribed")) != "[]" || fmt.Sprint(names("subscriptions")) != "[general]" {
		t.Errorf("subscriptions %v, unsubscribed %v, never_subscribed %v", names("subscriptions"), names("unsubscribed"), names("never_subscribed"))
	}
	requireSuccess(t, "come back", post(t, ts.URL, memberAuth, "/api/v1/users/me/subscriptions", "subscriptions", `[{"name":"visited"}]`))
	for _, s := range requireSuccess(t, "subscriptions", get(t, ts.URL, memberAuth, "/api/v1/users/me/subscriptions", ""))["subscriptions"].([]any) {
		if sub := s.(map[string]any); sub["name"] == "visited" && sub["color"] != "#123456" {
			t.Errorf("subscribing again lost the color: %v", sub["color"])
		}
	}
}

// TestAGuestLeavingAPublicChannelNoLongerSeesIt: guests see only the channels they are in.
func TestAGuestLeavingAPublicChannelNoLongerSeesIt(t *testing.T) {
	ts := newServer(t)
	queue := evRegister(t, ts.URL, guestAuth, "event_types", `["subscription","stream"]`)
	requireSuccess(t, "leave general", unsubscribe(t, ts.URL, guestAuth, "subscriptions", `["general"]`))
	evs := evPoll(t, ts.URL, guestAuth, queue, -1, true)
	if len(evs) != 2 || evs[1]["type"] != "stream" || evs[1]["op"] != "delete" || canonical(evs[1]["stream_ids"]) != "[1]" {
		t.Errorf("guest's events %v, want the subscription remove and general deleted from view", evs)
	}
	wantRefusal(t, "the guest looks general up", get(t, ts.URL, guestAuth, "/api/v1/streams/1", ""), "Invalid channel ID")
}

// GET /streams/{id}/members and GET /users/{id}/subscriptions/{stream_id} follow subscribing
// and unsubscribing; a bot's status is asked about from level 458 (No such user before).
func TestChannelMembership(t *testing.T) {
	base := newServer(t).URL
	members := func() string {
		return canonical(requireSuccess(t, "members", get(t, base, memberAuth, "/api/v1/streams/1/members", ""))["subscribers"])
	}
	status := func(user string) any {
		return requireSuccess(t, "status", get(t, base, memberAuth, "/api/v1/users/"+user+"/subscriptions/1", ""))["is_subscribed"]
	}
	before := members()
	if status("4") != true {
		t.Fatalf("the member is not subscribed to general: %s", before)
	}
	requireSuccess(t, "unsubscribe", do(t, base, request{method: http.MethodDelete, path: "/api/v1/users/me/subscriptions", auth: memberAuth,
		body: formBody("subscriptions", `["general"]`), contentType: formType}))
	if after := members(); strings.Contains(after, "4") || after == before {
		t.Errorf("subscribers after the member left: %s (before %s)", after, before)
	}
	if status("4") != false {
		t.Errorf("is_subscribed still true after unsubscribing")
	}
	botsAnsweredFrom(t, "/api/v1/users/6/subscriptions/1")
}

// GET /streams/{id}/email_address answers an empty address (the fake has no email gateway)
// for a channel the requester may access, and Invalid channel ID for one they may not.
func TestChannelEmailAddress(t *testing.T) {
	base := newServer(t).URL
	if got := requireSuccess(t, "address", get(t, base, memberAuth, "/api/v1/streams/1/email_address", "")); got["email"] != "" {
		t.Errorf("email %v, want the empty address of a server without an email gateway", got["email"])
	}
	requireSuccess(t, "private channel", post(t, base, ownerAuth, "/api/v1/users/me/subscriptions",
		"subscriptions", `[{"name":"hidden"}]`, "invite_only", "true"))
	id := requireSuccess(t, "id", get(t, base, ownerAuth, "/api/v1/get_stream_id", "stream=hidden"))["stream_id"]
	checkBad(t, badCase{want: badRequest("Invalid channel ID")}, get(t, base, memberAuth, fmt.Sprintf("/api/v1/streams/%v/email_address", id), ""))
}
