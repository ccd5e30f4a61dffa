package api_test

// PATCH /streams/{stream_id}: renaming, describing and changing a channel's access, with the
// real server's events and notices.

import (
	"fmt"
	"net/http"
	"net/url"
	"testing"
)

func TestUpdateChannel(t *testing.T) {
	ts := newServer(t)
	id := newTestChannel(t, ts.URL, memberAuth, "plans", false, "[4,3]")
	path := fmt.Sprintf("/api/v1/streams/%d", id)
	edit := func(auth string, kv ...string) response {
		return do(t, ts.URL, request{method: http.MethodPatch, path: path, body: formBody(kv...), contentType: formType, auth: auth})
	}
	subscriberQueue := evRegister(t, ts.URL, modAuth, "event_types", `["stream","message"]`)
	outsiderQueue := evRegister(t, ts.URL, guestAuth, "event_types", `["stream"]`)
	adminQueue := evRegister(t, ts.URL, adminAuth, "event_types", `["stream"]`)

	wantRefusal(t, "a moderator who did not create it", edit(modAuth, "new_name", "x"), "You do not have permission to administer this channel.")
	wantRefusal(t, "a name in use", edit(memberAuth, "new_name", "GENERAL"), "Channel name already in use.")
	requireSuccess(t, "the creator renames", edit(memberAuth, "new_name", " Projects "))
	requireSuccess(t, "and describes", edit(memberAuth, "description", "**All** plans\nhere"))
	requireSuccess(t, "and makes it private", edit(memberAuth, "is_private", "true"))
	if env := requireSuccess(t, "lookup", get(t, ts.URL, memberAuth, "/api/v1/get_stream_id", url.Values{"stream": {"projects"}}.Encode())); env["stream_id"] != float64(id) {
		t.Errorf("lookup by the new name: %v", env)
	}
	ch := requireSuccess(t, "channel", get(t, ts.URL, memberAuth, path, ""))["stream"].(map[string]any)
	if ch["name"] != "Projects" || ch["description"] != "**All** plans here" || ch["rendered_description"] != "<p><strong>All</strong> plans here</p>" ||
		ch["invite_only"] != true || ch["history_public_to_subscribers"] != false {
		t.Errorf("channel after the changes: %v", ch)
	}

	var streamEvents, notices []string
	for _, ev := range evPoll(t, ts.URL, modAuth, subscriberQueue, -1, true) {
		if ev["type"] == "message" {
			notices = append(notices, ev["message"].(map[string]any)["content"].(string))
			continue
		}
		streamEvents = append(streamEvents, fmt.Sprintf("%v %v=%v", ev["name"], ev["property"], ev["value"]))
		if ev["property"] == "description" && ev["rendered_description"] != "<p><strong>All</strong> plans here</p>" {
			t.Errorf("description event without the rendered description: %v", ev)
		}
		if ev["property"] == "invite_only" && (ev["history_public_to_subscribers"] != false || ev["is_web_public"] != false) {
			t.Errorf("invite_only event without the other access settings: %v", ev)
		}
	}
	want := "[plans name=Projects Projects description=**All** plans here Projects invite_only=true Projects history_public_to_subscribers=false]"
	if fmt.Sprint(streamEvents) != want {
		t.Errorf("subscriber's stream events %v, want %s", streamEvents, want)
	}
	if len(notices) != 3 || notices[0] != "@_**Max Member|4** renamed channel **plans** to **Projects**." {
		t.Errorf("notices %q", notices)
	}
	if evs := evPoll(t, ts.URL, guestAuth, outsiderQueue, -1, true); len(evs) != 0 {
		t.Errorf("a guest outside the channel got %v", evs)
	}
	last := evPoll(t, ts.URL, adminAuth, adminQueue, -1, true)
	if n := len(last); n != 4 || last[n-1]["property"] != "history_public_to_subscribers" {
		t.Errorf("an administrator keeps seeing the private channel: %v", last)
	}
	ownerQueue := evRegister(t, ts.URL, ownerAuth, "event_types", `["stream"]`)
	requireSuccess(t, "public again", edit(memberAuth, "is_private", "false"))
	if evs := evPoll(t, ts.URL, ownerAuth, ownerQueue, -1, true); len(evs) == 0 || evs[0]["property"] != "invite_only" {
		t.Errorf("owner (an administrator) on making it public: %v", evs)
	}
}

func TestMakingAChannelPrivateHidesItFromOutsiders(t *testing.T) {
	ts := newServer(t)
	id := newTestChannel(t, ts.URL, ownerAuth, "soon private", false, "[1]")
	moderatorQueue := evRegister(t, ts.URL, modAuth, "event_types", `["stream"]`)
	requireSuccess(t, "make private", do(t, ts.URL, request{method: http.MethodPatch, path: fmt.Sprintf("/api/v1/streams/%d", id),
		body: formBody("is_private", "true", "history_public_to_subscribers", "true"), contentType: formType, auth: ownerAuth}))
	evs := evPoll(t, ts.URL, modAuth, moderatorQueue, -1, true)
	if len(evs) != 1 || evs[0]["op"] != "delete" || canonical(evs[0]["stream_ids"]) != fmt.Sprintf("[%d]", id) {
		t.Errorf("a moderator outside the channel: %v, want it deleted from view", evs)
	}
	requireSuccess(t, "make public", do(t, ts.URL, request{method: http.MethodPatch, path: fmt.Sprintf("/api/v1/streams/%d", id),
		body: formBody("is_private", "false"), contentType: formType, auth: ownerAuth}))
	evs = evPoll(t, ts.URL, modAuth, moderatorQueue, int(evs[0]["id"].(float64)), true)
	if len(evs) != 1 || evs[0]["op"] != "create" {
		t.Errorf("a moderator when it is public again: %v, want it created in view", evs)
	}
}

func TestUnarchiveChannel(t *testing.T) {
	ts := newServer(t)
	id := newTestChannel(t, ts.URL, ownerAuth, "back again", false, "[1,4]")
	requireSuccess(t, "archive", archiveChannel(t, ts.URL, ownerAuth, id))
	queue := evRegister(t, ts.URL, memberAuth, "event_types", `["stream"]`)
	requireSuccess(t, "unarchive", do(t, ts.URL, request{method: http.MethodPatch, path: fmt.Sprintf("/api/v1/streams/%d", id),
		body: formBody("is_archived", "false"), contentType: formType, auth: ownerAuth}))
	evs := evPoll(t, ts.URL, memberAuth, queue, -1, true)
	if len(evs) != 2 || evs[0]["property"] != "is_archived" || evs[0]["value"] != false || evs[1]["op"] != "create" || evs[1]["for_unarchiving"] != true {
		t.Errorf("events %v, want the is_archived update and the creation for unarchiving", evs)
	}
	requireSuccess(t, "send again", post(t, ts.URL, memberAuth, "/api/v1/messages", "type", "stream", "to", "back again", "topic", "t", "content", "hello"))
}

// TestTheCreatorAdministersTheChannel: a channel's creator is in its can_administer_channel_group
// (the channel object says so), so may edit and archive it; other members may not.
func TestTheCreatorAdministersTheChannel(t *testing.T) {
	ts := newServer(t)
	id := newTestChannel(t, ts.URL, memberAuth, "mine", false, "[3,4]")
	ch := requireSuccess(t, "channel", get(t, ts.URL, memberAuth, fmt.Sprintf("/api/v1/streams/%d", id), ""))["stream"].(map[string]any)
	if canonical(ch["can_administer_channel_group"]) != `{"direct_members":[4],"direct_subgroups":[]}` {
		t.Fatalf("can_administer_channel_group %v", ch["can_administer_channel_group"])
	}
	wantRefusal(t, "another member archives", archiveChannel(t, ts.URL, modAuth, id), "You do not have permission to administer this channel.")
	requireSuccess(t, "the creator archives", archiveChannel(t, ts.URL, memberAuth, id))
}
