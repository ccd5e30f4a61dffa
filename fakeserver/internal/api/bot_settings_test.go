package api_test

// PATCH /bots/{bot_id}: a bot's default channels and outgoing webhook, read back in the
// reply, in the realm_bot events of the bot's managers and in register's realm_bots.

import (
	"testing"
)

func TestBotSettings(t *testing.T) {
	base := newCheckedServer(t)
	id := canonical(requireSuccess(t, "create", post(t, base, memberAuth, "/api/v1/bots",
		"full_name", "Hook Bot", "short_name", "hook", "bot_type", "3"))["user_id"])
	queue := evRegister(t, base, memberAuth, "event_types", `["realm_bot"]`)
	realmBot := func() map[string]any {
		for _, b := range registerKey(t, base, memberAuth, "realm_bot", "realm_bots").([]any) {
			if bot := b.(map[string]any); canonical(bot["user_id"]) == id {
				return bot
			}
		}
		t.Fatalf("realm_bots lacks bot %s", id)
		return nil
	}
	token := realmBot()["services"].([]any)[0].(map[string]any)["token"]
	if got := canonical(realmBot()["services"]); got != `[{"base_url":"","interface":1,"token":`+canonical(token)+`}]` {
		t.Errorf("a new outgoing webhook bot's services: %s", got)
	}

	got := requireSuccess(t, "edit", patch(t, base, memberAuth, "/api/v1/bots/"+id,
		"default_sending_stream", "general", "default_events_register_stream", "general", "default_all_public_streams", "true",
		"service_payload_url", `"https://hook.example.test/bot"`, "service_interface", "2", "config_data", `{"key":"value"}`))
	delete(got, "avatar_url")
	delete(got, "result")
	delete(got, "msg")
	want := `{"bot_owner":"member@chat.example.test","config_data":{"key":"value"},"default_all_public_streams":true,` +
		`"default_events_register_stream":"general","default_sending_stream":"general","full_name":"Hook Bot",` +
		`"service_interface":2,"service_payload_url":"https://hook.example.test/bot"}`
	if canonical(got) != want {
		t.Errorf("reply %s\nwant %s", canonical(got), want)
	}
	bot := realmBot()
	if bot["default_sending_stream"] != "general" || bot["default_events_register_stream"] != "general" || bot["default_all_public_streams"] != true ||
		canonical(bot["services"]) != `[{"base_url":"https://hook.example.test/bot","interface":2,"token":`+canonical(token)+`}]` {
		t.Errorf("realm_bots after the change: %v", bot)
	}

	// "" clears a default channel; the other settings stay.
	requireSuccess(t, "clear", patch(t, base, memberAuth, "/api/v1/bots/"+id, "default_sending_stream", ""))
	if bot := realmBot(); bot["default_sending_stream"] != nil || bot["default_events_register_stream"] != "general" {
		t.Errorf("realm_bots after clearing: %v", bot)
	}

	var changed []string
	for _, ev := range eventsOfType(evPoll(t, base, memberAuth, queue, -1, true), "realm_bot") {
		b := ev["bot"].(map[string]any)
		if ev["op"] != "update" || canonical(b["user_id"]) != id || len(b) != 2 {
			t.Errorf("event %v", ev)
		}
		for k, v := range b {
			if k != "user_id" {
				changed = append(changed, k+"="+canonical(v))
			}
		}
	}
	wantEvents := `["default_sending_stream=\"general\"","default_events_register_stream=\"general\"","default_all_public_streams=true",` +
		`"services=[{\"base_url\":\"https://hook.example.test/bot\",\"interface\":2,\"token\":\"` + token.(string) + `\"}]",` +
		`"services=[{\"config_data\":{\"key\":\"value\"}}]","default_sending_stream=null"]`
	if canonical(changed) != wantEvents {
		t.Errorf("realm_bot updates %s\nwant %s", canonical(changed), wantEvents)
	}
}
