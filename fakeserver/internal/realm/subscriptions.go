package realm

import (
	"maps"
	"regexp"
	"slices"
	"strings"

	"github.com/chatconform/chatconform/fakeserver/internal/apierr"
	"github.com/chatconform/chatconform/fakeserver/internal/events"
	"github.com/chatconform/chatconform/fakeserver/internal/mutation"
)

// SubscriptionProperties are the per-user channel settings a client may change, in the
// document's order. in_home_view is the legacy inverse of is_muted.
var SubscriptionProperties = []string{
	"color", "is_muted", "in_home_view", "pin_to_top", "desktop_notifications", "audible_notifications",
	"push_notifications", "email_notifications", "wildcard_mentions_notify",
}

var hexColor = regexp.MustCompile(`^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$`)

// CheckSubscriptionValue validates a property's value before any lookup, as the real server
// parses before it looks the channel up: a hex color string for color, a boolean otherwise.
func CheckSubscriptionValue(property string, value any) error {
	if !slices.Contains(SubscriptionProperties, property) {
		return apierr.BadRequest("Unknown subscription property: %s", property)
	}
	if _, isString := value.(string); mutation.On("color-any-string-accepted") && property == "color" && isString {
		return nil
	}
	if property == "color" {
		if s, ok := value.(string); !ok || !hexColor.MatchString(s) || mutation.On("color-uppercase-hex-refused") && s != strings.ToLower(s) {
			return apierr.BadRequest("color is not a valid hex color")
		}
		return nil
	}
	if _, ok := value.(bool); !ok {
		return apierr.BadRequest("%s is not a boolean", property)
	}
	return nil
}

// SubscriptionChange is one item of POST /users/me/subscriptions/properties.
type SubscriptionChange struct {
	ChannelID int
	Property  string
	Value     any // a bool, or a string for color
}

// SetSubscriptionProperties changes settings of the user's subscriptions in order, all or
// nothing: every change is checked before the first is made.
func (s *ChannelState) SetSubscriptionProperties(userID int, changes []SubscriptionChange) error {
	for _, c := range changes {
		if err := CheckSubscriptionValue(c.Property, c.Value); err != nil {
			return err
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	u := s.accts.users[userID]
	subs := make([]*Subscription, len(changes))
	for i, c := range changes {
		ch, err := s.accessibleChannel(u, c.ChannelID)
		if err != nil {
			return err
		}
		sub, ok := ch.Subscribers[userID]
		if !ok {
			return apierr.BadRequest("Not subscribed to channel ID %d", c.ChannelID)
		}
		subs[i] = sub
	}
	for i, c := range changes {
		s.applySubscriptionProperty(c.ChannelID, subs[i], c.Property, c.Value)
	}
	return nil
}

func (s *ChannelState) applySubscriptionProperty(channelID int, sub *Subscription, property string, value any) {
	update := func(property string, value any) {
		ev := events.Event{"type": "subscription", "op": "update", "stream_id": channelID, "property": property, "value": value}
		if mutation.On("subscription-event-to-every-subscriber") {
			s.publish(ev, s.subscriberIDs(s.channels[channelID])...)
			return
		}
		s.publish(ev, sub.UserID)
	}
	switch property {
	case "color":
		if !mutation.On("color-not-stored") {
			sub.Color = value.(string)
		}
		update(property, sub.Color)
	case "is_muted", "in_home_view":
		if mutation.On("channel-unmute-ignored") && !(value.(bool) == (property == "is_muted")) {
			return
		}
		if mutation.On("in-home-view-true-ignored") && property == "in_home_view" && value.(bool) {
			return
		}
		sub.IsMuted = value.(bool) == (property == "is_muted")
		if mutation.On("in-home-view-not-inverted") {
			sub.IsMuted = value.(bool)
		}
		if mutation.On("in-home-view-one-event") && property == "in_home_view" {
			update(property, value)
			return
		}
		if mutation.On("mute-one-event") {
			update(property, value)
			return
		}
		// The legacy property first, as the real server sends them; alone before the level
		// that added is_muted's.
		update("in_home_view", !sub.IsMuted)
		if s.atLeast(LevelMuteEvents) {
			update("is_muted", sub.IsMuted)
		}
	case "pin_to_top":
		sub.PinToTop = value.(bool) != mutation.On("pin-to-top-inverted")
		update(property, sub.PinToTop)
	default:
		b := value.(bool)
		*sub.notification(property) = &b
		if mutation.On("notification-sets-every-notification") {
			setEveryNotification(sub, b)
		}
		update(property, b)
	}
}

// notification returns the field of a notification property.
func (sub *Subscription) notification(property string) **bool {
	return map[string]**bool{
		"desktop_notifications": &sub.DesktopNotifications, "audible_notifications": &sub.AudibleNotifications,
		"push_notifications": &sub.PushNotifications, "email_notifications": &sub.EmailNotifications,
		"wildcard_mentions_notify": &sub.WildcardMentionsNotify,
	}[property]
}

// SubscriptionView is a subscription as the API shows it: the channel object and the user's
// settings for it.
type SubscriptionView struct {
	ChannelObject
	Color                  string `json:"color"`
	IsMuted                bool   `json:"is_muted"`
	InHomeView             bool   `json:"in_home_view"`
	PinToTop               bool   `json:"pin_to_top"`
	DesktopNotifications   *bool  `json:"desktop_notifications"`
	AudibleNotifications   *bool  `json:"audible_notifications"`
	PushNotifications      *bool  `json:"push_notifications"`
	EmailNotifications     *bool  `json:"email_notifications"`
	WildcardMentionsNotify *bool  `json:"wildcard_mentions_notify"`
	// Subscribers are the channel's subscribers' ids, only when the client asked for them.
	Subscribers []int `json:"subscribers,omitempty"`
}

// SubscriptionOptions are the client's choices for how subscriptions are shown.
type SubscriptionOptions struct {
	// IncludeSubscribers adds each channel's subscribers.
	IncludeSubscribers bool
	// NotificationSettingsNull: the client understands null for "follows the global
	// setting" (client capability notification_settings_null); otherwise the fake, which
	// keeps the global settings at the real server's defaults, fills them in.
	NotificationSettingsNull bool
	// IncludeArchived lists subscriptions to archived channels too.
	IncludeArchived bool
}

// Subscriptions lists the user's subscriptions in channel ID order.
func (s *ChannelState) Subscriptions(userID int, opts SubscriptionOptions) []SubscriptionView {
	s.mu.RLock()
	defer s.mu.RUnlock()
	out := []SubscriptionView{}
	for _, ch := range s.channelsInOrder() {
		if sub, ok := ch.Subscribers[userID]; ok && (opts.IncludeArchived || !ch.Archived) {
			out = append(out, s.subscriptionView(ch, sub, opts))
		}
	}
	return out
}

// channelsInOrder lists the channels in ID order.
func (s *ChannelState) channelsInOrder() []*Channel {
	out := make([]*Channel, 0, len(s.channels))
	for _, id := range slices.Sorted(maps.Keys(s.channels)) {
		out = append(out, s.channels[id])
	}
	return out
}

// globalNotificationDefaults are the real server's defaults of the user-level settings a
// subscription's null notification settings follow.
var globalNotificationDefaults = map[string]bool{
	"desktop_notifications": true, "audible_notifications": true, "push_notifications": true,
	"email_notifications": false, "wildcard_mentions_notify": true,
}

func (s *ChannelState) subscriptionView(ch *Channel, sub *Subscription, opts SubscriptionOptions) SubscriptionView {
	v := SubscriptionView{
		ChannelObject: s.channelObject(ch), Color: sub.Color, IsMuted: sub.IsMuted && !mutation.On("is-muted-shown-false"),
		InHomeView: !sub.IsMuted, PinToTop: sub.PinToTop, DesktopNotifications: sub.DesktopNotifications,
		AudibleNotifications: sub.AudibleNotifications, PushNotifications: sub.PushNotifications,
		EmailNotifications: sub.EmailNotifications, WildcardMentionsNotify: sub.WildcardMentionsNotify,
	}
	if !opts.NotificationSettingsNull {
		for _, f := range []struct {
			name string
			ptr  **bool
		}{
			{"desktop_notifications", &v.DesktopNotifications}, {"audible_notifications", &v.AudibleNotifications},
			{"push_notifications", &v.PushNotifications}, {"email_notifications", &v.EmailNotifications},
			{"wildcard_mentions_notify", &v.WildcardMentionsNotify},
		} {
			if *f.ptr == nil {
				value := globalNotificationDefaults[f.name]
				*f.ptr = &value
			}
		}
	}
	if opts.IncludeSubscribers {
		v.Subscribers = s.subscriberIDs(ch)
	}
	return v
}

// subscriberIDs lists a channel's active subscribers, in ID order.
func (s *ChannelState) subscriberIDs(ch *Channel) []int {
	ids := []int{}
	for _, id := range slices.Sorted(maps.Keys(ch.Subscribers)) {
		if u := s.accts.users[id]; u != nil && u.IsActive {
			ids = append(ids, id)
		}
	}
	return ids
}

// ChannelSubscribers lists a channel's active subscribers in ID order (GET
// /streams/{id}/members), for a requester who may access the channel.
func (s *ChannelState) ChannelSubscribers(userID, channelID int) ([]int, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	ch, err := s.accessibleChannel(s.accts.users[userID], channelID)
	if err != nil {
		return nil, err
	}
	return s.subscriberIDs(ch), nil
}

// ChannelEmailAddress is the address that posts to a channel by email (GET
// /streams/{id}/email_address). The fake has no email gateway, so it is empty, as on a real
// server without one (EMAIL_GATEWAY_PATTERN unset); the channel is checked all the same.
func (s *ChannelState) ChannelEmailAddress(userID, channelID int) (string, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if _, err := s.accessibleChannel(s.accts.users[userID], channelID); err != nil {
		return "", err
	}
	return "", nil
}

// IsSubscribed tells whether a user is subscribed to a channel the requester may access (GET
// /users/{id}/subscriptions/{stream_id}); bots may be asked about from LevelBotSubscriptionStatus.
func (s *ChannelState) IsSubscribed(requesterID, targetID, channelID int) (bool, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	target := s.accts.users[targetID]
	if target == nil || (target.IsBot && !s.atLeast(LevelBotSubscriptionStatus)) {
		return false, apierr.NoSuchUser
	}
	ch, err := s.accessibleChannel(s.accts.users[requesterID], channelID)
	if err != nil {
		return false, err
	}
	return ch.subscribed(target), nil
}

// UnsubscribeResult names, once per user and channel, the subscriptions a DELETE
// /users/me/subscriptions removed and those it did not because there were none.
type UnsubscribeResult struct {
	Removed    []string `json:"removed"`
	NotRemoved []string `json:"not_removed"`
}

// Unsubscribe removes the principals' subscriptions to the named channels (the requester's
// when principals is empty), all or nothing, as the real server's remove_subscriptions.
// Removing anyone but oneself or one's own bots needs the channel's remove-subscribers
// permission (administrators by default) or to administer the channel (its creator).
func (s *ChannelState) Unsubscribe(requesterID int, names []string, principals []int) (UnsubscribeResult, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.unsubscribeLocked(requesterID, names, principals)
}

func (s *ChannelState) unsubscribeLocked(requesterID int, names []string, principals []int) (UnsubscribeResult, error) {
	req := s.accts.users[requesterID]
	targets := []*User{req}
	others := false
	if len(principals) > 0 {
		targets = targets[:0]
		for _, id := range principals {
			u := s.accts.users[id]
			if u == nil || !u.IsActive {
				return UnsubscribeResult{}, apierr.NoSuchUser
			}
			if !slices.Contains(targets, u) {
				targets = append(targets, u)
			}
			others = others || (u.ID != req.ID && !(u.IsBot && u.BotOwnerID == req.ID))
		}
	}
	// Names are checked, then the permission on the channels that exist, then whether all
	// exist, in the real server's order.
	var channels []*Channel
	var missing []string
	for _, raw := range names {
		name := strings.TrimSpace(raw)
		if err := checkChannelName(name); err != nil {
			return UnsubscribeResult{}, err
		}
		ch := s.channelsByName[strings.ToLower(name)]
		switch {
		case ch == nil:
			missing = append(missing, name)
		case !slices.Contains(channels, ch):
			channels = append(channels, ch)
		}
	}
	if others {
		for _, ch := range channels {
			if !ch.administeredBy(req) {
				return UnsubscribeResult{}, apierr.BadRequest("Insufficient permission")
			}
		}
	}
	if len(missing) > 0 {
		return UnsubscribeResult{}, apierr.BadRequest("Channel(s) (%s) do not exist", strings.Join(missing, ", "))
	}
	res := UnsubscribeResult{Removed: []string{}, NotRemoved: []string{}}
	removed := map[*Channel][]int{}
	for _, u := range targets {
		var gone []*Channel
		for _, ch := range channels {
			if _, ok := ch.Subscribers[u.ID]; !ok {
				res.NotRemoved = append(res.NotRemoved, ch.Name)
				continue
			}
			ch.Former[u.ID] = ch.Subscribers[u.ID]
			delete(ch.Subscribers, u.ID)
			res.Removed = append(res.Removed, ch.Name)
			removed[ch] = append(removed[ch], u.ID)
			gone = append(gone, ch)
		}
		s.publishSubscriptionsRemoved(u, gone)
	}
	for _, ch := range channels {
		s.publishPeersRemoved(ch, removed[ch])
	}
	return res, nil
}

// publishSubscriptionsRemoved tells a user of the subscriptions they lost. A channel the user
// can no longer see (private, or any for a guest) is deleted from their view, and its
// messages unread by them are marked read, as the real server's deferred work does for every
// removed subscription.
func (s *ChannelState) publishSubscriptionsRemoved(u *User, channels []*Channel) {
	if len(channels) == 0 {
		return
	}
	gone := make([]map[string]any, 0, len(channels))
	var hidden []int
	for _, ch := range channels {
		gone = append(gone, map[string]any{"name": ch.Name, "stream_id": ch.ID})
		if !ch.seesMetadata(u) { // a private channel, or any channel for a guest
			hidden = append(hidden, ch.ID)
		}
	}
	s.publish(events.Event{"type": "subscription", "op": "remove", "subscriptions": gone}, u.ID)
	s.publishChannelsHidden(hidden, u.ID)
	for _, ch := range channels {
		s.msgs.markRead(u.ID, func(m *Message) bool { return !m.IsDirect && m.ChannelID == ch.ID })
	}
}

// publishPeersRemoved tells the users who still see a channel who left it.
func (s *ChannelState) publishPeersRemoved(ch *Channel, userIDs []int) {
	if len(userIDs) == 0 {
		return
	}
	var peers []int
	for _, id := range s.channelAudience(ch) {
		if !slices.Contains(userIDs, id) {
			peers = append(peers, id)
		}
	}
	s.publish(events.Event{"type": "subscription", "op": "peer_remove", "stream_ids": []int{ch.ID}, "user_ids": userIDs}, peers...)
}

// publishChannelsHidden tells users that channels left their view, in the real server's
// stream deletion event (its streams list is deprecated and carries only the IDs).
func (s *ChannelState) publishChannelsHidden(channelIDs []int, userIDs ...int) {
	if len(channelIDs) == 0 {
		return
	}
	streams := make([]map[string]any, 0, len(channelIDs))
	for _, id := range channelIDs {
		streams = append(streams, map[string]any{"stream_id": id})
	}
	deleted := events.Event{"type": "stream", "op": "delete", "streams": streams, "stream_ids": channelIDs}
	if s.atLeast(LevelArchivingEvents) {
		deleted["for_archiving"] = false
	}
	s.publish(deleted, userIDs...)
}

// Unsubscribed lists the subscriptions the user left (the register state's unsubscribed), in
// channel ID order, with the channel's subscribers when asked for and the user may see them.
func (s *ChannelState) Unsubscribed(userID int, opts SubscriptionOptions) []SubscriptionView {
	s.mu.RLock()
	defer s.mu.RUnlock()
	u := s.accts.users[userID]
	out := []SubscriptionView{}
	for _, ch := range s.channelsInOrder() {
		sub, ok := ch.Former[userID]
		if !ok || (ch.Archived && !opts.IncludeArchived) {
			continue
		}
		v := s.subscriptionView(ch, sub, SubscriptionOptions{NotificationSettingsNull: opts.NotificationSettingsNull})
		if opts.IncludeSubscribers && ch.canAccess(u) {
			v.Subscribers = s.subscriberIDs(ch)
		}
		out = append(out, v)
	}
	return out
}
