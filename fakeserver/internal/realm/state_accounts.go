package realm

import "github.com/chatconform/chatconform/fixtures"

// AccountState is the aggregate of accounts and roles: users and bots with their roles,
// settings, emails and API keys, the system bots, custom profile fields, pending email
// changes, bot storage and invitations; with authentication and the rules of who may see
// whose email.
//
// Files: users*.go, create_user.go, update_user_by_email.go, account_changes.go,
// authentication.go, jwt.go, dev_login.go, bots_edit.go, bot_*.go, profile*.go,
// email_visibility.go, invites*.go, system_bots.go, user_settings.go, register_accounts.go and
// this file.
type AccountState struct {
	*core
	users        map[int]*User
	usersByEmail map[string]*User // lower-cased delivery email
	usersByKey   map[string]*User
	nextUser     int
	// systemBots are the real server's system bots (system_bots.go), made at load.
	systemBots []*User
	// profileFields are the realm's custom profile fields, in display order.
	profileFields []*ProfileField
	nextField     int
	// profileValues holds each user's custom profile field values: user ID -> field ID ->
	// a string, or a list of user IDs for a users field.
	profileValues map[int]map[int]any
	// pendingEmails are the email changes users started (PATCH /settings) and have not
	// confirmed, by user ID.
	pendingEmails map[int]pendingEmail
	botStorage    map[int]*botStore // by bot user ID

	invites                  map[int]*invite // email invitations, by ID
	multiuse                 map[int]*invite // invitation links, by ID
	nextInvite, nextMultiuse int
	inviteSendings           []inviteSending // of the last day, oldest first (invites.go)
}

func (s *AccountState) reset() {
	*s = AccountState{core: s.core, users: map[int]*User{}, usersByEmail: map[string]*User{}, usersByKey: map[string]*User{},
		profileValues: map[int]map[int]any{}, pendingEmails: map[int]pendingEmail{}, botStorage: map[int]*botStore{},
		invites: map[int]*invite{}, multiuse: map[int]*invite{}}
}

// loadProfileFields adds the fixture's custom profile fields.
func (s *AccountState) loadProfileFields(f *fixtures.Fixture) {
	for i, pf := range f.CustomProfileFields {
		s.profileFields = append(s.profileFields, &ProfileField{
			ID: pf.ID, Name: pf.Name, Hint: pf.Hint, Type: profileFieldTypes[pf.Type], Order: i + 1,
		})
		s.nextField = max(s.nextField, pf.ID)
	}
}
