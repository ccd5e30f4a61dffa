package fakeserver

import (
	"maps"
	"slices"

	"github.com/chatconform/chatconform/fakeserver/internal/apierr"
	"github.com/chatconform/chatconform/fakeserver/internal/events"
)

// serverSettings: GET /server_settings, without credentials.
func (s *Server) serverSettings(c *call) (fields, error) {
	st := s.realm().Settings()
	url := baseURL(c)
	return fields{
		"authentication_methods":          map[string]bool{"password": true, "dev": false, "email": true, "ldap": false, "remoteuser": false, "github": false, "gitlab": false, "google": false, "apple": false, "saml": false, "openid connect": false},
		"external_authentication_methods": []any{},
		"zulip_version":                   st.Version,
		"zulip_merge_base":                st.Version,
		"zulip_feature_level":             st.FeatureLevel,
		"push_notifications_enabled":      s.Config().PushConfigured,
		"is_incompatible":                 false,
		"email_auth_enabled":              true,
		"require_email_format_usernames":  true,
		"realm_url":                       url,
		"realm_uri":                       url,
		"realm_name":                      st.Name,
		"realm_icon":                      url + "/static/images/logo/zulip-icon-128x128.png",
		"realm_description":               "<p>" + st.Name + "</p>",
		"realm_web_public_access_enabled": false,
	}, nil
}

// baseURL is the URL the client reached the fake at.
func baseURL(c *call) string {
	scheme := "http"
	if c.r.TLS != nil {
		scheme = "https"
	}
	return scheme + "://" + c.r.Host
}

// registerGroups maps the event types a client may name to the state they fetch.
var registerGroups = []string{"realm", "realm_linkifiers", "realm_playgrounds"}

// register: POST /register — an event queue and the initial state a client needs.
//
// event_types chooses the events the queue receives (all when absent); fetch_event_types
// chooses the state returned and defaults to event_types. The queue is made before the
// state is read, so a change between the two is at worst seen twice, never lost.
func (s *Server) register(c *call) (fields, error) {
	fetchTypes := stringList(c, "fetch_event_types")
	eventTypes := stringList(c, "event_types")
	wanted := fetchTypes
	if wanted == nil {
		wanted = eventTypes
	}
	for _, name := range []string{"apply_markdown", "client_gravatar", "slim_presence", "all_public_streams", "include_subscribers"} {
		c.p.Bool(name, false)
	}
	jsonOfKind[[]any](c, "narrow", "a list")
	jsonOfKind[map[string]any](c, "client_capabilities", "a dict")
	// Checked, but the queue does not act on them yet: message events always carry HTML,
	// every avatar URL is given, and the queue is not narrowed.
	c.p.Unhonoured("apply_markdown", "client_gravatar", "slim_presence", "all_public_streams",
		"include_subscribers", "narrow", "client_capabilities")
	if err := c.done(); err != nil {
		return nil, err
	}
	queueID, lastEventID := s.hub.Register(events.QueueSpec{UserID: c.user.ID, EventTypes: eventTypes})
	// The API email, as everyone sees it, and the real one, which the user may always see.
	me, aerr := s.realm().UserView(c.user.ID, c.user.ID)
	if aerr != nil {
		return nil, aerr
	}
	fetch := func(group string) bool { return wanted == nil || slices.Contains(wanted, group) }
	st := s.realm().Settings()
	f := fields{
		"zulip_version": st.Version, "zulip_feature_level": st.FeatureLevel, "zulip_merge_base": st.Version,
		"user_id": c.user.ID, "email": me.Email, "delivery_email": me.DeliveryEmail, "full_name": c.user.FullName,
		"has_vcall_token": c.user.HasVCallToken,
		"queue_id":        queueID, "last_event_id": lastEventID,
	}
	if fetch("realm") {
		f["max_topic_length"] = st.MaxTopicLength
		f["max_message_length"] = st.MaxMessageLength
		f["max_stream_name_length"] = 60
		f["max_stream_description_length"] = 1024
		f["realm_empty_topic_display_name"] = st.EmptyTopicDisplayName
		f["realm_name"] = st.Name
		maps.Copy(f, s.realm().Editing().State())
	}
	if fetch("realm_linkifiers") {
		f["realm_linkifiers"] = s.realm().Linkifiers()
	}
	if fetch("realm_playgrounds") {
		f["realm_playgrounds"] = s.realm().Playgrounds()
	}
	// Each area of the API adds the state it owns.
	s.messagingRegisterState(c, fetch, f)
	s.accountRegisterState(c, fetch, f)
	s.integrationRegisterState(c, fetch, f)
	return f, nil
}

// jsonOfKind reads an optional JSON parameter that must decode to T ("<name> is not <kind>").
func jsonOfKind[T any](c *call, name, kind string) (T, bool) {
	var zero T
	v, ok := c.p.JSON(name)
	if !ok {
		return zero, false
	}
	typed, isT := v.(T)
	if !isT {
		c.p.Fail(apierr.BadRequest("%s is not %s", name, kind))
		return zero, false
	}
	return typed, true
}

// stringList reads an optional JSON list of strings; nil when absent.
func stringList(c *call, name string) []string {
	list, ok := jsonOfKind[[]any](c, name, "a list")
	if !ok {
		return nil
	}
	out := make([]string, 0, len(list))
	for i, item := range list {
		str, isStr := item.(string)
		if !isStr {
			c.p.Fail(apierr.BadRequest("%s[%d] is not a string", name, i))
			return nil
		}
		out = append(out, str)
	}
	return out
}
