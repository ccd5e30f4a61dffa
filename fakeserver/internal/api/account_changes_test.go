package api_test

// PATCH /settings with a password change or an email change: the real server's refusals,
// what each change does to the login, and the confirmation an email change waits for.

import (
	"net/http"
	"testing"
)

const memberPassword = "member-password"

// login is POST /fetch_api_key with a password.
func login(t *testing.T, base, email, password string) response {
	t.Helper()
	return post(t, base, "", "/api/v1/fetch_api_key", "username", email, "password", password)
}

// wantLogin fails unless the address and password log in (ok) or are refused as wrong.
func wantLogin(t *testing.T, base, email, password string, ok bool) {
	t.Helper()
	res := login(t, base, email, password)
	switch {
	case ok && res.status != http.StatusOK:
		t.Errorf("login %s / %q refused: %s", email, password, res)
	case !ok && (res.status != http.StatusUnauthorized || res.env["msg"] != "Your username or password is incorrect"):
		t.Errorf("login %s / %q: HTTP %d %s, want the real server's refusal", email, password, res.status, res)
	}
}

// A password change needs the current password, then a new one of at least six characters;
// a refused change, alone or beside a good setting, leaves both the password and the settings.
func TestPasswordChange(t *testing.T) {
	for _, c := range []struct {
		name   string
		kv     []string
		refuse string
	}{
		{"wrong old password", []string{"old_password", "owner-password", "new_password", "a-new-password"}, "Wrong password!"},
		{"no old password", []string{"new_password", "a-new-password"}, "Wrong password!"},
		{"empty old password", []string{"old_password", "", "new_password", "a-new-password"}, "Wrong password!"},
		{"five characters", []string{"old_password", memberPassword, "new_password", "short"}, "New password is too weak!"},
		{"five characters, not bytes", []string{"old_password", memberPassword, "new_password", "ééééé"}, "New password is too weak!"},
		{"empty new password", []string{"old_password", memberPassword, "new_password", ""}, "New password is too weak!"},
		{"good change, bad setting", []string{"old_password", memberPassword, "new_password", "a-new-password", "color_scheme", "4"}, "Invalid color_scheme"},
		{"good change, bad email", []string{"old_password", memberPassword, "new_password", "a-new-password", "email", "nowhere"}, "Invalid address."},
		{"six characters", []string{"old_password", memberPassword, "new_password", "sixsix"}, ""},
		{"old password alone changes nothing", []string{"old_password", "anything"}, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			base := newCheckedServer(t)
			before := registerKey(t, base, memberAuth, "user_settings", "user_settings")
			res := patch(t, base, memberAuth, "/api/v1/settings", append(c.kv, "enter_sends", "true")...)
			newPassword := memberPassword
			if c.refuse != "" {
				wantRefusal(t, "change", res, c.refuse)
				if after := registerKey(t, base, memberAuth, "user_settings", "user_settings"); canonical(after) != canonical(before) {
					t.Errorf("a refused change changed user_settings:\n%s\nwas\n%s", canonical(after), canonical(before))
				}
			} else {
				if r := requireSuccess(t, "change", res); len(r) != 2 {
					t.Errorf("reply %v: the real server echoes nothing", r)
				}
				for i := 0; i+1 < len(c.kv); i += 2 {
					if c.kv[i] == "new_password" {
						newPassword = c.kv[i+1]
					}
				}
			}
			wantLogin(t, base, memberEmail, newPassword, true)
			if newPassword != memberPassword {
				wantLogin(t, base, memberEmail, memberPassword, false)
			}
			// The API key is not the password: the member's clients keep working.
			requireSuccess(t, "API key", get(t, base, memberAuth, "/api/v1/users/me", ""))
		})
	}
}

// An email change is refused as the real server refuses it, or started: the account keeps its
// address, and its login, until the confirmation, which announces the new address.
func TestEmailChange(t *testing.T) {
	for _, c := range []struct {
		name, email, refuse string
	}{
		{"an invalid address", "not-an-address", "Invalid address."},
		{"another account's address", "admin@chat.example.test", "Already has an account."},
		{"another account's address, other case", "Admin@Chat.Example.Test", "Already has an account."},
		{"a deactivated account's address", "guest@chat.example.test", "Account has been deactivated."},
		{"a system bot's address", "welcome-bot@zulip.com", "Reserved for system bots."},
		{"the email gateway's address", "emailgateway@zulip.com", "Reserved for system bots."},
		{"a new address", " moved@chat.example.test ", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			base := newCheckedServer(t)
			requireSuccess(t, "deactivate the guest", do(t, base, request{method: http.MethodDelete, path: "/api/v1/users/5", auth: ownerAuth}))
			queue := evRegister(t, base, memberAuth, "event_types", `["realm_user"]`)
			res := patch(t, base, memberAuth, "/api/v1/settings", "email", c.email)
			if c.refuse != "" {
				wantRefusal(t, "change", res, c.refuse)
				wantRefusal(t, "confirm", post(t, base, "", "/_fake/email_changes/confirm", "user_id", "4"), "No email change to confirm for user 4")
				wantLogin(t, base, memberEmail, memberPassword, true)
				return
			}
			if r := requireSuccess(t, "change", res); len(r) != 2 {
				t.Errorf("reply %v: the real server echoes nothing", r)
			}
			// Until confirmed, nothing changes.
			wantLogin(t, base, memberEmail, memberPassword, true)
			wantLogin(t, base, "moved@chat.example.test", memberPassword, false)
			if evs := evPoll(t, base, memberAuth, queue, -1, true); len(evs) != 0 {
				t.Errorf("events before the confirmation: %v", evs)
			}
			got := requireSuccess(t, "confirm", post(t, base, "", "/_fake/email_changes/confirm", "user_id", "4"))
			if got["email"] != "moved@chat.example.test" {
				t.Errorf("confirmed address %v", got["email"])
			}
			wantLogin(t, base, "moved@chat.example.test", memberPassword, true)
			wantLogin(t, base, memberEmail, memberPassword, false)
			moved := basicHeader("moved@chat.example.test", "MemberKey00000000000000000000004")
			if me := requireSuccess(t, "me", get(t, base, moved, "/api/v1/users/me", "")); me["delivery_email"] != "moved@chat.example.test" {
				t.Errorf("delivery_email after the confirmation: %v", me["delivery_email"])
			}
			want := `{"delivery_email":"moved@chat.example.test","user_id":4}`
			if evs := evPoll(t, base, moved, queue, -1, true); len(evs) == 0 || canonical(evs[0]["person"]) != want {
				t.Errorf("events of the confirmation: %v, want first a realm_user update with %s", evs, want)
			}
			wantRefusal(t, "confirm again", post(t, base, "", "/_fake/email_changes/confirm", "user_id", "4"), "No email change to confirm for user 4")
		})
	}
}

// The realm's email_changes_disabled binds members, not administrators, when a change starts
// and again when it is confirmed; its changes reach register and a realm event.
func TestEmailChangesDisabled(t *testing.T) {
	base := newCheckedServer(t)
	queue := evRegister(t, base, memberAuth, "event_types", `["realm"]`)
	if got := registerKey(t, base, memberAuth, "realm", "realm_email_changes_disabled"); got != false {
		t.Fatalf("register's realm_email_changes_disabled: %v, want false", got)
	}
	requireSuccess(t, "member starts", patch(t, base, memberAuth, "/api/v1/settings", "email", "moved@chat.example.test"))
	if r := requireSuccess(t, "disable", patch(t, base, ownerAuth, "/api/v1/realm", "email_changes_disabled", "true")); r["email_changes_disabled"] != true {
		t.Errorf("PATCH /realm reply %v: the real server echoes the change", r)
	}
	if r := requireSuccess(t, "again", patch(t, base, ownerAuth, "/api/v1/realm", "email_changes_disabled", "true")); r["email_changes_disabled"] != nil {
		t.Errorf("PATCH /realm reply %v to no change", r)
	}
	want := `[{"id":0,"op":"update","property":"email_changes_disabled","type":"realm","value":true}]`
	if evs := evPoll(t, base, memberAuth, queue, -1, true); canonical(evs) != want {
		t.Errorf("events: %s, want %s", canonical(evs), want)
	}
	if got := registerKey(t, base, memberAuth, "realm", "realm_email_changes_disabled"); got != true {
		t.Errorf("register's realm_email_changes_disabled: %v, want true", got)
	}
	const disabled = "Email address changes are disabled in this organization."
	wantRefusal(t, "member's confirmation", post(t, base, "", "/_fake/email_changes/confirm", "user_id", "4"), disabled)
	wantRefusal(t, "member starts", patch(t, base, memberAuth, "/api/v1/settings", "email", "other@chat.example.test"), disabled)
	requireSuccess(t, "member's own address", patch(t, base, memberAuth, "/api/v1/settings", "email", memberEmail))
	wantLogin(t, base, memberEmail, memberPassword, true)

	requireSuccess(t, "administrator starts", patch(t, base, adminAuth, "/api/v1/settings", "email", "boss@chat.example.test"))
	requireSuccess(t, "administrator confirms", post(t, base, "", "/_fake/email_changes/confirm", "user_id", "2"))
	wantLogin(t, base, "boss@chat.example.test", "admin-password", true)

	requireSuccess(t, "enable", patch(t, base, ownerAuth, "/api/v1/realm", "email_changes_disabled", "false"))
	requireSuccess(t, "member confirms", post(t, base, "", "/_fake/email_changes/confirm", "user_id", "4"))
	wantLogin(t, base, "moved@chat.example.test", memberPassword, true)
}

// A later change replaces an earlier one; an owner's change of the address in between
// expires the link; a deactivated account cannot confirm.
func TestEmailChangeConfirmation(t *testing.T) {
	base := newCheckedServer(t)
	confirm := func(id string) response { return post(t, base, "", "/_fake/email_changes/confirm", "user_id", id) }
	requireSuccess(t, "first", patch(t, base, memberAuth, "/api/v1/settings", "email", "first@chat.example.test"))
	requireSuccess(t, "second", patch(t, base, memberAuth, "/api/v1/settings", "email", "second@chat.example.test"))
	if got := requireSuccess(t, "confirm", confirm("4")); got["email"] != "second@chat.example.test" {
		t.Errorf("confirmed %v, want the later change", got["email"])
	}

	requireSuccess(t, "moderator starts", patch(t, base, basicHeader("moderator@chat.example.test", "ModeratorKey00000000000000000003"), "/api/v1/settings", "email", "mona@chat.example.test"))
	requireSuccess(t, "owner changes it", patch(t, base, ownerAuth, "/api/v1/users/3", "new_email", "mod@chat.example.test"))
	wantRefusal(t, "expired", confirm("3"), "The email change of user 3 has expired")

	guest := basicHeader("guest@chat.example.test", "GuestKey000000000000000000000005")
	requireSuccess(t, "guest starts", patch(t, base, guest, "/api/v1/settings", "email", "greta@chat.example.test"))
	requireSuccess(t, "deactivate the guest", do(t, base, request{method: http.MethodDelete, path: "/api/v1/users/5", auth: ownerAuth}))
	if res := confirm("5"); res.status != http.StatusUnauthorized || res.env["code"] != "USER_DEACTIVATED" {
		t.Errorf("a deactivated account's confirmation: HTTP %d %s", res.status, res)
	}
	wantRefusal(t, "unknown user", confirm("999"), "No email change to confirm for user 999")
}
