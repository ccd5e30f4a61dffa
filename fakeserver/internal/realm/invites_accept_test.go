package realm

import (
	"testing"
)

// An address invited twice joins with the newest invitation's role, every time, and joining
// (by either invitation or by a link) leaves no invitation to the address pending, as the real
// server revokes the others when the account is made.
func TestAcceptInviteTakesTheNewestAndRevokesTheRest(t *testing.T) {
	for _, byLink := range []bool{false, true} {
		s := newIndexedRealm(t)
		const email = "twice@chat.example.test"
		owner := 0
		for id, u := range s.users {
			if u.Role == RoleOwner && !u.IsBot {
				owner = id
			}
		}
		for _, role := range []int{RoleMember, RoleModerator} {
			if err := s.Invite(owner, InviteRequest{Emails: email, InvitedAs: role}); err != nil {
				t.Fatalf("inviting as %d: %v", role, err)
			}
		}
		a := Acceptance{Email: email, FullName: "Twice Invited"}
		want := RoleModerator
		if byLink {
			link, err := s.CreateInviteLink(owner, InviteRequest{InvitedAs: RoleMember})
			if err != nil {
				t.Fatalf("creating a link: %v", err)
			}
			a.LinkURL, want = link, RoleMember
		}
		j, err := s.AcceptInvite(a)
		if err != nil {
			t.Fatalf("accepting (by link %v): %v", byLink, err)
		}
		if got := s.users[j.UserID].Role; got != want {
			t.Errorf("by link %v: joined as %d, want %d", byLink, got, want)
		}
		for _, v := range s.Invites(owner) {
			if v.Email == email {
				t.Errorf("by link %v: invitation %d to the address still pending", byLink, v.ID)
			}
		}
	}
}
