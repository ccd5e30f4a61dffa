package api

import (
	"strconv"
	"strings"

	"github.com/chatconform/chatconform/fakeserver/internal/handler"
	"github.com/chatconform/chatconform/fakeserver/internal/mutation"
	"github.com/chatconform/chatconform/fakeserver/internal/realm"
)

// serverSettings: GET /server_settings, without credentials.
func (s *Service) serverSettings(c *handler.Call) (handler.Fields, error) {
	st := s.realm().Settings()
	url := baseURL(c)
	out := handler.Fields{
		"authentication_methods":          map[string]bool{"password": true, "dev": false, "email": true, "ldap": false, "remoteuser": false, "github": false, "gitlab": false, "google": false, "apple": false, "saml": false, "openid connect": false},
		"external_authentication_methods": []any{},
		"zulip_version":                   st.Version,
		"zulip_merge_base":                st.Version,
		"zulip_feature_level":             st.FeatureLevel,
		"push_notifications_enabled":      s.Config().PushConfigured,
		"is_incompatible":                 false,
		"email_auth_enabled":              true,
		"require_email_format_usernames":  true,
		"realm_uri":                       url,
		"realm_name":                      s.realm().RealmSettingValue("name"),
		"realm_icon":                      url + "/static/images/logo/zulip-icon-128x128.png",
		"realm_description":               s.realm().RealmDescriptionHTML(),
		"realm_web_public_access_enabled": false,
	}
	if mutation.On("feature-level-as-string") {
		out["zulip_feature_level"] = strconv.Itoa(st.FeatureLevel)
	}
	if mutation.On("version-without-minor") {
		out["zulip_version"] = strings.Split(st.Version, ".")[0]
	}
	if st.FeatureLevel >= realm.LevelRealmURL {
		out["realm_url"] = url
	}
	return out, nil
}

// baseURL is the URL the client reached the fake at.
func baseURL(c *handler.Call) string {
	scheme := "http"
	if c.R.TLS != nil {
		scheme = "https"
	}
	return scheme + "://" + c.R.Host
}
