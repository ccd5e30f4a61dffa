// Package realm is the fake server's domain layer: the in-memory state of one realm and
// the operations on it, with the real server's rules and errors. It knows nothing of HTTP;
// handlers translate requests into calls here and results back into responses.
//
// All state sits behind one lock: the fake favours obviously-correct concurrency over
// throughput, and every operation is atomic, so a failed request never leaves half a change.
package realm

import (
	"fmt"
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

// State is one realm. Its zero value is not usable; call New.
type State struct {
	mu     sync.RWMutex
	clock  *clock.Clock
	events events.Publisher // every state change is published here, under the lock

	settings Settings
	editing  EditingSettings
	// realmEmailVisibility is the realm's email_address_visibility, which below
	// LevelUserEmailVisibility stands for every user's own.
	realmEmailVisibility int

	users        map[int]*User
	usersByEmail map[string]*User // lower-cased delivery email
	usersByKey   map[string]*User

	channels       map[int]*Channel
	channelsByName map[string]*Channel // lower-cased name

	messages    map[int]*Message
	index       messageIndex   // message ids by topic, channel, sender and unread (message_index.go)
	recipients  map[string]int // recipient key -> recipient id
	playgrounds []*Playground
	linkifiers  []*Linkifier
	presence    map[int]*presence // by user ID
	groups      map[int]*UserGroup

	// The state of each area of the API lives in its own struct and file, so that work on one
	// area does not touch another's: messaging.go (editing, moving, topics, flags),
	// accounts.go (users, groups, authentication), integrations.go (uploads, reminders, bot
	// storage, push devices, video calls).
	messaging    messagingState
	accounts     accountState
	integrations integrationState
	personal     personalState
	organization organizationState
	admin        adminState // invitations and data exports (invites.go, export.go)

	next counters
	// loads counts the fixtures this State loaded: opaque ids (upload path ids) carry it, so
	// that one handed out before a reset never names something created after it.
	loads int
}

// counters hand out IDs in order, so ids are reproducible from one run to the next.
type counters struct {
	user, channel, message, recipient, playground, linkifier, presence, group int
}

// New builds a realm from a fixture, on the given clock, publishing its events to pub.
func New(f *fixtures.Fixture, clk *clock.Clock, pub events.Publisher) *State {
	s := &State{clock: clk, events: pub}
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
	s.users, s.usersByEmail, s.usersByKey = map[int]*User{}, map[string]*User{}, map[string]*User{}
	s.channels, s.channelsByName = map[int]*Channel{}, map[string]*Channel{}
	s.messages, s.recipients, s.index = map[int]*Message{}, map[string]int{}, newMessageIndex()
	s.playgrounds, s.linkifiers = nil, nil
	s.editing = defaultEditing()
	s.realmEmailVisibility = VisibleEveryone
	s.presence = map[int]*presence{}
	s.groups = map[int]*UserGroup{}
	s.next = counters{}
	s.loads++
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
	// Each area sets up its own state last, when users, channels and groups exist.
	s.loadMessaging(f)
	s.loadAccounts(f)
	s.loadIntegrations(f)
	s.loadPersonal()
	s.loadOrganization()
	s.loadAdmin()
}

// Settings returns the realm settings.
// SetFeatureLevel makes the realm a server of another feature level until the next load. A
// version that was the default for the old level follows the level (a fixture's own stays).
func (s *State) SetFeatureLevel(level int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.settings.Version == fixtures.VersionForLevel(s.settings.FeatureLevel) {
		s.settings.Version = fixtures.VersionForLevel(level)
	}
	s.settings.FeatureLevel = level
}

func (s *State) Settings() Settings {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.settings
}

// Now is the realm's virtual time in UNIX seconds.
func (s *State) Now() int64 { return s.clock.Unix() }

// nextID increments one counter and returns the new value.
func nextID(c *int) int {
	*c++
	return *c
}
