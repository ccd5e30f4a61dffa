package api_test

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/chatconform/chatconform/fakeserver/internal/realm"
)

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

// TestPushRegistrationLeavesBouncerFieldsToTheBouncer: the real server queues
// bouncer_public_key and encrypted_push_registration for the bouncer unread, so a registration
// with the documented example values (not Base64) succeeds, as does one with empty values.
func TestPushRegistrationLeavesBouncerFieldsToTheBouncer(t *testing.T) {
	ts := newServer(t)
	integConfig(t, ts.URL, "push_configured", "true")
	for _, c := range []struct{ name, key, registration string }{
		{"the documented examples", "bouncer-public-key", "encrypted-push-registration-data"},
		{"empty values", "", ""},
	} {
		device := fmt.Sprint(requireSuccess(t, "device", post(t, ts.URL, memberAuth, "/api/v1/register_client_device"))["device_id"])
		requireSuccess(t, c.name, post(t, ts.URL, memberAuth, "/api/v1/mobile_push/register", "device_id", device, "token_kind", "fcm",
			"push_key", integPushKey, "push_key_id", "7", "token_id", realm.LegacyTokenID(c.name),
			"bouncer_public_key", c.key, "encrypted_push_registration", c.registration))
	}
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
