package fakeserver

import "github.com/chatconform/chatconform/fakeserver/internal/realm"

// realmSettingParams reads the plain organization settings of PATCH /realm that the request
// names, each as its kind: a string as sent, a URL as a JSON string ("default": nil, the
// server's own), days as a JSON integer or "unlimited" (-1), the others JSON-encoded. Integers
// beyond 32 bits are refused here; the settings' own checks are the realm's.
func realmSettingParams(c *call, settings []realm.RealmSetting) map[string]any {
	values := map[string]any{}
	for _, r := range settings {
		if !c.p.Has(r.Name) {
			continue
		}
		switch r.Kind {
		case realm.SettingBool:
			values[r.Name] = c.p.Bool(r.Name, false)
		case realm.SettingString:
			values[r.Name], _ = c.p.String(r.Name)
		case realm.SettingURL:
			if u, ok := jsonOfKind[string](c, r.Name, "a string"); ok {
				values[r.Name] = &u
				if u == "default" {
					values[r.Name] = (*string)(nil)
				}
			}
		case realm.SettingDays:
			if n, unlimited, ok := c.p.IntOrWord(r.Name, "unlimited"); unlimited {
				values[r.Name] = -1
			} else if ok {
				values[r.Name], _ = int32From(c, r.Name, n, -1<<31)
			}
		default: // integers and channel IDs
			if n, ok := c.p.Int(r.Name); ok {
				values[r.Name], _ = int32From(c, r.Name, n, -1<<31)
			}
		}
	}
	return values
}
