package api_test

// Invitations' channels, default channels and groups, seen when the invitee joins through the
// control API's stand-in for the sign-up form; and the parameters' feature levels.

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/chatconform/chatconform/fakeserver/internal/realm"
)

func TestInvitationJoin(t *testing.T) {
	base := newCheckedServer(t)
	channel := func(name string) string {
		requireSuccess(t, "channel", post(t, base, ownerAuth, "/api/v1/users/me/subscriptions", "subscriptions", `[{"name":"`+name+`"}]`))
		return canonical(requireSuccess(t, "id", get(t, base, ownerAuth, "/api/v1/get_stream_id", "stream="+name))["stream_id"])
	}
	invited, byDefault := channel("invited-channel"), channel("default-channel")
	requireSuccess(t, "default", post(t, base, ownerAuth, "/api/v1/default_streams", "stream_id", byDefault))
	group := canonical(requireSuccess(t, "group", post(t, base, adminAuth, "/api/v1/user_groups/create",
		"name", "newcomers", "description", "d", "members", "[2]"))["group_id"])

	requireSuccess(t, "invite with all", post(t, base, adminAuth, "/api/v1/invites", "invitee_emails", "all@chat.example.test",
		"stream_ids", "["+invited+"]", "group_ids", "["+group+"]", "include_realm_default_subscriptions", "true",
		"welcome_message_custom_text", "Welcome!", "invite_as", "300"))
	requireSuccess(t, "invite with channels only", post(t, base, adminAuth, "/api/v1/invites", "invitee_emails", "plain@chat.example.test",
		"stream_ids", "["+invited+"]"))
	link := requireSuccess(t, "link", post(t, base, adminAuth, "/api/v1/invites/multiuse", "group_ids", "["+group+"]",
		"include_realm_default_subscriptions", "true"))["invite_link"].(string)

	type joined struct {
		role               float64
		invited, byDefault bool
		inGroup            bool
	}
	join := func(kv ...string) joined {
		id := canonical(requireSuccess(t, "join", post(t, base, "", "/_fake/invites/accept", kv...))["user_id"])
		var j joined
		j.role = requireSuccess(t, "user", get(t, base, ownerAuth, "/api/v1/users/"+id, ""))["user"].(map[string]any)["role"].(float64)
		sub := func(ch string) bool {
			return requireSuccess(t, "subscribed", get(t, base, ownerAuth, "/api/v1/users/"+id+"/subscriptions/"+ch, ""))["is_subscribed"] == true
		}
		j.invited, j.byDefault = sub(invited), sub(byDefault)
		j.inGroup = requireSuccess(t, "member", get(t, base, ownerAuth, "/api/v1/user_groups/"+group+"/members/"+id, ""))["is_user_group_member"] == true
		return j
	}
	for _, c := range []struct {
		name string
		kv   []string
		want joined
	}{
		{"email invitation with all", []string{"email", "all@chat.example.test", "full_name", "All In"}, joined{300, true, true, true}},
		{"email invitation with channels", []string{"email", "plain@chat.example.test", "full_name", "Plain"}, joined{400, true, false, false}},
		{"invitation link", []string{"email", "linked@chat.example.test", "full_name", "Linked", "link_url", link}, joined{400, false, true, true}},
		{"invitation link again", []string{"email", "linked2@chat.example.test", "full_name", "Linked Two", "link_url", link}, joined{400, false, true, true}},
	} {
		if got := join(c.kv...); got != c.want {
			t.Errorf("%s: joined as %+v, want %+v", c.name, got, c.want)
		}
	}
	// The email invitations are used up; the link stays.
	if got := invites(t, base, adminAuth); len(got) != 1 || got[0]["is_multiuse"] != true {
		t.Errorf("invitations left: %v", got)
	}
	wantRefusal(t, "an unknown address", post(t, base, "", "/_fake/invites/accept", "email", "stranger@chat.example.test", "full_name", "Stranger"),
		"No unexpired invitation matches")
}

// Before its level each parameter is not read (the reply lists it as ignored, and a value
// that would be refused is not); from it, it is.
func TestInvitationParametersByLevel(t *testing.T) {
	for _, c := range []struct {
		param, bad string
		level      int
	}{
		{"include_realm_default_subscriptions", "maybe", realm.LevelInviteDefaultChannels},
		{"group_ids", "[999]", realm.LevelInviteGroups},
		{"welcome_message_custom_text", "Hi", realm.LevelInviteWelcomeText},
	} {
		for _, level := range []int{c.level - 1, c.level} {
			base := newServerAt(t, level).URL
			// welcome_message_custom_text is refused for members, so a member's request shows it.
			res := post(t, base, memberAuth, "/api/v1/invites", "invitee_emails", "x@chat.example.test", "stream_ids", "[]", c.param, c.bad)
			ignored := fmt.Sprint(res.env["ignored_parameters_unsupported"]) == "["+c.param+"]"
			if level < c.level && (res.env["result"] != "success" || !ignored) {
				t.Errorf("%s at level %d, before it: %s", c.param, level, res)
			}
			if level >= c.level && (res.env["result"] != "error" || ignored) {
				t.Errorf("%s at level %d: %s", c.param, level, res)
			}
		}
	}
}

// GET /invites: each kind of invitation with the real server's fields, no more, no fewer.
func TestInvitationFields(t *testing.T) {
	base := newCheckedServer(t)
	requireSuccess(t, "invite", post(t, base, adminAuth, "/api/v1/invites", "invitee_emails", "fields@chat.example.test", "stream_ids", "[]"))
	requireSuccess(t, "link", post(t, base, adminAuth, "/api/v1/invites/multiuse"))
	common := "expiry_date id invited invited_as invited_by_user_id is_multiuse"
	want := map[bool]string{false: "email " + common + " notify_referrer_on_join", true: common + " link_url"}
	got := map[bool]string{}
	for _, inv := range invites(t, base, adminAuth) {
		got[inv["is_multiuse"] == true] = strings.Join(slices.Sorted(maps.Keys(inv)), " ")
	}
	for _, multiuse := range []bool{false, true} {
		if got[multiuse] != want[multiuse] {
			t.Errorf("is_multiuse %v: fields %q, want %q", multiuse, got[multiuse], want[multiuse])
		}
	}
}

// POST /users revokes the new address's email invitations, whoever sent them and however
// the address is spelt; other addresses' invitations and links stay, and as on the real
// server no referrer is told (no invitation was used).
func TestCreateUserRevokesInvitations(t *testing.T) {
	base := newCheckedServer(t)
	for _, c := range []struct{ auth, email string }{
		{adminAuth, "joiner@chat.example.test"}, {memberAuth, "Joiner@Chat.Example.Test"}, {adminAuth, "bystander@chat.example.test"},
	} {
		requireSuccess(t, "invite "+c.email, post(t, base, c.auth, "/api/v1/invites", "invitee_emails", c.email, "stream_ids", "[]"))
	}
	requireSuccess(t, "link", post(t, base, adminAuth, "/api/v1/invites/multiuse"))
	evs := regEvents(t, base, adminAuth, func() {
		requireSuccess(t, "create", post(t, base, ownerAuth, "/api/v1/users", "email", "joiner@chat.example.test",
			"password", "joiner-password", "full_name", "Joiner"))
	}, "event_types", `["invites_changed"]`)
	var left []string
	for _, inv := range invites(t, base, adminAuth) {
		left = append(left, fmt.Sprintf("%v %v", inv["email"], inv["link_url"] != nil))
	}
	if want := []string{"bystander@chat.example.test false", "<nil> true"}; !slices.Equal(left, want) {
		t.Errorf("invitations left %q, want %q", left, want)
	}
	if got := eventsOfType(evs, "invites_changed"); len(got) != 0 {
		t.Errorf("invites_changed events %v, want none", got)
	}
}

// Joining through an invitation with a Welcome Bot text: the new user gets one direct
// message from Welcome Bot carrying it; an invitation without one sends nothing.
func TestInvitationWelcomeText(t *testing.T) {
	base := newCheckedServer(t)
	link := requireSuccess(t, "link", post(t, base, adminAuth, "/api/v1/invites/multiuse", "welcome_message_custom_text", "Read the **rules**."))["invite_link"].(string)
	requireSuccess(t, "plain", post(t, base, adminAuth, "/api/v1/invites", "invitee_emails", "plain@chat.example.test", "stream_ids", "[]"))
	for _, c := range []struct {
		name string
		kv   []string
		want string // the text of the one message, "" for none
	}{
		{"a link with a text", []string{"email", "welcomed@chat.example.test", "full_name", "Welcomed", "link_url", link}, "Read the **rules**."},
		{"an email invitation without", []string{"email", "plain@chat.example.test", "full_name", "Plain"}, ""},
	} {
		key := requireSuccess(t, c.name, post(t, base, "", "/_fake/invites/accept", c.kv...))["api_key"].(string)
		auth := basicHeader(c.kv[1], key)
		msgs := requireSuccess(t, c.name, get(t, base, auth, "/api/v1/messages",
			`anchor=newest&num_before=10&num_after=0&narrow=[{"operator":"is","operand":"dm"}]&apply_markdown=false`))["messages"].([]any)
		switch {
		case c.want == "" && len(msgs) != 0:
			t.Errorf("%s: direct messages %v, want none", c.name, msgs)
		case c.want != "" && (len(msgs) != 1 || msgs[0].(map[string]any)["sender_email"] != "welcome-bot@zulip.com" ||
			!strings.HasSuffix(fmt.Sprint(msgs[0].(map[string]any)["content"]), "\n\n"+c.want)):
			t.Errorf("%s: direct messages %v, want one from Welcome Bot ending in %q", c.name, msgs, c.want)
		}
	}
}
