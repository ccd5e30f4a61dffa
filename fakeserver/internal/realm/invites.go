package realm

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/chatconform/chatconform/fakeserver/internal/apierr"
	"github.com/chatconform/chatconform/fakeserver/internal/events"
)

// Invitations: email invitations (POST /invites) and reusable invitation links
// (POST /invites/multiuse), listed, resent and revoked with the real server's rules. The
// two kinds are numbered apart, as the real server keeps them in two tables.

// DefaultInviteMinutes is how long an invitation lasts when the request names no time: the
// real server's default of ten days.
const DefaultInviteMinutes = 10 * 24 * 60

// invite is one invitation of either kind.
type invite struct {
	id         int
	multiuse   bool
	email      string // email invitations
	key        string // multi-use links
	invitedAs  int
	referrerID int
	invited    int64  // UNIX seconds of the (last) sending
	expiry     *int64 // nil: never expires
	channelIDs []int
	notify     bool
	revoked    bool // links only: a revoked link is kept, and revoking it again refused
	// What the invitee gets on joining beyond the channels: the groups, the organization's
	// default channels, and the Welcome Bot's custom text (nil: the organization's).
	groupIDs        []int
	defaultChannels bool
	welcomeText     *string
}

// InviteView is an invitation as GET /invites lists it.
type InviteView struct {
	ID                   int    `json:"id"`
	InvitedByUserID      int    `json:"invited_by_user_id"`
	Invited              int64  `json:"invited"`
	ExpiryDate           *int64 `json:"expiry_date"`
	InvitedAs            int    `json:"invited_as"`
	IsMultiuse           bool   `json:"is_multiuse"`
	Email                string `json:"email,omitempty"`
	LinkURL              string `json:"link_url,omitempty"`
	NotifyReferrerOnJoin *bool  `json:"notify_referrer_on_join,omitempty"`
}

// InviteRequest is a POST /invites or POST /invites/multiuse request, parsed.
type InviteRequest struct {
	Emails     string // POST /invites: the raw invitee_emails list
	Minutes    *int64 // nil: never expires
	InvitedAs  int
	ChannelIDs []int
	Notify     bool
	// GroupIDs, DefaultChannels and WelcomeText are the parameters group_ids,
	// include_realm_default_subscriptions and welcome_message_custom_text.
	GroupIDs        []int
	DefaultChannels bool
	WelcomeText     *string
}

// MaxWelcomeTextLength is the real server's limit on a Welcome Bot custom text, in code points.
const MaxWelcomeTextLength = 8000

// invitationError is the real server's refusal of a batch of invitations: code
// INVITATION_FAILED with the per-address errors and whether the other invitations went out.
func invitationError(msg string, errs [][]any, sent bool) error {
	return apierr.Of(apierr.KindInvalid, "INVITATION_FAILED", "%s", msg).With("errors", errs).With("sent_invitations", sent).
		With("license_limit_reached", false).With("daily_limit_reached", false)
}

// MaxInvitesPerDay is the real server's default bound on the invitations an organization
// sends in a day (INVITES_DEFAULT_REALM_DAILY_MAX, a realm's max_invites), resent ones
// included. The real server applies it where anyone may create an organization (as on its
// cloud); the fake always does, so that the invitations it keeps stay bounded.
const MaxInvitesPerDay = 100

// inviteSending is a number of invitations sent (or resent) at one time.
type inviteSending struct {
	at    int64 // UNIX seconds
	count int
}

// checkInviteLimit refuses, as the real server does, count more invitations where they would
// pass MaxInvitesPerDay within the last day; sentInvites records those that went. The caller
// holds s.mu.
func (s *AccountState) checkInviteLimit(count int) error {
	now := s.Now()
	for len(s.inviteSendings) > 0 && s.inviteSendings[0].at <= now-24*60*60 {
		s.inviteSendings = s.inviteSendings[1:]
	}
	sent := 0
	for _, b := range s.inviteSendings {
		sent += b.count
	}
	if sent+count > MaxInvitesPerDay {
		return apierr.Of(apierr.KindInvalid, "INVITATION_FAILED", "%s",
			"To protect users, Zulip limits the number of invitations you can send in one day. Because you have reached the limit, no invitations were sent.").
			With("errors", [][]any{}).With("sent_invitations", false).With("license_limit_reached", false).With("daily_limit_reached", true)
	}
	return nil
}

func (s *AccountState) sentInvites(count int) {
	s.inviteSendings = append(s.inviteSendings, inviteSending{at: s.Now(), count: count})
}

// inviteeEmails splits the invitee_emails parameter at commas and newlines, as the real
// server does, keeping each address once in the order given, in time linear in its length.
// Of "Name <address>", the address is taken: from the first "<" to the last ">", as the real
// server's greedy pattern reads it.
func inviteeEmails(raw string) []string {
	var out []string
	seen := map[string]bool{}
	for rest := raw; ; {
		end := strings.IndexAny(rest, ",\n")
		e := rest
		if end >= 0 {
			e = rest[:end]
		}
		if open, shut := strings.IndexByte(e, '<'), strings.LastIndexByte(e, '>'); open >= 0 && shut > open {
			e = e[open+1 : shut]
		}
		if e = strings.TrimSpace(e); !seen[e] {
			seen[e] = true
			out = append(out, e)
		}
		if end < 0 {
			return out
		}
		rest = rest[end+1:]
	}
}

// checkInviteRole: only owners invite owners, and administrators and moderators are invited
// by administrators.
func checkInviteRole(req *User, role int) error {
	switch {
	case role == RoleOwner && req.Role != RoleOwner:
		return apierr.MustBeOwner
	case role <= RoleModerator && !req.IsAdmin():
		return apierr.BadRequest("Must be an organization administrator")
	}
	return nil
}

// inviteChannels checks the channels invitees join: the requester must have access to each.
func (s *AccountState) inviteChannels(req *User, ids []int) error {
	for _, id := range ids {
		if _, err := s.chans.accessibleChannel(req, id); err != nil {
			return apierr.BadRequest("Invalid channel ID %d. No invites were sent.", id)
		}
	}
	return nil
}

// inviteGroupsAndText checks, after the channels, the groups invitees join (the requester must
// be able to add members to each) and that only administrators set a Welcome Bot text.
func (s *AccountState) inviteGroupsAndText(req *User, r InviteRequest) error {
	for _, id := range r.GroupIDs {
		if _, err := s.grps.managedGroup(req.ID, id); err != nil {
			return err
		}
	}
	if r.WelcomeText != nil && !req.IsAdmin() {
		return apierr.BadRequest("Must be an organization administrator")
	}
	return nil
}

func (s *AccountState) newInvite(req *User, r InviteRequest) *invite {
	inv := &invite{
		referrerID: req.ID, invitedAs: r.InvitedAs, invited: s.Now(), channelIDs: slices.Clone(r.ChannelIDs), notify: r.Notify,
		groupIDs: slices.Clone(r.GroupIDs), defaultChannels: r.DefaultChannels, welcomeText: r.WelcomeText,
	}
	if r.Minutes != nil {
		at := inv.invited + *r.Minutes*60
		inv.expiry = &at
	}
	return inv
}

// Invite sends email invitations (POST /invites). Addresses that do not validate stop the
// whole batch; addresses that already have an account are skipped, and the real server
// answers INVITATION_FAILED after inviting the others (sent_invitations says whether any went).
// A batch that would pass MaxInvitesPerDay is refused whole before its addresses are checked,
// as on the real server. The addresses are split before the lock is taken; under it, the work
// is linear in at most MaxInvitesPerDay addresses.
func (s *AccountState) Invite(requesterID int, r InviteRequest) error {
	emails := inviteeEmails(r.Emails)
	s.mu.Lock()
	defer s.mu.Unlock()
	req := s.users[requesterID]
	if err := checkInviteRole(req, r.InvitedAs); err != nil {
		return err
	}
	if strings.TrimSpace(r.Emails) == "" {
		return apierr.BadRequest("You must specify at least one email address.")
	}
	if err := s.inviteChannels(req, r.ChannelIDs); err != nil {
		return err
	}
	if err := s.inviteGroupsAndText(req, r); err != nil {
		return err
	}
	if err := s.checkInviteLimit(len(emails)); err != nil {
		return err
	}
	var invalid, skipped [][]any
	var invitees []string
	for _, e := range emails {
		switch u := s.usersByEmail[strings.ToLower(e)]; {
		case !validEmail(e):
			invalid = append(invalid, []any{e, "Invalid address.", false})
		case u != nil && !u.IsActive:
			skipped = append(skipped, []any{e, "Account has been deactivated.", true})
		case u != nil:
			skipped = append(skipped, []any{e, "Already has an account.", false})
		default:
			invitees = append(invitees, e)
		}
	}
	if len(invalid) > 0 {
		return invitationError("Some emails did not validate, so we didn't send any invitations.", invalid, false)
	}
	if len(invitees) == 0 {
		return invitationError("We weren't able to invite anyone.", skipped, false)
	}
	for _, e := range invitees {
		inv := s.newInvite(req, r)
		inv.id, inv.email = nextID(&s.nextInvite), e
		s.invites[inv.id] = inv
	}
	s.sentInvites(len(invitees))
	s.publishInvitesChanged(req)
	if len(skipped) > 0 {
		return invitationError("Some of those addresses are already using Zulip, so we didn't send them an invitation. We did send invitations to everyone else!", skipped, true)
	}
	return nil
}

// CreateInviteLink makes a reusable invitation link (POST /invites/multiuse) and returns its URL.
func (s *AccountState) CreateInviteLink(requesterID int, r InviteRequest) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	req := s.users[requesterID]
	if !req.IsAdmin() {
		return "", apierr.BadRequest("Insufficient permission")
	}
	if err := checkInviteRole(req, r.InvitedAs); err != nil {
		return "", err
	}
	if err := s.inviteChannels(req, r.ChannelIDs); err != nil {
		return "", err
	}
	if err := s.inviteGroupsAndText(req, r); err != nil {
		return "", err
	}
	inv := s.newInvite(req, r)
	inv.id, inv.multiuse = nextID(&s.nextMultiuse), true
	inv.key = strings.ToLower(newAPIKey()[:24])
	s.multiuse[inv.id] = inv
	s.publishInvitesChanged(req)
	return s.inviteLink(inv), nil
}

func (s *AccountState) inviteLink(inv *invite) string {
	return fmt.Sprintf("https://%s/join/%s/", s.settings.Host, inv.key)
}

func (inv *invite) expired(now int64) bool { return inv.expiry != nil && *inv.expiry <= now }

// Invites lists the invitations the requester controls, unexpired: every one for an
// administrator, their own for anyone else; email invitations first, each kind in ID order.
func (s *AccountState) Invites(requesterID int) []InviteView {
	s.mu.RLock()
	defer s.mu.RUnlock()
	req, now := s.users[requesterID], s.Now()
	out := []InviteView{}
	for _, kind := range []map[int]*invite{s.invites, s.multiuse} {
		for _, id := range slices.Sorted(maps.Keys(kind)) {
			inv := kind[id]
			if inv.expired(now) || inv.revoked || (!req.IsAdmin() && inv.referrerID != req.ID) {
				continue
			}
			v := InviteView{ID: inv.id, InvitedByUserID: inv.referrerID, Invited: inv.invited, ExpiryDate: inv.expiry,
				InvitedAs: inv.invitedAs, IsMultiuse: inv.multiuse}
			if inv.multiuse {
				v.LinkURL = s.inviteLink(inv)
			} else {
				v.Email = inv.email
				if s.settings.FeatureLevel >= LevelNotifyReferrer {
					notify := inv.notify
					v.NotifyReferrerOnJoin = &notify
				}
			}
			out = append(out, v)
		}
	}
	return out
}

// controlledInvite finds an invitation the requester may resend or revoke: their own, or,
// for an administrator, anyone's (an owner's invitation of an owner for owners alone).
func (s *AccountState) controlledInvite(req *User, kind map[int]*invite, id int) (*invite, error) {
	inv := kind[id]
	if inv == nil {
		return nil, apierr.BadRequest("No such invitation")
	}
	if inv.referrerID != req.ID {
		if inv.invitedAs == RoleOwner && req.Role != RoleOwner {
			return nil, apierr.MustBeOwner
		}
		if !req.IsAdmin() {
			return nil, apierr.BadRequest("Must be an organization administrator")
		}
	}
	return inv, nil
}

// ResendInvite sends an email invitation again, which renews its sending time; it counts
// toward MaxInvitesPerDay.
func (s *AccountState) ResendInvite(requesterID, id int) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	req := s.users[requesterID]
	inv, err := s.controlledInvite(req, s.invites, id)
	if err != nil {
		return err
	}
	if err := s.checkInviteLimit(1); err != nil {
		return err
	}
	s.sentInvites(1)
	inv.invited = s.Now()
	s.publishInvitesChanged(s.users[inv.referrerID])
	return nil
}

// RevokeInvite deletes an email invitation (DELETE /invites/{id}) or an invitation link
// (DELETE /invites/multiuse/{id}).
func (s *AccountState) RevokeInvite(requesterID, id int, multiuse bool) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	req, kind := s.users[requesterID], s.invites
	if multiuse {
		kind = s.multiuse
	}
	inv, err := s.controlledInvite(req, kind, id)
	if err != nil {
		return err
	}
	if inv.revoked {
		return apierr.BadRequest("Invitation has already been revoked")
	}
	if multiuse {
		inv.revoked = true
	} else {
		delete(kind, id)
	}
	s.publishInvitesChanged(s.users[inv.referrerID])
	return nil
}

// publishInvitesChanged tells the administrators, and the invitation's referrer, that the
// list of invitations changed; clients fetch it again.
func (s *AccountState) publishInvitesChanged(referrer *User) {
	var ids []int
	for _, id := range s.activeUserIDs() {
		if s.users[id].IsAdmin() || (referrer != nil && id == referrer.ID) {
			ids = append(ids, id)
		}
	}
	s.publish(events.Event{"type": "invites_changed"}, ids...)
}
