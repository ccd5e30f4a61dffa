package realm

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/chatconform/chatconform/fakeserver/internal/apierr"
	"github.com/chatconform/chatconform/fakeserver/internal/events"
)

// Channel is a channel (stream) of the realm.
type Channel struct {
	ID                         int
	Name                       string
	Description                string
	InviteOnly                 bool
	HistoryPublicToSubscribers bool
	RecipientID                int
	DateCreated                int64
	CreatorID                  int // 0: made by the fixture, shown as null
	FirstMessageID             int // 0 while the channel has no message
	FolderID                   int // 0 while the channel is in no channel folder
	// Archived channels keep their messages and subscribers, as on the real server, but take
	// no new messages and are not found by name.
	Archived    bool
	Subscribers map[int]*Subscription // by user ID
	// Former are the subscriptions users left, with their settings: the register state's
	// unsubscribed, and what subscribing again restores, as on the real server.
	Former map[int]*Subscription
}

// Subscription is one user's membership of a channel and its per-user settings.
type Subscription struct {
	UserID   int
	Color    string
	IsMuted  bool
	PinToTop bool
	// Notification settings: nil follows the user's global setting (shown as null).
	DesktopNotifications   *bool
	AudibleNotifications   *bool
	PushNotifications      *bool
	EmailNotifications     *bool
	WildcardMentionsNotify *bool
}

// maxChannelNameLength is the real server's limit for channel names.
const maxChannelNameLength = 60

var subscriptionColors = []string{"#76ce90", "#fae589", "#a6c7e5", "#e79ab5", "#bfd56f", "#f4ae55"}

func (s *ChannelState) addChannel(name, description string, inviteOnly, historyPublic bool) *Channel {
	ch := &Channel{
		ID: nextID(&s.nextChannel), Name: name, Description: description, InviteOnly: inviteOnly,
		HistoryPublicToSubscribers: historyPublic, DateCreated: s.Now(), Subscribers: map[int]*Subscription{},
		Former: map[int]*Subscription{},
	}
	ch.RecipientID = s.msgs.recipientID("channel:" + strconv.Itoa(ch.ID))
	s.channels[ch.ID] = ch
	s.channelsByName[strings.ToLower(name)] = ch
	return ch
}

func (s *ChannelState) subscribe(ch *Channel, u *User) bool {
	if _, ok := ch.Subscribers[u.ID]; ok {
		return false
	}
	if sub, ok := ch.Former[u.ID]; ok {
		delete(ch.Former, u.ID)
		ch.Subscribers[u.ID] = sub
		return true
	}
	ch.Subscribers[u.ID] = &Subscription{
		UserID: u.ID, Color: subscriptionColors[(ch.ID-1)%len(subscriptionColors)],
	}
	return true
}

func (ch *Channel) subscribed(u *User) bool {
	_, ok := ch.Subscribers[u.ID]
	return ok
}

// canAccess is whether u may see the channel and its content: public channels are open
// to everyone but guests; private channels and guests need a subscription.
func (ch *Channel) canAccess(u *User) bool {
	if ch.InviteOnly || u.IsGuest() {
		return ch.subscribed(u)
	}
	return true
}

// accessibleChannel finds a channel by ID that u may access; otherwise the one error the
// real server gives for missing and inaccessible channels alike.
func (s *ChannelState) accessibleChannel(u *User, id int) (*Channel, error) {
	ch := s.channels[id]
	if ch == nil || !ch.canAccess(u) {
		return nil, apierr.InvalidChannel
	}
	return ch, nil
}

// ChannelIDByName implements GET /get_stream_id.
func (s *ChannelState) ChannelIDByName(userID int, name string) (int, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	ch := s.channelsByName[strings.ToLower(strings.TrimSpace(name))]
	if ch == nil || ch.Archived || !ch.canAccess(s.accts.users[userID]) {
		return 0, apierr.BadRequest("Invalid channel name '%s'", name)
	}
	return ch.ID, nil
}

// archiveTopic is the topic of the notice the real server posts in a channel it archives.
const archiveTopic = "channel events"

// ArchiveChannel implements DELETE /streams/{stream_id}. Organization administrators may archive
// any channel, and its creator this one; another user who can see the channel's content is
// told it may not administer it, and anyone else that the channel does not exist, as the real
// server answers.
func (s *ChannelState) ArchiveChannel(requesterID, channelID int) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	u := s.accts.users[requesterID]
	ch := s.channels[channelID]
	switch {
	case ch == nil:
		return apierr.InvalidChannel
	case !ch.administeredBy(u) && ch.canAccess(u):
		return apierr.BadRequest("You do not have permission to administer this channel.")
	case !ch.administeredBy(u):
		return apierr.InvalidChannel
	case ch.Archived:
		return apierr.BadRequest("Channel is already deactivated")
	}
	// The audience is those who could see the channel before it was archived.
	audience := s.channelAudience(ch)
	ch.Archived = true
	s.publish(events.Event{
		"type": "stream", "op": "update", "stream_id": ch.ID, "name": ch.Name, "property": "is_archived", "value": true,
	}, audience...)
	deleted := events.Event{"type": "stream", "op": "delete", "streams": []any{map[string]any{"stream_id": ch.ID}}, "stream_ids": []int{ch.ID}}
	if s.atLeast(LevelArchivingEvents) {
		deleted["for_archiving"] = true
	}
	s.publish(deleted, audience...)
	// The notice is read for everyone: archiving leaves nobody an unread message.
	s.msgs.sendNotification(ch, archiveTopic, fmt.Sprintf("Channel %s has been archived.", ch.Name), slices.Collect(maps.Keys(ch.Subscribers))...)
	return nil
}

// checkChannelName applies the real server's rules for a channel name, already trimmed.
func checkChannelName(name string) error {
	switch {
	case name == "":
		return apierr.BadRequest("Channel name can't be empty.")
	case utf8.RuneCountInString(name) > maxChannelNameLength:
		return apierr.BadRequest("Channel name too long (limit: %d characters).", maxChannelNameLength)
	case strings.ContainsFunc(name, func(r rune) bool { return r < 0x20 || r == 0x7f }):
		return apierr.BadRequest("Invalid character in channel name.")
	}
	return nil
}

// checkNewChannelDescription applies the real server's limit to a new channel's description.
func checkNewChannelDescription(description string) error {
	if utf8.RuneCountInString(description) > maxChannelDescriptionLength {
		return apierr.BadRequest("Channel description too long (limit: %d characters).", maxChannelDescriptionLength)
	}
	return nil
}

// activeUsers are the users ids name, all or nothing: No such user for an unknown or
// deactivated one, before anything changes.
func (s *ChannelState) activeUsers(ids []int) ([]*User, error) {
	users := make([]*User, 0, len(ids))
	for _, id := range ids {
		u := s.accts.users[id]
		if u == nil || !u.IsActive {
			return nil, apierr.BadRequest("No such user")
		}
		users = append(users, u)
	}
	return users, nil
}

// createChannel adds a checked new channel made by req, with opts' access and folder; its
// history is public unless a private channel keeps it protected, the real server's default.
func (s *ChannelState) createChannel(req *User, sp ChannelSpec, opts SubscribeOptions) *Channel {
	historyPublic := !opts.InviteOnly
	if opts.HistoryPublic != nil {
		historyPublic = *opts.HistoryPublic || !opts.InviteOnly
	}
	ch := s.addChannel(sp.Name, sp.Description, opts.InviteOnly, historyPublic)
	ch.CreatorID, ch.FolderID = req.ID, opts.FolderID
	return ch
}

// ChannelSpec is one channel named in a subscribe request.
type ChannelSpec struct {
	Name        string
	Description string
	Color       string // of the new subscriptions; "" for the default
}

// SubscribeOptions are the creation settings and principals of POST /users/me/subscriptions.
type SubscribeOptions struct {
	InviteOnly    bool
	HistoryPublic *bool // nil: the real server's default (shared for public, protected for private)
	Principals    []int // user IDs; empty means the requester
	FolderID      int   // the channel folder new channels go in; 0 for none
}

// SubscribeResult lists, per user ID, the channel names newly and already subscribed.
type SubscribeResult struct {
	Subscribed        map[string][]string `json:"subscribed"`
	AlreadySubscribed map[string][]string `json:"already_subscribed"`
}

// Subscribe creates missing channels and subscribes the principals, all or nothing.
func (s *ChannelState) Subscribe(requesterID int, specs []ChannelSpec, opts SubscribeOptions) (SubscribeResult, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.subscribeLocked(requesterID, specs, opts)
}

func (s *ChannelState) subscribeLocked(requesterID int, specs []ChannelSpec, opts SubscribeOptions) (SubscribeResult, error) {
	req := s.accts.users[requesterID]
	principals := []*User{req}
	if len(opts.Principals) > 0 {
		var err error
		if principals, err = s.activeUsers(opts.Principals); err != nil {
			return SubscribeResult{}, err
		}
		if req.IsGuest() && (len(principals) > 1 || principals[0].ID != req.ID) {
			return SubscribeResult{}, apierr.BadRequest("Not allowed for guest users")
		}
	}
	// Validate everything before changing anything; the folder first, as the real server does.
	if err := s.checkFolderExists(opts.FolderID); err != nil {
		return SubscribeResult{}, err
	}
	var toCreate []ChannelSpec
	for i, sp := range specs {
		name := strings.TrimSpace(sp.Name)
		specs[i].Name = name
		if err := checkChannelName(name); err != nil {
			return SubscribeResult{}, err
		}
		if err := checkNewChannelDescription(sp.Description); err != nil {
			return SubscribeResult{}, err
		}
		ch := s.channelsByName[strings.ToLower(name)]
		if ch == nil {
			if req.IsGuest() {
				return SubscribeResult{}, apierr.BadRequest("Not allowed for guest users")
			}
			if slices.ContainsFunc(toCreate, func(c ChannelSpec) bool { return strings.EqualFold(c.Name, name) }) {
				continue
			}
			toCreate = append(toCreate, specs[i])
			continue
		}
		if !ch.canAccess(req) {
			return SubscribeResult{}, apierr.BadRequest("Unable to access channel (%s).", name)
		}
	}
	for _, sp := range toCreate {
		s.createChannel(req, sp, opts)
	}
	res := SubscribeResult{Subscribed: map[string][]string{}, AlreadySubscribed: map[string][]string{}}
	added := map[*Channel][]int{}
	for _, sp := range specs {
		ch := s.channelsByName[strings.ToLower(sp.Name)]
		for _, u := range principals {
			key := strconv.Itoa(u.ID)
			if s.subscribe(ch, u) {
				if sp.Color != "" {
					ch.Subscribers[u.ID].Color = sp.Color
				}
				res.Subscribed[key] = appendOnce(res.Subscribed[key], ch.Name)
				added[ch] = append(added[ch], u.ID)
			} else {
				res.AlreadySubscribed[key] = appendOnce(res.AlreadySubscribed[key], ch.Name)
			}
		}
	}
	// Events in the real server's order: the channel exists before anyone is subscribed to it.
	// A private channel's audience is its subscribers, so the state above comes first.
	for _, sp := range toCreate {
		ch := s.channelsByName[strings.ToLower(sp.Name)]
		s.publish(events.Event{"type": "stream", "op": "create", "streams": []ChannelObject{s.channelObject(ch)}}, s.channelAudience(ch)...)
	}
	for _, sp := range specs {
		ch := s.channelsByName[strings.ToLower(sp.Name)]
		s.publishSubscriptionsAdded(ch, added[ch])
		delete(added, ch) // a channel named twice is announced once
	}
	return res, nil
}

// subscriptionEventOptions show a subscription in events as the real server does: with the
// subscribers, and null for notification settings that follow the global ones.
var subscriptionEventOptions = SubscriptionOptions{IncludeSubscribers: true, NotificationSettingsNull: true}

// publishSubscriptionsAdded tells each new subscriber of their subscription, and the other
// users who can see the channel who joined it.
func (s *ChannelState) publishSubscriptionsAdded(ch *Channel, userIDs []int) {
	if len(userIDs) == 0 {
		return
	}
	for _, id := range userIDs {
		s.publish(events.Event{"type": "subscription", "op": "add", "subscriptions": []SubscriptionView{s.subscriptionView(ch, ch.Subscribers[id], subscriptionEventOptions)}}, id)
	}
	var peers []int
	for _, id := range s.channelAudience(ch) {
		if !slices.Contains(userIDs, id) {
			peers = append(peers, id)
		}
	}
	s.publish(events.Event{"type": "subscription", "op": "peer_add", "stream_ids": []int{ch.ID}, "user_ids": userIDs}, peers...)
}

func appendOnce(list []string, v string) []string {
	if slices.Contains(list, v) {
		return list
	}
	return append(list, v)
}

// Topic is an entry of GET /users/me/{stream_id}/topics.
type Topic struct {
	Name  string `json:"name"`
	MaxID int    `json:"max_id"`
}

// String names a channel for logs and errors.
func (ch *Channel) String() string { return fmt.Sprintf("#%s (%d)", ch.Name, ch.ID) }

// channelAudience lists the active users who can see a channel exist: the audience of its
// creation and of updates to its properties.
func (s *ChannelState) channelAudience(ch *Channel) []int {
	var ids []int
	for _, id := range s.accts.activeUserIDs() {
		if ch.canAccess(s.accts.users[id]) || (ch.InviteOnly && s.accts.users[id].IsAdmin()) {
			ids = append(ids, id)
		}
	}
	return ids
}

// channelUpdate publishes a change of one channel property.
func (s *ChannelState) channelUpdate(ch *Channel, property string, value any) {
	s.publish(events.Event{
		"type": "stream", "op": "update", "stream_id": ch.ID, "name": ch.Name, "property": property, "value": value,
	}, s.channelAudience(ch)...)
}
