package api_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/chatconform/chatconform/fakeserver/internal/realm"
)

// Invitations are bounded as on the real server: an organization sends at most
// realm.MaxInvitesPerDay in a day, resent ones included, and a batch that would pass it is
// refused whole before its addresses are checked.

// addresses is n invitee addresses, separated by commas and newlines in turn.
func addresses(prefix string, n int) string {
	var b strings.Builder
	for i := range n {
		if i > 0 {
			b.WriteString([]string{",", "\n"}[i%2])
		}
		fmt.Fprintf(&b, "%s%d@invited.example.test", prefix, i)
	}
	return b.String()
}

func TestInvitationsBounded(t *testing.T) {
	base := newServer(t).URL
	invite := func(emails string) response {
		return post(t, base, adminAuth, "/api/v1/invites", "invitee_emails", emails, "stream_ids", "[1]")
	}
	refused := func(t *testing.T, what string, res response) {
		t.Helper()
		if res.status != http.StatusBadRequest || res.env["code"] != "INVITATION_FAILED" || res.env["daily_limit_reached"] != true ||
			res.env["sent_invitations"] != false || !strings.HasPrefix(fmt.Sprint(res.env["msg"]), "To protect users, Zulip limits the number of invitations") {
			t.Errorf("%s: got %s, want the daily limit's INVITATION_FAILED", what, res)
		}
	}

	many := 150_000
	if testing.Short() { // the race run checks concurrency, not bulk
		many = 1000
	}
	refused(t, fmt.Sprint(many, " addresses"), invite(addresses("many", many)))
	if got := invites(t, base, adminAuth); len(got) != 0 {
		t.Fatalf("a refused batch left %d invitations", len(got))
	}
	// A batch that does not validate sends nothing and uses none of the day's invitations.
	if res := invite("not an address"); res.env["msg"] != "Some emails did not validate, so we didn't send any invitations." {
		t.Errorf("an invalid address: %s", res)
	}
	requireSuccess(t, "all but one of the day's", invite(addresses("day", realm.MaxInvitesPerDay-1)))
	requireSuccess(t, "a resend, the last", post(t, base, adminAuth, "/api/v1/invites/1/resend"))
	refused(t, "one more", invite("late@invited.example.test"))
	refused(t, "a resend past the limit", post(t, base, adminAuth, "/api/v1/invites/1/resend"))
	if got := invites(t, base, adminAuth); len(got) != realm.MaxInvitesPerDay-1 {
		t.Errorf("%d invitations kept, want %d", len(got), realm.MaxInvitesPerDay-1)
	}
	// A day later the count starts again.
	requireSuccess(t, "clock", post(t, base, "", "/_fake/clock", "advance", fmt.Sprint(24*3600)))
	requireSuccess(t, "the next day", invite("late@invited.example.test"))
}
