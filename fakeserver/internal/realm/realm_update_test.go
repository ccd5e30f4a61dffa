package realm

import (
	"fmt"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chatconform/chatconform/fakeserver/internal/apierr"
	"github.com/chatconform/chatconform/fakeserver/internal/clock"
	"github.com/chatconform/chatconform/fakeserver/internal/events"
	"github.com/chatconform/chatconform/fixtures"
)

// recorder is a publisher that keeps the property of every realm event, in order.
type recorder struct {
	mu         sync.Mutex
	properties []string
}

func (r *recorder) Publish(ev events.Event, _ ...int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	property := fmt.Sprint(ev["type"], ":", ev["property"])
	if data, ok := ev["data"].(map[string]any); ok {
		for name := range data { // update_dict events of PATCH /realm carry one setting
			property = fmt.Sprint(ev["type"], ":", name)
		}
	}
	r.properties = append(r.properties, property)
}

func (r *recorder) PublishEach(func(int, events.Client) []events.Event, ...int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.properties = append(r.properties, "each")
}

// realmSnapshot is every setting PATCH /realm changes in fullRealmChange.
type realmSnapshot struct {
	editing    EditingSettings
	name       any
	visibility int
	moderation int
}

func snapshotRealm(s *State) realmSnapshot {
	return realmSnapshot{s.Editing(), s.RealmSettingValue("name"), s.RealmEmailVisibility(), s.ModerationRequestChannelID()}
}

// fullRealmChange changes a setting of every part of PATCH /realm: an editing setting, a
// group setting, a plain setting, the email visibility and the moderation channel.
func fullRealmChange(s *State) RealmChange {
	limit, visibility, secret := 60, VisibleAdmins, s.channelsByName["secret"].ID
	editing := false
	return RealmChange{
		Editing: EditingChange{
			AllowMessageEditing: &editing,
			Limits:              map[string]*int{"message_content_edit_limit_seconds": &limit},
			Groups: map[string]GroupSettingChange{
				"can_resolve_topics_group": {New: GroupSetting{GroupID: s.systemGroupID("role:moderators")}},
			},
		},
		Plain:             map[string]any{"name": "Renamed Org"},
		EmailVisibility:   &visibility,
		ModerationChannel: &secret,
		ByOwner:           true,
	}
}

func newRecordedRealm(t *testing.T) (*State, *recorder) {
	t.Helper()
	f := indexFixture()
	rec := &recorder{}
	return New(f, clock.New(time.Unix(f.Realm.StartTime, 0)), rec), rec
}

// A PATCH /realm request with one bad part changes nothing and announces nothing, whichever
// part it is: the editing and group settings are checked last but applied first, so a refusal
// there is the one a check-then-apply in several steps would half-apply.
func TestUpdateRealmAllOrNothing(t *testing.T) {
	cases := []struct {
		name  string
		spoil func(s *State, c *RealmChange)
		msg   string
	}{
		{"an unknown plain setting", func(_ *State, c *RealmChange) { c.Plain["no_such_setting"] = true }, "Invalid no_such_setting"},
		{"an email visibility out of range", func(_ *State, c *RealmChange) { v := 99; c.EmailVisibility = &v }, "Invalid email_address_visibility"},
		{"a public moderation channel", func(s *State, c *RealmChange) { id := s.channelsByName["general"].ID; c.ModerationChannel = &id },
			"Moderation request channel must be private."},
		{"an archived moderation channel", func(s *State, _ *RealmChange) {
			if err := s.ArchiveChannel(ownerID(t), s.channelsByName["secret"].ID); err != nil {
				t.Fatalf("archiving: %v", err)
			}
		}, "Invalid channel ID"},
		{"an unknown group", func(_ *State, c *RealmChange) {
			c.Editing.Groups["can_move_messages_between_topics_group"] = GroupSettingChange{New: GroupSetting{GroupID: 9999}}
		}, "Invalid user group"},
		{"a stale old group", func(s *State, c *RealmChange) {
			old := GroupSetting{GroupID: s.systemGroupID("role:nobody")}
			c.Editing.Groups["can_mention_many_users_group"] = GroupSettingChange{New: GroupSetting{GroupID: s.systemGroupID("role:members")}, Old: &old}
		}, "'old' value does not match the expected value."},
		{"an unknown role policy value", func(_ *State, c *RealmChange) { c.Editing.Policies = map[string]int{"edit_topic_policy": 42} },
			"Invalid edit_topic_policy"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s, rec := newRecordedRealm(t)
			change := fullRealmChange(s)
			tc.spoil(s, &change)
			before, announced := snapshotRealm(s), len(rec.properties)
			changed, err := s.UpdateRealm(change)
			if e := apierr.From(err); err == nil || e.Status != 400 || e.Msg != tc.msg {
				t.Fatalf("UpdateRealm: %v (changed %v), want the refusal %q", err, changed, tc.msg)
			}
			if after := snapshotRealm(s); !reflect.DeepEqual(after, before) {
				t.Errorf("a refused change changed the realm:\n before %+v\n after  %+v", before, after)
			}
			if extra := rec.properties[announced:]; len(extra) > 0 {
				t.Errorf("a refused change announced %v", extra)
			}
		})
	}
}

// The same change, unspoiled, changes every part and announces each change once, the editing
// and group settings first (by name), then the plain settings, the email visibility and the
// moderation channel, as PATCH /realm has always announced them.
func TestUpdateRealmAppliesEveryPart(t *testing.T) {
	s, rec := newRecordedRealm(t)
	change := fullRealmChange(s)
	announced := len(rec.properties)
	changed, err := s.UpdateRealm(change)
	if err != nil {
		t.Fatalf("UpdateRealm: %v", err)
	}
	want := []string{"allow_message_editing", "can_resolve_topics_group", "message_content_edit_limit_seconds", "name",
		"email_address_visibility", "moderation_request_channel_id"}
	var realmEvents []string
	for _, p := range rec.properties[announced:] {
		if name, isRealm := strings.CutPrefix(p, "realm:"); isRealm {
			realmEvents = append(realmEvents, name)
		}
	}
	if !reflect.DeepEqual(realmEvents, want) {
		t.Errorf("realm events %v, want %v", realmEvents, want)
	}
	if len(changed) != len(want) {
		t.Errorf("changed %v, want the %d settings %v", changed, len(want), want)
	}
	after := snapshotRealm(s)
	if after.editing.AllowMessageEditing || *after.editing.MessageContentEditLimitSeconds != 60 || after.name != "Renamed Org" ||
		after.visibility != VisibleAdmins || after.moderation != *change.ModerationChannel {
		t.Errorf("after the change: %+v", after)
	}
}

// PATCH /realm naming a channel as the moderation channel races another request archiving it:
// whichever comes first, a refused change has changed no setting, and an accepted one has
// changed them all. Run with -race.
func TestUpdateRealmRacesArchive(t *testing.T) {
	owner := ownerID(t)
	for i := range 40 {
		s, _ := newRecordedRealm(t)
		change := fullRealmChange(s)
		change.Plain["name"] = fmt.Sprint("Renamed ", i)
		before := snapshotRealm(s)
		var updateErr, archiveErr error
		var wg sync.WaitGroup
		wg.Add(2)
		go func() {
			defer wg.Done()
			_, updateErr = s.UpdateRealm(change)
		}()
		go func() {
			defer wg.Done()
			archiveErr = s.ArchiveChannel(owner, *change.ModerationChannel)
		}()
		wg.Wait()
		if archiveErr != nil {
			t.Fatalf("archiving: %v", archiveErr)
		}
		after := snapshotRealm(s)
		switch {
		case updateErr != nil && apierr.From(updateErr).Msg != "Invalid channel ID":
			t.Fatalf("UpdateRealm: %v, want success or the archived channel's refusal", updateErr)
		case updateErr != nil && !reflect.DeepEqual(after, before):
			t.Fatalf("round %d: refused (%v) but changed the realm:\n before %+v\n after  %+v", i, updateErr, before, after)
		case updateErr == nil && after.name != change.Plain["name"]:
			t.Fatalf("round %d: accepted but the name is %v", i, after.name)
		}
	}
}

func ownerID(t *testing.T) int {
	t.Helper()
	owner, ok := indexFixture().UserByRole(fixtures.RoleOwner)
	if !ok {
		t.Fatal("the fixture has no owner")
	}
	return owner.ID
}
