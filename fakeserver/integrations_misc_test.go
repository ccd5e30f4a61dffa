package fakeserver_test

// Reminders, push devices, video calls, bot storage and linkifier order over HTTP: the flows
// the bad-input table cannot show.

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/chatconform/chatconform/fakeserver/internal/realm"
)

func integConfig(t *testing.T, base string, kv ...string) {
	t.Helper()
	requireSuccess(t, "config", do(t, base, request{method: http.MethodPatch, path: "/_fake/config", body: formBody(kv...), contentType: formType}))
}

func integAdvance(t *testing.T, base string, seconds int64) {
	t.Helper()
	requireSuccess(t, "clock", post(t, base, "", "/_fake/clock", "advance", fmt.Sprint(seconds)))
}

func TestReminderIsDeliveredByTheNotificationBotAtItsTime(t *testing.T) {
	ts := newServer(t)
	target := integSend(t, ts.URL, ownerAuth, "the **message** to remember")
	at := defaultFixture.Realm.StartTime + 600
	env := requireSuccess(t, "reminder", post(t, ts.URL, memberAuth, "/api/v1/reminders",
		"message_id", fmt.Sprint(target), "scheduled_delivery_timestamp", fmt.Sprint(at), "note", "  call back\n"))
	reminderID := env["reminder_id"]

	listed := requireSuccess(t, "reminders", get(t, ts.URL, memberAuth, "/api/v1/reminders", ""))["reminders"].([]any)
	r := listed[0].(map[string]any)
	if len(listed) != 1 || r["reminder_id"] != reminderID || r["message_id"] != float64(target) || r["note"] != "  call back" ||
		r["scheduled_delivery_timestamp"] != float64(at) || r["type"] != "private" || r["failed"] != false {
		t.Errorf("GET /reminders: %v", listed)
	}
	state := requireSuccess(t, "register", post(t, ts.URL, memberAuth, "/api/v1/register", "fetch_event_types", `["reminders"]`))
	if got, _ := state["reminders"].([]any); len(got) != 1 {
		t.Errorf("registration state reminders: %v", state["reminders"])
	}

	queue := evRegister(t, ts.URL, memberAuth, "event_types", `["message"]`)
	integAdvance(t, ts.URL, 599)
	if evs := evPoll(t, ts.URL, memberAuth, queue, -1, true); len(evs) != 0 {
		t.Fatalf("delivered early: %v", evs)
	}
	integAdvance(t, ts.URL, 1)
	evs := evPoll(t, ts.URL, memberAuth, queue, -1, true)
	if len(evs) != 1 {
		t.Fatalf("events at the scheduled time: %v", evs)
	}
	m := evs[0]["message"].(map[string]any)
	content, _ := m["content"].(string)
	if m["sender_full_name"] != "Notification Bot" || m["type"] != "private" || m["timestamp"] != float64(at) ||
		!strings.Contains(content, "call back") || !strings.Contains(content, fmt.Sprintf("/near/%d", target)) ||
		!strings.Contains(content, "the **message** to remember") {
		t.Errorf("reminder message: %v", m)
	}
	got := requireSuccess(t, "fetch", get(t, ts.URL, memberAuth, fmt.Sprintf("/api/v1/messages/%v", m["id"]), "apply_markdown=false"))
	raw := got["raw_content"].(string)
	if !strings.HasPrefix(raw, "You requested a reminder for [#general > files @ 💬](/#narrow/channel/1-general/topic/files/near/") ||
		!strings.Contains(raw, " Note:\n >   call back\n\n@_**Olivia Owner|1** [said]") {
		t.Errorf("reminder content: %q", raw)
	}
	if left := requireSuccess(t, "reminders", get(t, ts.URL, memberAuth, "/api/v1/reminders", ""))["reminders"].([]any); len(left) != 0 {
		t.Errorf("a delivered reminder is still listed: %v", left)
	}
}

func TestReminderOfADeletedMessageFails(t *testing.T) {
	ts := newServer(t)
	target := integSend(t, ts.URL, memberAuth, "soon gone")
	requireSuccess(t, "reminder", post(t, ts.URL, memberAuth, "/api/v1/reminders",
		"message_id", fmt.Sprint(target), "scheduled_delivery_timestamp", fmt.Sprint(defaultFixture.Realm.StartTime+60)))
	requireSuccess(t, "delete", do(t, ts.URL, request{method: http.MethodDelete, path: fmt.Sprintf("/api/v1/messages/%d", target), auth: adminAuth}))
	queue := evRegister(t, ts.URL, memberAuth, "event_types", `["message"]`)
	integAdvance(t, ts.URL, 60)
	if evs := evPoll(t, ts.URL, memberAuth, queue, -1, true); len(evs) != 0 {
		t.Errorf("a reminder of a deleted message was delivered: %v", evs)
	}
	listed := requireSuccess(t, "reminders", get(t, ts.URL, memberAuth, "/api/v1/reminders", ""))["reminders"].([]any)
	if len(listed) != 1 || listed[0].(map[string]any)["failed"] != true {
		t.Errorf("GET /reminders: %v; want the reminder, failed", listed)
	}
}

// integRegistration returns the parameters of a full E2EE registration of a device.
func integRegistration(device, keyID, token string) []string {
	return []string{"device_id", device, "token_kind", "fcm", "push_key", integPushKey, "push_key_id", keyID,
		"bouncer_public_key", integBlob, "encrypted_push_registration", integBlob, "token_id", realm.LegacyTokenID(token)}
}

func TestPushRegistrationNeedsTheServiceAfterTheParameters(t *testing.T) {
	ts := newServer(t)
	res := post(t, ts.URL, memberAuth, "/api/v1/mobile_push/register")
	checkBad(t, badCase{want: missing("device_id")}, res)
	res = post(t, ts.URL, memberAuth, "/api/v1/mobile_push/register", integRegistration("1", "1", "t")...)
	checkBad(t, badCase{want: bad(400, "PUSH_SERVICE_NOT_CONFIGURED", "Server is not configured to use push notification service.")}, res)
}

func TestPushRegistrationAndRotation(t *testing.T) {
	ts := newServer(t)
	integConfig(t, ts.URL, "push_configured", "true")
	device := fmt.Sprint(requireSuccess(t, "device", post(t, ts.URL, memberAuth, "/api/v1/register_client_device"))["device_id"])
	queue := evRegister(t, ts.URL, memberAuth, "event_types", `["device"]`)
	devices := func() map[string]any {
		state := requireSuccess(t, "register", post(t, ts.URL, memberAuth, "/api/v1/register", "fetch_event_types", `["device"]`))
		return state["devices"].(map[string]any)[device].(map[string]any)
	}
	if d := devices(); d["push_key_id"] != nil || d["push_token_id"] != nil {
		t.Errorf("a new device: %v", d)
	}

	requireSuccess(t, "register", post(t, ts.URL, memberAuth, "/api/v1/mobile_push/register", integRegistration(device, "7", "first")...))
	requireSuccess(t, "again, identical", post(t, ts.URL, memberAuth, "/api/v1/mobile_push/register", integRegistration(device, "7", "first")...))
	if d := devices(); d["push_key_id"] != float64(7) || d["push_token_id"] != realm.LegacyTokenID("first") || d["pending_push_token_id"] != nil {
		t.Errorf("after registration: %v", d)
	}
	requireSuccess(t, "rotate key", post(t, ts.URL, memberAuth, "/api/v1/mobile_push/register", "device_id", device, "push_key", integPushKey, "push_key_id", "4294967295"))
	requireSuccess(t, "rotate token", post(t, ts.URL, memberAuth, "/api/v1/mobile_push/register", "device_id", device, "token_kind", "apns",
		"token_id", realm.LegacyTokenID("second"), "bouncer_public_key", integBlob, "encrypted_push_registration", integBlob))
	if d := devices(); d["push_key_id"] != float64(4294967295) || d["push_token_id"] != realm.LegacyTokenID("second") {
		t.Errorf("after rotations: %v", d)
	}
	if evs := evPoll(t, ts.URL, memberAuth, queue, -1, true); len(evs) != 3 {
		t.Errorf("device events %v: want one per change (registration, key, token)", evs)
	}
	if other := requireSuccess(t, "register", post(t, ts.URL, ownerAuth, "/api/v1/register", "fetch_event_types", `["device"]`)); len(other["devices"].(map[string]any)) != 0 {
		t.Errorf("the owner sees the member's devices: %v", other["devices"])
	}
}

// earlyRegistration is the real server's push registration of levels 432 to 467.
func earlyRegistration(account string) []string {
	return []string{"token_kind", "fcm", "push_account_id", account, "push_key", integPushKey,
		"bouncer_public_key", integBlob, "encrypted_push_registration", integBlob}
}

// Between levels 406 and 467 push registration had the real server's earlier form: a push
// account ID instead of a device, every field required, push_devices and push_device events.
func TestEarlyPushRegistration(t *testing.T) {
	ts := newServerAt(t, 450)
	res := post(t, ts.URL, memberAuth, "/api/v1/mobile_push/register", "push_account_id", "5")
	checkBad(t, badCase{want: missing("token_kind")}, res)
	res = post(t, ts.URL, memberAuth, "/api/v1/mobile_push/register", earlyRegistration("5")[:4]...)
	checkBad(t, badCase{want: missing("push_key")}, res)
	res = post(t, ts.URL, memberAuth, "/api/v1/mobile_push/register", earlyRegistration("5")...)
	checkBad(t, badCase{want: badRequest("Server is not configured to use push notification service.")}, res)
	checkBad(t, badCase{want: notFound404}, post(t, ts.URL, memberAuth, "/api/v1/register_client_device"))

	integConfig(t, ts.URL, "push_configured", "true")
	queue := evRegister(t, ts.URL, memberAuth, "event_types", `["push_device"]`)
	requireSuccess(t, "register", post(t, ts.URL, memberAuth, "/api/v1/mobile_push/register", earlyRegistration("5")...))
	requireSuccess(t, "again", post(t, ts.URL, memberAuth, "/api/v1/mobile_push/register", earlyRegistration("5")...))
	evs := evPoll(t, ts.URL, memberAuth, queue, -1, true)
	if len(evs) != 1 || evs[0]["type"] != "push_device" || evs[0]["push_account_id"] != float64(5) || evs[0]["status"] != "active" {
		t.Errorf("events %v: want one push_device event, account 5 (an integer from level 450) active", evs)
	}
	state := requireSuccess(t, "register", post(t, ts.URL, memberAuth, "/api/v1/register", "fetch_event_types", `["push_device","device"]`))
	if d, _ := state["push_devices"].(map[string]any); len(d) != 1 || d["5"].(map[string]any)["status"] != "active" {
		t.Errorf("push_devices %v: want account 5 active", state["push_devices"])
	}
	if _, ok := state["devices"]; ok {
		t.Errorf("devices in register below level %d: %v", realm.LevelPushRedesign, state["devices"])
	}
}

func TestE2EERegistrationReplacesTheLegacyOneOfTheSameToken(t *testing.T) {
	ts := newServer(t)
	integConfig(t, ts.URL, "push_configured", "true")
	device := fmt.Sprint(requireSuccess(t, "device", post(t, ts.URL, memberAuth, "/api/v1/register_client_device"))["device_id"])
	for _, token := range []string{"replaced", "kept"} {
		requireSuccess(t, "legacy", post(t, ts.URL, memberAuth, "/api/v1/users/me/android_gcm_reg_id", "token", token))
	}
	requireSuccess(t, "owner's legacy", post(t, ts.URL, ownerAuth, "/api/v1/users/me/android_gcm_reg_id", "token", "replaced"))
	requireSuccess(t, "register", post(t, ts.URL, memberAuth, "/api/v1/mobile_push/register", integRegistration(device, "1", "replaced")...))

	remove := func(auth, token string) response {
		return do(t, ts.URL, request{method: http.MethodDelete, path: "/api/v1/users/me/android_gcm_reg_id", auth: auth,
			body: formBody("token", token), contentType: formType})
	}
	checkBad(t, badCase{want: bad(400, "INVALID_PUSH_DEVICE_TOKEN", "Device not recognized")}, remove(memberAuth, "replaced"))
	requireSuccess(t, "the other token stays", remove(memberAuth, "kept"))
	requireSuccess(t, "another user's stays", remove(ownerAuth, "replaced"))
}

func TestVideoCalls(t *testing.T) {
	ts := newServer(t)
	create := func(auth string) response { return post(t, ts.URL, auth, "/api/v1/calls/vcall/create") }
	requireSuccess(t, "token", post(t, ts.URL, "", "/_fake/vcall_token", "user_id", "4"))
	checkBad(t, badCase{want: badRequest("Video call credentials have not been configured")}, create(memberAuth))
	integConfig(t, ts.URL, "video_calls_configured", "true")
	checkBad(t, badCase{want: bad(400, "INVALID_VIDEO_CALL_PROVIDER_TOKEN", "")}, create(ownerAuth))
	first := requireSuccess(t, "call", create(memberAuth))["url"]
	second := requireSuccess(t, "call", create(memberAuth))["url"]
	if !strings.HasPrefix(fmt.Sprint(first), "https://") || first == second {
		t.Errorf("meeting URLs %v and %v: want two distinct https URLs", first, second)
	}
	if got := requireSuccess(t, "extra parameter", post(t, ts.URL, memberAuth, "/api/v1/calls/vcall/create", "is_video_call", "true")); fmt.Sprint(got["ignored_parameters_unsupported"]) != "[is_video_call]" {
		t.Errorf("a parameter of the Zoom endpoint was not reported unsupported: %v", got)
	}
}

func TestBotStorage(t *testing.T) {
	ts := newServer(t)
	put := func(storage string) response {
		return do(t, ts.URL, request{method: http.MethodPut, path: "/api/v1/bot_storage", auth: botAuth, body: formBody("storage", storage), contentType: formType})
	}
	storage := func(query string) any {
		return requireSuccess(t, "get", get(t, ts.URL, botAuth, "/api/v1/bot_storage", query))["storage"]
	}
	requireSuccess(t, "put", put(`{"a":"1","b":"2","c":"3"}`))
	requireSuccess(t, "replace", put(`{"a":"one"}`))
	if got := fmt.Sprint(storage("keys=" + `["a","c"]`)); got != "map[a:one c:3]" {
		t.Errorf("GET with keys: %s", got)
	}
	// An empty list names no key and removes nothing; only an omitted keys removes everything
	// (the real server's remove_storage takes all keys only when keys is None).
	requireSuccess(t, "delete nothing with []", do(t, ts.URL, request{method: http.MethodDelete, path: "/api/v1/bot_storage", auth: botAuth,
		body: formBody("keys", "[]"), contentType: formType}))
	if got := fmt.Sprint(storage("")); got != "map[a:one b:2 c:3]" {
		t.Errorf("after deleting with an empty list: %s", got)
	}
	requireSuccess(t, "delete all without keys", do(t, ts.URL, request{method: http.MethodDelete, path: "/api/v1/bot_storage", auth: botAuth}))
	if got := fmt.Sprint(storage("")); got != "map[]" {
		t.Errorf("after deleting without keys: %s", got)
	}
	// The limit counts keys and values, in characters (é is one).
	limit := realm.BotStorageLimit
	requireSuccess(t, "up to one below the limit", put(`{"k":"`+strings.Repeat("v", limit-3)+`é"}`))
	requireSuccess(t, "up to the limit", put(`{"x":""}`))
	requireSuccess(t, "deleting x", do(t, ts.URL, request{method: http.MethodDelete, path: "/api/v1/bot_storage", auth: botAuth,
		body: formBody("keys", `["x"]`), contentType: formType}))
	res := put(`{"xy":""}`)
	checkBad(t, badCase{want: badRequest(fmt.Sprintf("Request exceeds storage limit by 1 characters. The limit is %d characters.", limit))}, res)
}

func TestLinkifierOrderAndUpdate(t *testing.T) {
	ts := newServer(t)
	var ids []string
	for i := range 3 {
		env := requireSuccess(t, "add", post(t, ts.URL, ownerAuth, "/api/v1/realm/filters",
			"pattern", fmt.Sprintf("L%d-(?P<id>[0-9]+)", i), "url_template", "https://l.example/{id}"))
		ids = append(ids, fmt.Sprint(env["id"]))
	}
	order := func() string {
		list := requireSuccess(t, "list", get(t, ts.URL, memberAuth, "/api/v1/realm/linkifiers", ""))["linkifiers"].([]any)
		var got []string
		for _, l := range list {
			got = append(got, fmt.Sprint(l.(map[string]any)["id"]))
		}
		return strings.Join(got, ",")
	}
	reorder := func(list string) response {
		return do(t, ts.URL, request{method: http.MethodPatch, path: "/api/v1/realm/linkifiers", auth: adminAuth,
			body: formBody("ordered_linkifier_ids", list), contentType: formType})
	}
	requireSuccess(t, "reorder", reorder(fmt.Sprintf("[%s,%s,%s]", ids[2], ids[0], ids[1])))
	if got := order(); got != ids[2]+","+ids[0]+","+ids[1] {
		t.Errorf("order %s", got)
	}
	requireSuccess(t, "update", do(t, ts.URL, request{method: http.MethodPatch, path: "/api/v1/realm/filters/" + ids[0], auth: ownerAuth,
		body: formBody("pattern", "NEW-(?P<id>[0-9]+)", "url_template", "https://new.example/{id}"), contentType: formType}))
	if got := order(); got != ids[2]+","+ids[0]+","+ids[1] {
		t.Errorf("an update moved the linkifier: %s", got)
	}
	res := do(t, ts.URL, request{method: http.MethodPatch, path: "/api/v1/realm/filters/" + ids[1], auth: ownerAuth,
		body: formBody("pattern", "NEW-(?P<id>[0-9]+)", "url_template", "https://other.example/{id}"), contentType: formType})
	checkBad(t, badCase{want: badRequest("Linkifier with this Pattern and Realm already exists.")}, res)
}
