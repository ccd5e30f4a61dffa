package realm

import (
	"maps"

	"github.com/chatconform/chatconform/fakeserver/internal/events"
)

// RealmChange is one PATCH /realm request, every setting it names parsed: the editing and
// group settings, the plain settings by API name, the realm's email_address_visibility (below
// LevelUserEmailVisibility) and moderation_request_channel_id. Nil fields and settings not
// named stay as they are.
type RealmChange struct {
	Editing           EditingChange
	Plain             map[string]any
	EmailVisibility   *int
	ModerationChannel *int
	// ByOwner: the requester is an owner, as some settings need (the caller is an administrator).
	ByOwner bool
}

// UpdateRealm applies a PATCH /realm request all or nothing, under one write lock: another
// request cannot change the realm between the checks and the changes (archive the channel
// named as the moderation channel, deactivate a group a setting names), so a refused request
// has changed nothing. The checks come in a fixed order, so the same refusal wins whenever
// several values are bad: the plain settings, the email visibility, the moderation channel,
// then the editing and group settings. The answer is every setting that actually changed,
// each announced in a realm event: the editing settings', the plain settings', the email
// visibility's, then the moderation channel's.
func (s *OrganizationState) UpdateRealm(c RealmChange) (map[string]any, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	byName, err := s.checkRealmSettings(c.Plain, c.ByOwner)
	if err != nil {
		return nil, err
	}
	if c.EmailVisibility != nil {
		if err := CheckEmailVisibility(*c.EmailVisibility); err != nil {
			return nil, err
		}
	}
	if c.ModerationChannel != nil {
		if err := s.msgs.checkModerationRequestChannel(*c.ModerationChannel); err != nil {
			return nil, err
		}
	}
	editing, changed, err := s.planEditing(c.Editing, c.ByOwner)
	if err != nil {
		return nil, err
	}
	s.applyEditing(editing, changed)
	maps.Copy(changed, s.applyRealmSettings(c.Plain, byName))
	if v := c.EmailVisibility; v != nil && s.accts.setRealmEmailVisibility(*v) {
		changed["email_address_visibility"] = *v
	}
	if id := c.ModerationChannel; id != nil && s.setModerationRequestChannel(*id) {
		changed["moderation_request_channel_id"] = *id
	}
	return changed, nil
}

// setModerationRequestChannel sets moderation_request_channel_id (PATCH /realm) to a checked
// value, announced to every active user with a realm update event. As on the real server, the
// setting counts as changed, and is announced, whenever it differs or none is set (-1 again
// included). The caller holds the write lock.
func (s *OrganizationState) setModerationRequestChannel(id int) bool {
	cur := s.moderationChannel
	if cur != 0 && cur == id {
		return false
	}
	s.moderationChannel = max(id, 0)
	s.publish(events.Event{"type": "realm", "op": "update", "property": "moderation_request_channel_id", "value": id}, s.accts.activeUserIDs()...)
	return true
}
