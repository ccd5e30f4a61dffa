package api_test

// Behaviour of the account routes that the generic bad-input proof cannot see: its state
// check reads users, messages and channels, not groups, custom profile field values or
// presence, and the routes' events.

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chatconform/chatconform/fixtures"
)

func patch(t testing.TB, base, auth, path string, kv ...string) response {
	t.Helper()
	return do(t, base, request{method: http.MethodPatch, path: path, body: formBody(kv...), contentType: formType, auth: auth})
}

// accountState reads what the account routes change beyond the users list.
func accountState(t testing.TB, base string) string {
	t.Helper()
	return canonical([]any{
		requireSuccess(t, "groups", get(t, base, ownerAuth, "/api/v1/user_groups", "include_deactivated_groups=true"))["user_groups"],
		requireSuccess(t, "users", get(t, base, ownerAuth, "/api/v1/users", "include_custom_profile_fields=true"))["members"],
		requireSuccess(t, "fields", get(t, base, ownerAuth, "/api/v1/realm/profile_fields", ""))["custom_fields"],
	})
}

// TestAccountErrorsChangeNothing: refused requests leave groups, profile values and fields
// as they were, however much of them was valid.
func TestAccountErrorsChangeNothing(t *testing.T) {
	ts := newServer(t)
	requireSuccess(t, "a profile value", patch(t, ts.URL, ownerAuth, "/api/v1/users/4", "profile_data", `[{"id":1,"value":"555"}]`))
	before := accountState(t, ts.URL)
	for _, tc := range []struct {
		name string
		res  func() response
	}{
		{"create with a good and an unknown member", func() response {
			return post(t, ts.URL, ownerAuth, "/api/v1/user_groups/create", "name", "half", "description", "", "members", "[4,999]")
		}},
		{"create with an unknown subgroup", func() response {
			return post(t, ts.URL, ownerAuth, "/api/v1/user_groups/create", "name", "half", "description", "", "members", "[4]", "subgroups", "[8,999]")
		}},
		{"add a member and delete a non-member", func() response {
			return post(t, ts.URL, ownerAuth, "/api/v1/user_groups/8/members", "add", "[5]", "delete", "[1]")
		}},
		{"add a member and a cyclic subgroup", func() response {
			return post(t, ts.URL, ownerAuth, "/api/v1/user_groups/8/members", "add", "[5]", "add_subgroups", "[9]")
		}},
		{"deactivate a group as a member who did not create it", func() response {
			return post(t, ts.URL, memberAuth, "/api/v1/user_groups/8/deactivate")
		}},
		{"remove a value and set a bad one", func() response {
			return patch(t, ts.URL, ownerAuth, "/api/v1/users/4", "profile_data", `[{"id":1,"value":null},{"id":3,"value":"bad"}]`)
		}},
		{"profile data with a good value and a bad role", func() response {
			return patch(t, ts.URL, ownerAuth, "/api/v1/users/4", "profile_data", `[{"id":2,"value":"bio"}]`, "role", "1")
		}},
		{"a field named like another", func() response {
			return post(t, ts.URL, adminAuth, "/api/v1/realm/profile_fields", "name", "BIOGRAPHY", "field_type", "2")
		}},
	} {
		res := tc.res()
		if p := envelopeProblem(res); p != "" {
			t.Errorf("%s: %s: %s", tc.name, p, res)
		}
		if after := accountState(t, ts.URL); after != before {
			t.Errorf("%s changed the state:\nbefore %s\nafter  %s", tc.name, cut(before, 600), cut(after, 600))
			before = after
		}
	}
}

// TestGroupMembershipThroughSubgroups: direct and nested membership, deactivated users and
// groups, and the member list.
func TestGroupMembershipThroughSubgroups(t *testing.T) {
	ts := newServer(t)
	member := func(group, user string, directOnly bool) any {
		res := get(t, ts.URL, modAuth, "/api/v1/user_groups/"+group+"/members/"+user, "direct_member_only="+map[bool]string{true: "true", false: "false"}[directOnly])
		return requireSuccess(t, "membership", res)["is_user_group_member"]
	}
	// Fixture: support (8) = {3, 4}; escalation (9) = {2} + support.
	for _, tc := range []struct {
		group, user string
		direct      bool
		want        bool
	}{
		{"8", "4", true, true}, {"9", "4", false, true}, {"9", "4", true, false}, {"9", "2", true, true},
		{"8", "2", false, false}, {"7", "5", false, true}, {"6", "5", false, false}, {"6", "1", false, true},
	} {
		if got := member(tc.group, tc.user, tc.direct); got != tc.want {
			t.Errorf("user %s in group %s (direct only %v): %v, want %v", tc.user, tc.group, tc.direct, got, tc.want)
		}
	}
	members := requireSuccess(t, "members", get(t, ts.URL, memberAuth, "/api/v1/user_groups/9/members", ""))["members"]
	if canonical(members) != "[2,3,4]" {
		t.Errorf("members of escalation %v, want [2,3,4]", members)
	}
	requireSuccess(t, "deactivate user 4", do(t, ts.URL, request{method: http.MethodDelete, path: "/api/v1/users/4", auth: ownerAuth}))
	if member("8", "4", true) != false || member("9", "4", false) != false {
		t.Error("a deactivated user is reported as a member")
	}
	// A deactivated subgroup of an active group: the real server deactivates support only
	// once escalation is deactivated, which is then reactivated.
	requireSuccess(t, "deactivate escalation", post(t, ts.URL, ownerAuth, "/api/v1/user_groups/9/deactivate"))
	requireSuccess(t, "deactivate support", post(t, ts.URL, ownerAuth, "/api/v1/user_groups/8/deactivate"))
	requireSuccess(t, "reactivate escalation", patch(t, ts.URL, ownerAuth, "/api/v1/user_groups/9", "deactivated", "false"))
	if member("9", "3", false) != false {
		t.Error("membership through a deactivated subgroup counts")
	}
	checkBad(t, badCase{want: badRequest("User group is deactivated.")}, get(t, ts.URL, modAuth, "/api/v1/user_groups/8/members/3", ""))
}

// TestUserByEmailLookups: the dummy address works for everyone, a real address only for
// those who may see it, and an escaped @ is an @.
func TestUserByEmailLookups(t *testing.T) {
	ts := newServer(t)
	requireSuccess(t, "hide the member's email", patch(t, ts.URL, memberAuth, "/api/v1/settings", "email_address_visibility", "3"))
	for _, tc := range []struct {
		auth, path string
		ok         bool
	}{
		{adminAuth, "/api/v1/users/member@chat.example.test", true},
		{modAuth, "/api/v1/users/member@chat.example.test", false},
		{modAuth, "/api/v1/users/user4@chat.example.test", true},
		{modAuth, "/api/v1/users/USER4@CHAT.EXAMPLE.TEST", true},
		{adminAuth, "/api/v1/users/member%40chat.example.test", true},
	} {
		res := get(t, ts.URL, tc.auth, tc.path, "")
		if ok := successProblem(res) == ""; ok != tc.ok {
			t.Errorf("GET %s: success %v, want %v: %s", tc.path, ok, tc.ok, res)
		}
	}
	requireSuccess(t, "rename by dummy address", patch(t, ts.URL, ownerAuth, "/api/v1/users/user4@chat.example.test", "full_name", "Dummy Named"))
	user := requireSuccess(t, "read", get(t, ts.URL, ownerAuth, "/api/v1/users/4", ""))["user"].(map[string]any)
	if user["full_name"] != "Dummy Named" {
		t.Errorf("full_name %v", user["full_name"])
	}
}

// TestNewEmailChangesTheLogin: the old address stops working, the new one logs in.
func TestNewEmailChangesTheLogin(t *testing.T) {
	ts := newServer(t)
	requireSuccess(t, "new email", patch(t, ts.URL, ownerAuth, "/api/v1/users/member@chat.example.test", "new_email", "moved@chat.example.test"))
	key := "MemberKey00000000000000000000004"
	requireSuccess(t, "new login", get(t, ts.URL, basicHeader("moved@chat.example.test", key), "/api/v1/users/me", ""))
	checkBad(t, badCase{want: bad(401, "UNAUTHORIZED", "Invalid API key")}, get(t, ts.URL, basicHeader("member@chat.example.test", key), "/api/v1/users/me", ""))
	checkBad(t, badCase{want: badRequest("User not authorized to change user emails")},
		func() response {
			requireSuccess(t, "second owner", patch(t, ts.URL, ownerAuth, "/api/v1/users/2", "role", "100"))
			return patch(t, ts.URL, adminAuth, "/api/v1/users/3", "new_email", "elsewhere@chat.example.test")
		}())
}

// TestPresenceUpdateFrequency: a report within 55 seconds of the stored one is no update,
// a later one is; a user with presence disabled is shown to nobody.
func TestPresenceUpdateFrequency(t *testing.T) {
	ts := newServer(t)
	last := func(auth string, kv ...string) (float64, map[string]any) {
		env := requireSuccess(t, "presence", post(t, ts.URL, auth, "/api/v1/users/me/presence", append([]string{"status", "active"}, kv...)...))
		presences, _ := env["presences"].(map[string]any)
		return env["presence_last_update_id"].(float64), presences
	}
	first, _ := last(memberAuth, "last_update_id", "-1")
	if again, presences := last(memberAuth, "last_update_id", "-1"); again != first || len(presences) != 1 {
		t.Errorf("a repeated report moved presence_last_update_id from %v to %v (%v)", first, again, presences)
	}
	ts.Server.AdvanceClock(56 * time.Second)
	if later, presences := last(memberAuth, "last_update_id", canonical(first)); later <= first || presences["4"] == nil {
		t.Errorf("a report 56 s later: presence_last_update_id %v after %v, presences %v", later, first, presences)
	}
	requireSuccess(t, "hide presence", patch(t, ts.URL, memberAuth, "/api/v1/settings", "presence_enabled", "false"))
	if _, presences := last(adminAuth, "last_update_id", "-1"); presences["4"] != nil {
		t.Errorf("a user with presence disabled is shown: %v", presences)
	}
	for _, v := range []string{"1", "yes", `"false"`, ""} {
		checkBad(t, badCase{want: want{status: 400, code: "BAD_REQUEST"}}, patch(t, ts.URL, memberAuth, "/api/v1/settings", "presence_enabled", v))
	}
}

// TestAccountEvents: deactivation, groups, profile values and new fields are announced.
func TestAccountEvents(t *testing.T) {
	ts := newServer(t)
	queue := evRegister(t, ts.URL, adminAuth, "event_types", `["realm_user","user_group","custom_profile_fields"]`)
	requireSuccess(t, "deactivate", do(t, ts.URL, request{method: http.MethodDelete, path: "/api/v1/users/5", auth: ownerAuth}))
	requireSuccess(t, "group", post(t, ts.URL, ownerAuth, "/api/v1/user_groups/create", "name", "evented", "description", "d", "members", "[4]"))
	requireSuccess(t, "members", post(t, ts.URL, ownerAuth, "/api/v1/user_groups/10/members", "add", "[3]"))
	requireSuccess(t, "profile", patch(t, ts.URL, ownerAuth, "/api/v1/users/4", "profile_data", `[{"id":3,"value":"https://x.example"}]`))
	requireSuccess(t, "field", post(t, ts.URL, adminAuth, "/api/v1/realm/profile_fields", "name", "Team", "field_type", "1"))
	var got []string
	for _, ev := range evPoll(t, ts.URL, adminAuth, queue, -1, true) {
		op, _ := ev["op"].(string)
		got = append(got, ev["type"].(string)+" "+op)
	}
	want := []string{"realm_user update", "user_group add", "user_group add_members", "realm_user update", "custom_profile_fields "}
	if !slices.Equal(got, want) {
		t.Errorf("events %v, want %v", got, want)
	}
}

// TestAccountRegisterState: custom profile fields and user groups are part of the state.
func TestAccountRegisterState(t *testing.T) {
	ts := newServer(t)
	env := requireSuccess(t, "register", post(t, ts.URL, memberAuth, "/api/v1/register",
		"fetch_event_types", `["custom_profile_fields","realm_user_groups"]`))
	fields, _ := env["custom_profile_fields"].([]any)
	groups, _ := env["realm_user_groups"].([]any)
	if len(fields) != 5 || len(groups) != 9 {
		t.Errorf("%d fields, %d groups, want 5 and 9", len(fields), len(groups))
	}
	if _, ok := requireSuccess(t, "register", post(t, ts.URL, memberAuth, "/api/v1/register", "fetch_event_types", `["realm"]`))["realm_user_groups"]; ok {
		t.Error("realm_user_groups sent without being asked for")
	}
}

// DELETE /bots/{bot_id}: the bot's owner (here a member) deactivates it; it can no longer
// authenticate, and a second deactivation is refused.
func TestDeactivateBotByItsOwner(t *testing.T) {
	ts := newServer(t)
	env := requireSuccess(t, "create bot", post(t, ts.URL, memberAuth, "/api/v1/bots", "full_name", "Own Bot", "short_name", "own"))
	id, key := int(env["user_id"].(float64)), env["api_key"].(string)
	botAuth := basicHeader("own-bot@chat.example.test", key)
	requireSuccess(t, "the bot before", get(t, ts.URL, botAuth, "/api/v1/users/me", ""))

	path := fmt.Sprintf("/api/v1/bots/%d", id)
	requireSuccess(t, "deactivate", do(t, ts.URL, request{method: http.MethodDelete, path: path, auth: memberAuth}))
	if res := get(t, ts.URL, botAuth, "/api/v1/users/me", ""); res.status != http.StatusUnauthorized {
		t.Errorf("the deactivated bot authenticates: HTTP %d %s", res.status, res)
	}
	res := do(t, ts.URL, request{method: http.MethodDelete, path: path, auth: memberAuth})
	if res.status != http.StatusBadRequest || res.env["msg"] != "User is deactivated" {
		t.Errorf("second deactivation: HTTP %d %s, want 400 User is deactivated", res.status, res)
	}
}

// TestOwnUserMaxMessageID: GET /users/me carries the newest message the requester received,
// as the real server's reply still does, and a message to others does not move it.
func TestOwnUserMaxMessageID(t *testing.T) {
	ts := newServer(t)
	maxID := func(auth string) float64 {
		t.Helper()
		id, ok := requireSuccess(t, "own user", get(t, ts.URL, auth, "/api/v1/users/me", ""))["max_message_id"].(float64)
		if !ok {
			t.Fatal("max_message_id missing or not a number")
		}
		return id
	}
	before := maxID(memberAuth)
	sent := requireSuccess(t, "direct message", post(t, ts.URL, ownerAuth, "/api/v1/messages",
		"type", "direct", "to", `["member@chat.example.test"]`, "content", "hello"))["id"].(float64)
	if got := maxID(memberAuth); got != sent || got <= before {
		t.Fatalf("member's max_message_id = %v, want the message just received (%v; before %v)", got, sent, before)
	}
	requireSuccess(t, "a message the member does not receive", post(t, ts.URL, ownerAuth, "/api/v1/messages",
		"type", "direct", "to", `["owner@chat.example.test"]`, "content", "note to self"))
	if got := maxID(memberAuth); got != sent {
		t.Fatalf("member's max_message_id moved to %v on a message to someone else", got)
	}
}

// A group a realm setting names, directly or as a subgroup of the setting's anonymous group,
// is in use: deactivating it is refused with the setting's name, and allowed once the setting
// names another group.
func TestDeactivatingGroupNamedBySetting(t *testing.T) {
	ts := newServer(t)
	for _, value := range []string{escalationGroup, `{"direct_members":[4],"direct_subgroups":[` + escalationGroup + `]}`} {
		requireSuccess(t, "setting", patch(t, ts.URL, ownerAuth, "/api/v1/realm", "can_move_messages_between_topics_group", value))
		res := post(t, ts.URL, ownerAuth, "/api/v1/user_groups/"+escalationGroup+"/deactivate")
		checkBad(t, badCase{want: bad(400, "CANNOT_DEACTIVATE_GROUP_IN_USE", "Cannot deactivate user group in use.")}, res)
		if got := canonical(res.env["objections"]); got != `[{"settings":["can_move_messages_between_topics_group"],"type":"realm"}]` {
			t.Errorf("setting %s: objections %s", value, got)
		}
	}
	requireSuccess(t, "setting back", patch(t, ts.URL, ownerAuth, "/api/v1/realm", "can_move_messages_between_topics_group", systemGroupOf(t, ts.URL, "role:members")))
	requireSuccess(t, "deactivate", post(t, ts.URL, ownerAuth, "/api/v1/user_groups/"+escalationGroup+"/deactivate"))
}

// GET /users/me carries the requester's custom profile field values, {} when there are none,
// as on the real server; a value set through PATCH /users/{id} shows there, keyed by field ID.
func TestOwnUserProfileData(t *testing.T) {
	ts := newServer(t)
	own := func() string {
		t.Helper()
		got := requireSuccess(t, "own user", get(t, ts.URL, memberAuth, "/api/v1/users/me", ""))
		data, ok := got["profile_data"]
		if !ok {
			t.Fatalf("GET /users/me has no profile_data: %v", got)
		}
		return canonical(data)
	}
	if got := own(); got != "{}" {
		t.Fatalf("profile_data %s before any value is set, want {}", got)
	}
	member, _ := defaultFixture.UserByRole(fixtures.RoleMember)
	requireSuccess(t, "set a value", patch(t, ts.URL, ownerAuth, fmt.Sprintf("/api/v1/users/%d", member.ID),
		"profile_data", `[{"id":1,"value":"Blue"}]`))
	if got := own(); !strings.Contains(got, `"1":{`) || !strings.Contains(got, `"value":"Blue"`) {
		t.Errorf("profile_data %s after setting field 1", got)
	}
}

// DELETE /users/me: the account is deactivated (its key no longer works, everyone is told);
// the only owner is refused with is_last_owner.
func TestDeactivateOwnUser(t *testing.T) {
	ts := newServer(t)
	queue := evRegister(t, ts.URL, ownerAuth, "event_types", `["realm_user"]`)
	last := do(t, ts.URL, request{method: http.MethodDelete, path: "/api/v1/users/me", auth: ownerAuth})
	if last.status != http.StatusBadRequest || last.env["code"] != "CANNOT_DEACTIVATE_LAST_USER" || last.env["is_last_owner"] != true {
		t.Errorf("the only owner deactivating themselves: %s", last)
	}
	requireSuccess(t, "deactivate", do(t, ts.URL, request{method: http.MethodDelete, path: "/api/v1/users/me", auth: memberAuth}))
	if res := get(t, ts.URL, memberAuth, "/api/v1/users/me", ""); res.status != http.StatusUnauthorized {
		t.Errorf("the deactivated member's key still works: %s", res)
	}
	evs := eventsOfType(evPoll(t, ts.URL, ownerAuth, queue, -1, true), "realm_user")
	if len(evs) != 1 || canonical(evs[0]["person"]) != `{"is_active":false,"user_id":4}` {
		t.Errorf("realm_user events %v", evs)
	}
}

// TestUserFetchClientGravatar: GET /users, /users/{id} and /users/{email} take client_gravatar
// (true by default) as the real server does, giving a null avatar URL that the client computes
// from the email it sees, and the URL itself when asked with false; GET /users/me takes no
// such parameter and reports it ignored.
func TestUserFetchClientGravatar(t *testing.T) {
	ts := newServer(t)
	avatarOf := func(env map[string]any) any {
		if u, ok := env["user"].(map[string]any); ok {
			return u["avatar_url"]
		}
		for _, m := range env["members"].([]any) {
			if u := m.(map[string]any); u["email"] == "member@chat.example.test" {
				return u["avatar_url"]
			}
		}
		t.Fatalf("no member in %v", env)
		return nil
	}
	for _, path := range []string{"/api/v1/users", "/api/v1/users/4", "/api/v1/users/member@chat.example.test"} {
		for _, c := range []struct {
			query    string
			wantNull bool
		}{{"", true}, {"client_gravatar=true", true}, {"client_gravatar=false", false}} {
			env := requireSuccess(t, path+"?"+c.query, get(t, ts.URL, ownerAuth, path, c.query))
			if url := avatarOf(env); (url == nil) != c.wantNull {
				t.Errorf("GET %s?%s: avatar_url %v, want null: %v", path, c.query, url, c.wantNull)
			}
			if ignored, ok := env["ignored_parameters_unsupported"]; ok {
				t.Errorf("GET %s?%s: ignored_parameters_unsupported %v", path, c.query, ignored)
			}
		}
	}
	own := requireSuccess(t, "own user", get(t, ts.URL, memberAuth, "/api/v1/users/me", "client_gravatar=true"))
	if own["avatar_url"] == nil || fmt.Sprint(own["ignored_parameters_unsupported"]) != "[client_gravatar]" {
		t.Errorf("GET /users/me?client_gravatar=true: avatar_url %v, ignored %v", own["avatar_url"], own["ignored_parameters_unsupported"])
	}
}
