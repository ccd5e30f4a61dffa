package api

import (
	"github.com/chatconform/chatconform/fakeserver/internal/handler"
	"github.com/chatconform/chatconform/fakeserver/internal/realm"
)

// realmSettingParams reads the plain organization settings of PATCH /realm that the request
// names, each as its kind: a string as sent, a URL as a JSON string ("default": nil, the
// server's own), days as a JSON integer or "unlimited" (-1), the others JSON-encoded. Integers
// beyond 32 bits are refused here; the settings' own checks are the realm's.
func realmSettingParams(c *handler.Call, settings []realm.RealmSetting) map[string]any {
	values := map[string]any{}
	for _, r := range settings {
		if !c.P.Has(r.Name) {
			continue
		}
		switch r.Kind {
		case realm.SettingBool:
			values[r.Name] = c.P.Bool(r.Name, false)
		case realm.SettingString:
			values[r.Name], _ = c.P.String(r.Name)
		case realm.SettingURL:
			if u, ok := jsonOfKind[string](c, r.Name, "a string"); ok {
				values[r.Name] = &u
				if u == "default" {
					values[r.Name] = (*string)(nil)
				}
			}
		case realm.SettingDays:
			if n, unlimited, ok := c.P.IntOrWord(r.Name, "unlimited"); unlimited {
				values[r.Name] = -1
			} else if ok {
				values[r.Name], _ = int32From(c, r.Name, n, -1<<31)
			}
		default: // integers and channel IDs
			if n, ok := c.P.Int(r.Name); ok {
				values[r.Name], _ = int32From(c, r.Name, n, -1<<31)
			}
		}
	}
	return values
}
