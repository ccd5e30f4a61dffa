package realm

import "github.com/chatconform/chatconform/fakeserver/internal/events"

// OrganizationState is the aggregate of the organization's settings: the plain realm settings,
// the message editing and moving policy, group-valued permission settings, the realm's email
// visibility, defaults for new users' settings, custom emoji, linkifiers, code playgrounds,
// the moderation request channel, video calls and data exports.
//
// Files: realm_settings.go, realm_update.go, realm_group_defaults.go, edit_settings.go,
// user_settings_defaults.go, emoji.go, linkifiers.go, playgrounds.go, video_calls.go,
// export.go, register_organization.go and this file.
type OrganizationState struct {
	*core
	editing EditingSettings
	// realmEmailVisibility is the realm's email_address_visibility, which below
	// LevelUserEmailVisibility stands for every user's own.
	realmEmailVisibility int
	// realmSettings are the plain organization settings changed from their defaults, by the
	// name they are kept under (realm_settings.go).
	realmSettings map[string]any
	// userDefaults are the realm's defaults for new users' settings that differ from the
	// built-in ones (user_settings_defaults.go).
	userDefaults map[string]any
	// moderationChannel is the ID of the channel message reports go to, 0 for none.
	moderationChannel int
	// emoji are the custom emoji, by ID (emoji.go).
	emoji                         map[int]*customEmoji
	nextEmoji                     int
	playgrounds                   []*Playground
	linkifiers                    []*Linkifier
	nextPlayground, nextLinkifier int
	nextMeeting                   int // video call meetings (video_calls.go)

	exports    []*realmExport
	consented  map[int]bool // users who allow exports of their private data
	nextExport int
}

func (s *OrganizationState) reset() {
	*s = OrganizationState{core: s.core, editing: defaultEditing(), realmEmailVisibility: VisibleEveryone,
		realmSettings: map[string]any{}, userDefaults: map[string]any{}, emoji: map[int]*customEmoji{}, consented: map[int]bool{}}
}

// publishRealmList sends the whole new list of a realm-wide collection (linkifiers,
// playgrounds), as the real server does for these. From feature level 176 on, linkifier
// events go only to clients with the linkifier_url_template capability.
func (s *OrganizationState) publishRealmList(eventType string, list any) {
	ev := events.Event{"type": eventType, eventType: list}
	s.events.PublishEach(func(_ int, c events.Client) []events.Event {
		if eventType == "realm_linkifiers" && !LinkifiersFor(s.settings.FeatureLevel, c) {
			return nil
		}
		return []events.Event{ev}
	}, s.accts.activeUserIDs()...)
}

// removeFromRealmList deletes the item that match picks from one of the realm-wide lists and
// sends the list anew in the form list gives, or answers notFound when there is none.
func removeFromRealmList[V any](s *OrganizationState, items *[]*V, match func(*V) bool, notFound error, eventType string, list func() []any) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !removeFirst(items, match) {
		return notFound
	}
	s.publishRealmList(eventType, list())
	return nil
}
