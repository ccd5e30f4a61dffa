package api

import (
	"github.com/chatconform/chatconform/fakeserver/internal/handler"
	"github.com/chatconform/chatconform/fakeserver/internal/realm"
)

// updateUserSettingsDefaults: PATCH /realm/user_settings_defaults — the realm's defaults for
// new users' settings; administrators only.
func (s *Service) updateUserSettingsDefaults(c *handler.Call) (handler.Fields, error) {
	changes := userSettingParams(c, s.realm().UserDefaultSettings())
	if err := c.Done(); err != nil {
		return nil, err
	}
	return handler.Fields{}, s.realm().UpdateUserSettingsDefaults(changes)
}

// userSettingParams reads the user settings of rules that the request names, each as its kind;
// PATCH /settings and the realm's defaults share it, as they share the settings' checks.
func userSettingParams(c *handler.Call, rules []realm.UserDefaultSetting) map[string]any {
	values := map[string]any{}
	for _, d := range rules {
		if !c.P.Has(d.Name) {
			continue
		}
		switch d.Kind {
		case realm.SettingBool:
			values[d.Name] = c.P.Bool(d.Name, false)
		case realm.SettingInt:
			n, _ := c.P.Int(d.Name)
			values[d.Name] = int(n)
		case realm.SettingString:
			values[d.Name], _ = c.P.String(d.Name)
		}
	}
	return values
}
