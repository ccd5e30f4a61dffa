package fakeserver

import "github.com/chatconform/chatconform/fakeserver/internal/realm"

// updateUserSettingsDefaults: PATCH /realm/user_settings_defaults — the realm's defaults for
// new users' settings; administrators only.
func (s *Server) updateUserSettingsDefaults(c *call) (fields, error) {
	changes := map[string]any{}
	for _, d := range s.realm().UserDefaultSettings() {
		if !c.p.Has(d.Name) {
			continue
		}
		switch d.Kind {
		case realm.SettingBool:
			changes[d.Name] = c.p.Bool(d.Name, false)
		case realm.SettingInt:
			n, _ := c.p.Int(d.Name)
			changes[d.Name] = int(n)
		case realm.SettingString:
			changes[d.Name], _ = c.p.String(d.Name)
		}
	}
	if err := c.done(); err != nil {
		return nil, err
	}
	return fields{}, s.realm().UpdateUserSettingsDefaults(changes)
}
