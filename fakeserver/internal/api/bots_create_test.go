package api_test

// POST /bots with the parameters of outgoing-webhook and embedded bots: the service each bot
// gets, read back in register's realm_bots and in the realm_bot add event of its owner.

import (
	"strings"
	"testing"
)

func TestCreateBotServices(t *testing.T) {
	for _, c := range []struct {
		name string
		kv   []string
		// services is realm_bots' services with the token (an outgoing webhook's) as TOKEN.
		services string
	}{
		{"outgoing webhook", []string{"bot_type", "3", "payload_url", `"https://hook.example.test/in"`, "interface_type", "2", "service_name", "relay"},
			`[{"base_url":"https://hook.example.test/in","interface":2,"token":TOKEN}]`},
		{"outgoing webhook, defaults", []string{"bot_type", "3"}, `[{"base_url":"","interface":1,"token":TOKEN}]`},
		{"outgoing webhook ignores config_data", []string{"bot_type", "3", "config_data", `{"key":"value"}`}, `[{"base_url":"","interface":1,"token":TOKEN}]`},
		{"embedded bot with its configuration", []string{"bot_type", "4", "service_name", "helloworld", "config_data", `{"greeting":"hi","b":"2"}`},
			`[{"config_data":{"b":"2","greeting":"hi"},"service_name":"helloworld"}]`},
		{"embedded bot named by its short name", []string{"bot_type", "4", "short_name", "converter"}, `[]`},
		{"generic bot ignores the service", []string{"payload_url", `"https://hook.example.test/in"`, "service_name", "relay"}, `[]`},
		{"incoming webhook keeps config_data unseen", []string{"bot_type", "2", "config_data", `{"key":"value"}`}, `[]`},
	} {
		t.Run(c.name, func(t *testing.T) {
			base := newCheckedServer(t)
			queue := evRegister(t, base, memberAuth, "event_types", `["realm_bot"]`)
			kv := append([]string{"full_name", "Service Bot", "short_name", "service"}, c.kv...)
			for i := 0; i+1 < len(c.kv); i += 2 { // a later short_name wins
				if c.kv[i] == "short_name" {
					kv[3] = c.kv[i+1]
				}
			}
			id := canonical(requireSuccess(t, "create", post(t, base, memberAuth, "/api/v1/bots", kv...))["user_id"])
			var services any
			for _, b := range registerKey(t, base, memberAuth, "realm_bot", "realm_bots").([]any) {
				if bot := b.(map[string]any); canonical(bot["user_id"]) == id {
					services = bot["services"]
				}
			}
			want := c.services
			if list, _ := services.([]any); len(list) == 1 {
				if token, ok := list[0].(map[string]any)["token"]; ok {
					want = strings.ReplaceAll(want, "TOKEN", canonical(token))
				}
			}
			if got := canonical(services); got != want {
				t.Errorf("realm_bots services %s, want %s", got, want)
			}
			added := eventsOfType(evPoll(t, base, memberAuth, queue, -1, true), "realm_bot")
			if len(added) != 1 || added[0]["op"] != "add" || canonical(added[0]["bot"].(map[string]any)["services"]) != want {
				t.Errorf("realm_bot events %v, want one add with services %s", added, want)
			}
		})
	}
}

// Bad service parameters are refused before anything is created.
func TestCreateBotServiceRefusals(t *testing.T) {
	base := newCheckedServer(t)
	before := canonical(registerKey(t, base, memberAuth, "realm_bot", "realm_bots"))
	for _, c := range []struct {
		name string
		kv   []string
		msg  string
	}{
		{"payload_url not a URL", []string{"bot_type", "3", "payload_url", `"not a url"`}, "payload_url is not a URL"},
		{"payload_url not JSON", []string{"bot_type", "3", "payload_url", "https://hook.example.test/in"}, "payload_url is not valid JSON"},
		{"payload_url not a string", []string{"bot_type", "3", "payload_url", "5"}, "payload_url is not a string"},
		{"payload_url with a bad scheme", []string{"bot_type", "3", "payload_url", `"javascript:alert(1)"`}, "payload_url is not a URL"},
		{"unknown interface", []string{"bot_type", "3", "interface_type", "3"}, "Invalid interface type"},
		{"interface zero", []string{"bot_type", "3", "interface_type", "0"}, "Invalid interface type"},
		{"unknown interface on a generic bot", []string{"interface_type", "7"}, "Invalid interface type"},
		{"config_data not a dict", []string{"bot_type", "4", "service_name", "helloworld", "config_data", `["a"]`}, "config_data is not a dict"},
		{"config_data value not a string", []string{"bot_type", "4", "service_name", "helloworld", "config_data", `{"a":1}`}, `config_data["a"] is not a string`},
		{"unknown embedded bot", []string{"bot_type", "4", "service_name", "chess"}, "Invalid embedded bot name."},
		{"embedded bot without a service name", []string{"bot_type", "4"}, "Invalid embedded bot name."},
	} {
		res := post(t, base, memberAuth, "/api/v1/bots", append([]string{"full_name", "Refused Bot", "short_name", "refused"}, c.kv...)...)
		wantRefusal(t, c.name, res, c.msg)
	}
	if after := canonical(registerKey(t, base, memberAuth, "realm_bot", "realm_bots")); after != before {
		t.Errorf("refused creations changed realm_bots:\n%s\nwas\n%s", after, before)
	}
}
