package fakeserver

import (
	"crypto/rand"
	"fmt"

	"github.com/chatconform/chatconform/fakeserver/internal/realm"
	"github.com/chatconform/chatconform/fixtures"
)

// Actor acts in the realm as one user, straight through the fake's domain layer (no HTTP, the
// same rules and events as the API): seeding a realm for a test, and reading it back. Get one
// with Server.As.
type Actor struct {
	s  *Server
	id int
}

// Message is a channel message as a user sees it, as GET /messages shows it to them (a copy:
// changing it changes nothing in the fake).
type Message struct {
	ID int
	// ChannelID and Channel (its name) are the channel it was sent to, Topic its topic.
	ChannelID int
	Channel   string
	Topic     string
	// Content is the rendered HTML ("<p>Yes!</p>").
	Content string
	// Timestamp is when it was sent, in UNIX seconds of the virtual clock.
	Timestamp      int64
	SenderID       int
	SenderEmail    string
	SenderFullName string
	// Flags are the viewer's flags on it: "read", "starred", "mentioned", …
	Flags     []string
	Reactions []Reaction
	// LastEditTimestamp and LastMovedTimestamp are when its content was last edited and when
	// it was last moved; 0 if never (or if the realm hides edit history).
	LastEditTimestamp  int64
	LastMovedTimestamp int64
}

// Reaction is one user's emoji reaction to a message.
type Reaction struct {
	// EmojiName is the name, such as "octopus"; EmojiCode and ReactionType identify the
	// emoji as the API does ("1f419", "unicode_emoji").
	EmojiName    string
	EmojiCode    string
	ReactionType string
	UserID       int
}

// messageOf copies the API's view of a message into a Message.
func messageOf(v realm.MessageView) Message {
	m := Message{ID: v.ID, ChannelID: v.StreamID, Topic: v.Subject, Content: v.Content,
		Timestamp: v.Timestamp, SenderID: v.SenderID, SenderEmail: v.SenderEmail, SenderFullName: v.SenderFullName,
		Flags: append([]string(nil), v.Flags...), LastEditTimestamp: v.LastEditTimestamp, LastMovedTimestamp: v.LastMovedTimestamp}
	m.Channel, _ = v.DisplayRecipient.(string)
	for _, r := range v.Reactions {
		m.Reactions = append(m.Reactions, Reaction{EmojiName: r.EmojiName, EmojiCode: r.EmojiCode, ReactionType: r.ReactionType, UserID: r.UserID})
	}
	return m
}

// ChannelKind is a channel's access and history: the three kinds the API document names.
type ChannelKind int

// Channel kinds.
const (
	// Public: anyone in the realm may join and read its history.
	Public ChannelKind = iota
	// PrivateShared: invitation only; a new subscriber reads the history before they joined.
	PrivateShared
	// PrivateProtected: invitation only; a subscriber reads only what came after they joined.
	PrivateProtected
)

// roleCodes are the fixture's role names and the API's role values.
var roleCodes = map[string]int{
	fixtures.RoleOwner: realm.RoleOwner, fixtures.RoleAdmin: realm.RoleAdmin, fixtures.RoleModerator: realm.RoleModerator,
	fixtures.RoleMember: realm.RoleMember, fixtures.RoleGuest: realm.RoleGuest,
}

// ids resolves login emails to user ids.
func (a *Actor) ids(emails []string) ([]int, error) {
	out := make([]int, 0, len(emails))
	for _, e := range emails {
		id, ok := a.s.state.UserIDByLogin(e)
		if !ok {
			return nil, fmt.Errorf("fakeserver: no active user %q", e)
		}
		out = append(out, id)
	}
	return out, nil
}

// Send sends a message to a channel's topic, stamped with the virtual clock's time (move it
// first with SetClock for a message of another time); it returns the message's id.
func (a *Actor) Send(channel, topic, content string) (int, error) {
	id, err := a.s.state.Send(a.id, realm.Draft{Channel: channel, Topic: topic, TopicGiven: true, Content: content, Client: "fakeserver seeding"})
	if err != nil {
		return 0, fmt.Errorf("fakeserver: %w", err)
	}
	return id, nil
}

// SendDirect sends a direct message to the users of the given login emails.
func (a *Actor) SendDirect(content string, to ...string) (int, error) {
	ids, err := a.ids(to)
	if err != nil {
		return 0, err
	}
	id, err := a.s.state.Send(a.id, realm.Draft{Direct: true, Recipients: ids, Content: content, Client: "fakeserver seeding"})
	if err != nil {
		return 0, fmt.Errorf("fakeserver: %w", err)
	}
	return id, nil
}

// CreateChannel creates a channel of the given kind with the actor and the given members
// subscribed.
func (a *Actor) CreateChannel(name string, kind ChannelKind, members ...string) error {
	ids, err := a.ids(members)
	if err != nil {
		return err
	}
	history := kind != PrivateProtected
	opts := realm.SubscribeOptions{InviteOnly: kind != Public, HistoryPublic: &history, Principals: append(ids, a.id)}
	if _, err := a.s.state.Subscribe(a.id, []realm.ChannelSpec{{Name: name}}, opts); err != nil {
		return fmt.Errorf("fakeserver: %w", err)
	}
	return nil
}

// React adds a reaction by emoji name (for example "octopus") to a message.
func (a *Actor) React(messageID int, emoji string) error {
	if err := a.s.state.AddReaction(a.id, messageID, realm.ReactionRequest{EmojiName: emoji}); err != nil {
		return fmt.Errorf("fakeserver: %w", err)
	}
	return nil
}

// CreateUser creates an account with a role ("administrator", "moderator", "member", "guest";
// "owner" needs an owner as the actor) and returns its id; it needs the actor's permission
// to create users, as on the real server.
func (a *Actor) CreateUser(email, fullName, role string) (int, error) {
	code, ok := roleCodes[role]
	if !ok {
		return 0, fmt.Errorf("fakeserver: unknown role %q", role)
	}
	// A password nobody needs: the account's API key authenticates it (Server.As, Client).
	id, err := a.s.state.CreateUser(a.id, email, rand.Text(), fullName)
	if err != nil {
		return 0, fmt.Errorf("fakeserver: %w", err)
	}
	if code != realm.RoleMember {
		if err := a.s.state.UpdateUser(a.id, id, realm.UserUpdate{Role: &code}); err != nil {
			return 0, fmt.Errorf("fakeserver: %w", err)
		}
	}
	return id, nil
}

// CreateGroup creates a user group with the given members and returns its id.
func (a *Actor) CreateGroup(name string, members ...string) (int, error) {
	ids, err := a.ids(members)
	if err != nil {
		return 0, err
	}
	id, err := a.s.state.CreateGroup(a.id, name, "", ids, nil)
	if err != nil {
		return 0, fmt.Errorf("fakeserver: %w", err)
	}
	return id, nil
}

// Messages returns the messages of a channel's topic the actor can read, oldest first, as the
// actor sees them (HTML content, flags): copies.
func (a *Actor) Messages(channel, topic string) ([]Message, error) {
	w, err := a.s.state.Messages(a.id, realm.MessageQuery{Anchor: realm.AnchorOldest, NumAfter: 5000, IncludeAnchor: true,
		Narrow: []realm.NarrowTerm{{Operator: "channel", Operand: channel}, {Operator: "topic", Operand: topic}},
		View:   realm.ViewOptions{ApplyMarkdown: true, AllowEmptyTopicName: true}})
	if err != nil {
		return nil, fmt.Errorf("fakeserver: %w", err)
	}
	out := make([]Message, len(w.Messages))
	for i, v := range w.Messages {
		out[i] = messageOf(v)
	}
	return out, nil
}

// Subscribe subscribes the actor to existing channels by name, as joining them through the
// API would (a public channel, or a private one the actor may join).
func (a *Actor) Subscribe(channels ...string) error {
	specs := make([]realm.ChannelSpec, len(channels))
	for i, name := range channels {
		if _, err := a.s.state.ChannelIDByName(a.id, name); err != nil {
			return fmt.Errorf("fakeserver: channel %q: %w", name, err)
		}
		specs[i] = realm.ChannelSpec{Name: name}
	}
	if _, err := a.s.state.Subscribe(a.id, specs, realm.SubscribeOptions{}); err != nil {
		return fmt.Errorf("fakeserver: %w", err)
	}
	return nil
}

// Subscription is one of a user's subscriptions, as GET /users/me/subscriptions shows it
// (a copy).
type Subscription struct {
	ChannelID int
	Channel   string
	Color     string
	IsMuted   bool
	PinToTop  bool
}

// Subscriptions lists the actor's subscriptions, in channel order.
func (a *Actor) Subscriptions() []Subscription {
	var out []Subscription
	for _, v := range a.s.state.Subscriptions(a.id, realm.SubscriptionOptions{}) {
		out = append(out, Subscription{ChannelID: v.StreamID, Channel: v.Name, Color: v.Color, IsMuted: v.IsMuted, PinToTop: v.PinToTop})
	}
	return out
}

// Flags returns the actor's flags on a message ("read", "starred", "mentioned", …), as
// GET /messages/{id} gives them.
func (a *Actor) Flags(messageID int) ([]string, error) {
	v, _, err := a.s.state.GetMessage(a.id, messageID, realm.ViewOptions{})
	if err != nil {
		return nil, fmt.Errorf("fakeserver: %w", err)
	}
	return append([]string{}, v.Flags...), nil
}

// Bot is a bot an Actor created, with the credentials it authenticates with.
type Bot struct {
	ID     int
	Email  string
	APIKey string
}

// CreateBot creates a generic bot the actor owns, as POST /bots does (the short name makes
// its email, <short name>-bot@<realm host>).
func (a *Actor) CreateBot(fullName, shortName string) (Bot, error) {
	u, err := a.s.state.CreateBot(a.id, realm.NewBot{FullName: fullName, ShortName: shortName, BotType: 1, Interface: 1}, a.s.Config().MaxBotsPerUser)
	if err != nil {
		return Bot{}, fmt.Errorf("fakeserver: %w", err)
	}
	return Bot{ID: u.ID, Email: u.Email, APIKey: u.APIKey}, nil
}

// Upload stores a file for the actor, as POST /user_uploads does, within the configured
// quotas, and returns its URL ("/user_uploads/…"), to link in a message.
func (a *Actor) Upload(name, contentType string, content []byte) (string, error) {
	up, err := a.s.state.UploadFile(a.id, name, contentType, content, a.s.Config().UploadQuota())
	if err != nil {
		return "", fmt.Errorf("fakeserver: %w", err)
	}
	return up.URL, nil
}

// Queue is a live event queue (a copy).
type Queue struct {
	ID     string
	UserID int
	// Pending counts the events not yet acknowledged; Waiting tells whether a long poll is
	// waiting on the queue now.
	Pending int
	Waiting bool
}

// Queues lists the live event queues, by id: what clients registered and have not deleted
// or let expire.
func (s *Server) Queues() []Queue {
	var out []Queue
	for _, q := range s.hub.Queues() {
		out = append(out, Queue{ID: q.ID, UserID: q.UserID, Pending: q.Pending, Waiting: q.Waiting})
	}
	return out
}
