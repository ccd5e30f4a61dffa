package realm

import (
	"regexp"
	"slices"

	"github.com/chatconform/chatconform/fakeserver/internal/apierr"
	"github.com/chatconform/chatconform/fakeserver/internal/events"
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
func CheckSubscriptionValue(property string, value any) *apierr.Error {
	if !slices.Contains(SubscriptionProperties, property) {
		return apierr.BadRequest("Unknown subscription property: %s", property)
	}
	if property == "color" {
		if s, ok := value.(string); !ok || !hexColor.MatchString(s) {
			return apierr.BadRequest("color is not a valid hex color")
		}
		return nil
	}
	if _, ok := value.(bool); !ok {
		return apierr.BadRequest("%s is not a boolean", property)
	}
	return nil
}

// SetSubscriptionProperty changes one setting of the user's subscription. Changing is_muted
// or in_home_view publishes two events, one per property, as the document says.
func (s *State) SetSubscriptionProperty(userID, channelID int, property string, value any) *apierr.Error {
	if err := CheckSubscriptionValue(property, value); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	u := s.users[userID]
	ch, err := s.accessibleChannel(u, channelID)
	if err != nil {
		return err
	}
	sub, ok := ch.Subscribers[userID]
	if !ok {
		return apierr.BadRequest("Not subscribed to channel ID %d", channelID)
	}
	update := func(property string, value any) {
		s.publish(events.Event{"type": "subscription", "op": "update", "stream_id": ch.ID, "property": property, "value": value}, userID)
	}
	switch property {
	case "color":
		sub.Color = value.(string)
		update(property, sub.Color)
	case "is_muted", "in_home_view":
		sub.IsMuted = value.(bool) == (property == "is_muted")
		// The legacy property first, as the real server sends them.
		update("in_home_view", !sub.IsMuted)
		update("is_muted", sub.IsMuted)
	case "pin_to_top":
		sub.PinToTop = value.(bool)
		update(property, sub.PinToTop)
	default:
		b := value.(bool)
		*sub.notification(property) = &b
		update(property, b)
	}
	return nil
}

// notification returns the field of a notification property.
func (sub *Subscription) notification(property string) **bool {
	return map[string]**bool{
		"desktop_notifications": &sub.DesktopNotifications, "audible_notifications": &sub.AudibleNotifications,
		"push_notifications": &sub.PushNotifications, "email_notifications": &sub.EmailNotifications,
		"wildcard_mentions_notify": &sub.WildcardMentionsNotify,
	}[property]
}

// SubscriptionView is an entry of GET /users/me/subscriptions.
type SubscriptionView struct {
	StreamID                   int    `json:"stream_id"`
	Name                       string `json:"name"`
	Description                string `json:"description"`
	InviteOnly                 bool   `json:"invite_only"`
	HistoryPublicToSubscribers bool   `json:"history_public_to_subscribers"`
	FirstMessageID             any    `json:"first_message_id"`
	Color                      string `json:"color"`
	IsMuted                    bool   `json:"is_muted"`
	InHomeView                 bool   `json:"in_home_view"`
	PinToTop                   bool   `json:"pin_to_top"`
	DesktopNotifications       *bool  `json:"desktop_notifications"`
	AudibleNotifications       *bool  `json:"audible_notifications"`
	PushNotifications          *bool  `json:"push_notifications"`
	EmailNotifications         *bool  `json:"email_notifications"`
	WildcardMentionsNotify     *bool  `json:"wildcard_mentions_notify"`
}

// Subscriptions lists the user's subscriptions in channel ID order.
func (s *State) Subscriptions(userID int) []SubscriptionView {
	s.mu.RLock()
	defer s.mu.RUnlock()
	var out []SubscriptionView
	for id := range s.next.channel + 1 {
		ch := s.channels[id]
		if ch == nil {
			continue
		}
		if sub, ok := ch.Subscribers[userID]; ok {
			out = append(out, subscriptionView(ch, sub))
		}
	}
	return out
}

func subscriptionView(ch *Channel, sub *Subscription) SubscriptionView {
	v := SubscriptionView{
		StreamID: ch.ID, Name: ch.Name, Description: ch.Description, InviteOnly: ch.InviteOnly,
		HistoryPublicToSubscribers: ch.HistoryPublicToSubscribers, Color: sub.Color, IsMuted: sub.IsMuted,
		InHomeView: !sub.IsMuted, PinToTop: sub.PinToTop, DesktopNotifications: sub.DesktopNotifications,
		AudibleNotifications: sub.AudibleNotifications, PushNotifications: sub.PushNotifications,
		EmailNotifications: sub.EmailNotifications, WildcardMentionsNotify: sub.WildcardMentionsNotify,
	}
	if ch.FirstMessageID != 0 {
		v.FirstMessageID = ch.FirstMessageID
	}
	return v
}
