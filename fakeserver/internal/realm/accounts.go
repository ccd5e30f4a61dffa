package realm

import (
	"slices"
	"strings"

	"github.com/chatconform/chatconform/fixtures"
)

// accountState is the state of accounts beyond the user records: user groups created by
// users, custom profile fields, authentication settings.
type accountState struct {
	// profileFields are the realm's custom profile fields, in display order.
	profileFields []*ProfileField
	nextField     int
	// profileValues holds each user's custom profile field values: user ID -> field ID ->
	// a string, or a list of user IDs for a users field.
	profileValues map[int]map[int]any
	// pendingEmails are the email changes users started (PATCH /settings) and have not
	// confirmed, by user ID.
	pendingEmails map[int]pendingEmail
}

// loadAccounts sets up the account state of a realm being loaded from f (under the lock,
// after users, channels and the system groups exist).
func (s *State) loadAccounts(f *fixtures.Fixture) {
	s.accounts = accountState{profileValues: map[int]map[int]any{}, pendingEmails: map[int]pendingEmail{}}
	for i, pf := range f.CustomProfileFields {
		s.accounts.profileFields = append(s.accounts.profileFields, &ProfileField{
			ID: pf.ID, Name: pf.Name, Hint: pf.Hint, Type: profileFieldTypes[pf.Type], Order: i + 1,
		})
		s.accounts.nextField = max(s.accounts.nextField, pf.ID)
	}
	byName := map[string]int{}
	for _, fg := range f.UserGroups {
		g := &UserGroup{
			ID: nextID(&s.next.group), Name: fg.Name, Description: fg.Description,
			Members: slices.Compact(slices.Sorted(slices.Values(fg.Members))), DateCreated: f.Realm.StartTime,
		}
		for _, sub := range fg.Subgroups {
			g.Subgroups = append(g.Subgroups, byName[strings.ToLower(sub)])
		}
		byName[strings.ToLower(fg.Name)] = g.ID
		s.groups[g.ID] = g
	}
}
