// Package realm is the fake server's domain layer: the in-memory state of one realm and
// the operations on it, with the real server's rules and errors. It knows nothing of HTTP;
// handlers translate requests into calls here and results back into responses.
//
// All state sits behind one lock: the fake favours obviously-correct concurrency over
// throughput, and every operation is atomic, so a failed request never leaves half a change.
package realm

import (
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/chatconform/chatconform/fakeserver/internal/clock"
	"github.com/chatconform/chatconform/fakeserver/internal/events"
	"github.com/chatconform/chatconform/fixtures"
)

// Settings are the realm-wide settings and constants clients read from the server.
type Settings struct {
	Name                  string
	Host                  string
	StringID              string
	FeatureLevel          int
	Version               string
	EmptyTopicDisplayName string
	MaxTopicLength        int
	MaxMessageLength      int
	DateCreated           int64 // UNIX seconds: the fixture's start time
	DevelopmentMode       bool  // a development server (POST /dev_fetch_api_key)
}

// State is one realm: the aggregates a reader would name, each with its own data and methods
// (files state_*.go define them and list their files), sharing one lock and what else core
// holds. Their methods are promoted, so callers use State as one value.
type State struct {
	*core
	*MessageState
	*AccountState
	*ChannelState
	*GroupState
	*OrganizationState
	*UserDataState
	*UploadState
}

// core is what every aggregate shares. One lock covers all of them, because many rules span
// aggregates (a message's recipients are a channel's subscribers, a permission is a group
// setting of the organization) and every operation must be atomic. A rule that reaches into
// another aggregate does so through the named pointers below, so each such place is visible.
type core struct {
	mu     sync.RWMutex
	clock  *clock.Clock
	events events.Publisher // every state change is published here, under the lock

	// settings are the realm's identity, limits and feature level, which every rule reads.
	settings Settings
	// loads counts the fixtures this State loaded: opaque ids (upload path ids) carry it, so
	// that one handed out before a reset never names something created after it.
	loads int

	msgs     *MessageState
	accts    *AccountState
	chans    *ChannelState
	grps     *GroupState
	org      *OrganizationState
	userData *UserDataState
	uploads  *UploadState
}

// New builds a realm from a fixture, on the given clock, publishing its events to pub.
func New(f *fixtures.Fixture, clk *clock.Clock, pub events.Publisher) *State {
	c := &core{clock: clk, events: pub}
	c.msgs, c.accts, c.chans, c.grps = &MessageState{core: c}, &AccountState{core: c}, &ChannelState{core: c}, &GroupState{core: c}
	c.org, c.userData, c.uploads = &OrganizationState{core: c}, &UserDataState{core: c}, &UploadState{core: c}
	s := &State{core: c, MessageState: c.msgs, AccountState: c.accts, ChannelState: c.chans, GroupState: c.grps, OrganizationState: c.org,
		UserDataState: c.userData, UploadState: c.uploads}
	s.load(f)
	return s
}

// SeedMessages sends a fixture's messages and their reactions the way the API does (the same
// rendering, recipients, flags and topics), each at its time. A fixture that passed
// fixtures' validation fails here only on what the realm alone knows, such as an unknown
// emoji name.
func (s *State) SeedMessages(f *fixtures.Fixture) error {
	for i, fm := range f.Messages {
		d := Draft{Channel: fm.Channel, Topic: fm.Topic, TopicGiven: fm.Channel != "", Direct: fm.Channel == "",
			Recipients: fm.To, Content: fm.Content, Client: "fixture", Timestamp: fm.Timestamp}
		if d.Timestamp == 0 {
			d.Timestamp = f.Realm.StartTime
		}
		id, err := s.Send(fm.Sender, d)
		if err != nil {
			return fmt.Errorf("fixture messages.%d: %s", i, err.Error())
		}
		for _, r := range fm.Reactions {
			if err := s.AddReaction(r.User, id, ReactionRequest{EmojiName: r.Emoji}); err != nil {
				return fmt.Errorf("fixture messages.%d: reaction %q by %d: %s", i, r.Emoji, r.User, err.Error())
			}
		}
	}
	return nil
}

// Load replaces the whole state with the fixture's, atomically.
func (s *State) Load(f *fixtures.Fixture) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.load(f)
}

func (s *State) load(f *fixtures.Fixture) {
	r := f.Realm
	s.settings = Settings{
		Name: r.Name, Host: r.Host, StringID: r.StringID, FeatureLevel: r.FeatureLevel, Version: r.Version,
		EmptyTopicDisplayName: r.EmptyTopicDisplayName, MaxTopicLength: r.MaxTopicLength, MaxMessageLength: r.MaxMessageLength,
		DateCreated: r.StartTime, DevelopmentMode: r.DevelopmentMode,
	}
	s.loads++
	// Every aggregate starts empty; then the fixture's users, channels and groups go in, in
	// the order the rules between them need.
	s.AccountState.reset()
	s.ChannelState.reset()
	s.MessageState.reset()
	s.GroupState.reset()
	s.OrganizationState.reset()
	s.UserDataState.reset()
	s.UploadState.reset()
	s.addSystemGroups()
	joined := time.Unix(r.StartTime, 0).UTC()
	for _, fu := range f.Users {
		s.addUser(userFromFixture(fu, joined))
	}
	for _, fc := range f.Channels {
		shared := true
		if fc.HistoryPublicToSubscribers != nil {
			shared = *fc.HistoryPublicToSubscribers
		}
		ch := s.addChannel(fc.Name, fc.Description, fc.InviteOnly, shared || !fc.InviteOnly)
		for _, id := range fc.Subscribers {
			s.subscribe(ch, s.users[id])
		}
	}
	s.setDefaultGroupSettings()
	s.loadSystemBots()
	s.loadProfileFields(f)
	s.loadGroups(f)
}

// SetFeatureLevel makes the realm a server of another feature level until the next load. A
// version that was the default for the old level follows the level (a fixture's own stays).
func (s *core) SetFeatureLevel(level int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.settings.Version == fixtures.VersionForLevel(s.settings.FeatureLevel) {
		s.settings.Version = fixtures.VersionForLevel(level)
	}
	s.settings.FeatureLevel = level
}

// Settings returns the realm settings.
func (s *core) Settings() Settings {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.settings
}

// Now is the realm's virtual time in UNIX seconds.
func (s *core) Now() int64 { return s.clock.Unix() }

// nextID increments one counter and returns the new value.
func nextID(c *int) int {
	*c++
	return *c
}

// removeFirst deletes the first element of *list that match picks, reporting whether there
// was one.
func removeFirst[T any](list *[]T, match func(T) bool) bool {
	i := slices.IndexFunc(*list, match)
	if i < 0 {
		return false
	}
	*list = slices.Delete(*list, i, i+1)
	return true
}

// Tick runs what falls due when virtual time moves (the control API's clock): reminder and
// scheduled message delivery and the expiry of unused uploads. It is State's because it spans
// two aggregates: each user's reminders and scheduled messages, and the uploads.
func (s *State) Tick() {
	// The lifetime comes from the server's configuration, which has a lock of its own: read
	// it before taking the realm's, so that the two are never held together.
	s.mu.RLock()
	lifetime := s.unusedUploadSeconds
	s.mu.RUnlock()
	seconds := int64(DefaultUnusedUploadSeconds)
	if lifetime != nil {
		seconds = lifetime()
	}

	s.mu.Lock()
	defer s.mu.Unlock()
	s.deliverDueReminders()
	s.deliverDueScheduled()
	s.expireUnusedUploads(seconds)
}
