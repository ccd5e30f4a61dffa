package realm

import "maps"

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
	if id := c.ModerationChannel; id != nil && s.msgs.setModerationRequestChannel(*id) {
		changed["moderation_request_channel_id"] = *id
	}
	return changed, nil
}
