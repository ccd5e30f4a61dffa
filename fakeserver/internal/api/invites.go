package api

import (
	"slices"
	"unicode/utf8"

	"github.com/chatconform/chatconform/fakeserver/internal/apierr"
	"github.com/chatconform/chatconform/fakeserver/internal/handler"
	"github.com/chatconform/chatconform/fakeserver/internal/realm"
)

// inviteRoles are the values invite_as takes: the role values.
var inviteRoles = []int64{realm.RoleOwner, realm.RoleAdmin, realm.RoleModerator, realm.RoleMember, realm.RoleGuest}

// inviteParams reads the parameters both kinds of invitation take: how long it lasts (JSON
// null: forever), the role invitees get, and the channels they join (required for email
// invitations).
func (s *Service) inviteParams(c *handler.Call, channelsRequired bool) realm.InviteRequest {
	minutes := int64(realm.DefaultInviteMinutes)
	r := realm.InviteRequest{Minutes: &minutes, InvitedAs: realm.RoleMember, Notify: true}
	if raw, ok := c.P.JSON("invite_expires_in_minutes"); ok && raw == nil {
		r.Minutes = nil
	} else if n, ok := c.P.Int("invite_expires_in_minutes"); ok {
		minutes = n
	}
	if role, ok := c.P.Int("invite_as"); ok {
		if !slices.Contains(inviteRoles, role) {
			c.P.Fail(apierr.BadRequest("Invalid invite_as"))
		}
		r.InvitedAs = int(role)
	}
	var ids []int64
	if channelsRequired {
		ids = c.P.RequiredIntList("stream_ids")
	} else {
		ids, _ = c.P.IntList("stream_ids")
	}
	for _, id := range ids {
		r.ChannelIDs = append(r.ChannelIDs, int(max(min(id, 1<<31-1), 0))) // out of range: no channel
	}
	s.inviteExtraParams(c, &r)
	return r
}

// inviteExtraParams reads what the invitee gets beyond the channels, each from its level
// (before it, the parameter is not read, and the reply lists it as ignored): the default
// channels (261), groups (322) and a Welcome Bot text (416).
func (s *Service) inviteExtraParams(c *handler.Call, r *realm.InviteRequest) {
	if s.realm().AtLeast(realm.LevelInviteDefaultChannels) {
		r.DefaultChannels = c.P.Bool("include_realm_default_subscriptions", false)
	}
	if s.realm().AtLeast(realm.LevelInviteGroups) {
		ids, _ := c.P.IntList("group_ids")
		for _, id := range ids {
			r.GroupIDs = append(r.GroupIDs, int(max(min(id, 1<<31-1), 0))) // out of range: no group
		}
	}
	if s.realm().AtLeast(realm.LevelInviteWelcomeText) {
		if text, ok := c.P.String("welcome_message_custom_text"); ok {
			if utf8.RuneCountInString(text) > realm.MaxWelcomeTextLength {
				c.P.Fail(apierr.BadRequest("welcome_message_custom_text is too long (limit: %d characters)", realm.MaxWelcomeTextLength))
			}
			r.WelcomeText = &text
		}
	}
}

// sendInvites: POST /invites — email invitations.
func (s *Service) sendInvites(c *handler.Call) (handler.Fields, error) {
	emails := c.P.RequiredString("invitee_emails")
	r := s.inviteParams(c, true)
	r.Emails = emails
	if s.realm().AtLeast(realm.LevelNotifyReferrer) {
		r.Notify = c.P.Bool("notify_referrer_on_join", true)
	}
	if err := c.Done(); err != nil {
		return nil, err
	}
	return handler.Fields{}, s.realm().Invite(c.User.ID, r)
}

// createInviteLink: POST /invites/multiuse — a reusable invitation link.
func (s *Service) createInviteLink(c *handler.Call) (handler.Fields, error) {
	r := s.inviteParams(c, false)
	if err := c.Done(); err != nil {
		return nil, err
	}
	link, err := s.realm().CreateInviteLink(c.User.ID, r)
	if err != nil {
		return nil, err
	}
	return handler.Fields{"invite_link": link}, nil
}

// getInvites: GET /invites — the unexpired invitations the requester controls.
func (s *Service) getInvites(c *handler.Call) (handler.Fields, error) {
	if err := c.Done(); err != nil {
		return nil, err
	}
	return handler.Fields{"invites": s.realm().Invites(c.User.ID)}, nil
}

// errNoInvitation is the answer for an invitation ID too large to name one.
var errNoInvitation = apierr.BadRequest("No such invitation")

// resendInvite: POST /invites/{invite_id}/resend.
func (s *Service) resendInvite(c *handler.Call) (handler.Fields, error) {
	return handler.ChangeByID(c, "invite_id", errNoInvitation, s.realm().ResendInvite)
}

// revokeInvite: DELETE /invites/{invite_id}, and DELETE /invites/multiuse/{invite_id} when
// multiuse.
func revokeInvite(multiuse bool) op {
	return func(s *Service, c *handler.Call) (handler.Fields, error) {
		id, err := c.PathID("invite_id", errNoInvitation)
		if err != nil {
			return nil, err
		}
		if err := c.Done(); err != nil {
			return nil, err
		}
		if err := s.realm().RevokeInvite(c.User.ID, id, multiuse); err != nil {
			return nil, err
		}
		return handler.Fields{}, nil
	}
}
