package api_test

import (
	"bytes"
	"encoding/base64"
	"net/url"
	"strings"

	"github.com/chatconform/chatconform/fixtures"
)

// routeCasesPushRegistration adds the bad-input cases of the routes whose handlers are in push_registration.go.
func routeCasesPushRegistration(add func(routeSpec)) {
	add(routeSpec{method: "POST", pattern: "/api/v1/register_client_device", path: "/api/v1/register_client_device", role: fixtures.RoleMember})

	push := routeSpec{method: "POST", pattern: "/api/v1/mobile_push/register", path: "/api/v1/mobile_push/register", role: fixtures.RoleMember,
		params: []param{
			{name: "device_id", kind: kInt, required: true},
			{name: "token_kind", kind: kEnum},
			{name: "push_key", oversizeFails: true},
			{name: "push_key_id", kind: kInt},
			// 1 MiB of "a" is valid Base64: the bouncer, not the server, reads these two.
			{name: "bouncer_public_key"},
			{name: "encrypted_push_registration"},
			{name: "token_id", oversizeFails: true},
		},
		valid: []string{"device_id", integSetupDevice, "token_kind", "fcm", "push_key", integPushKey, "push_key_id", "7",
			"bouncer_public_key", integBlob, "encrypted_push_registration", integBlob, "token_id", integTokenID}}
	pushOnly := func(kv ...string) request {
		v := url.Values{"device_id": {integSetupDevice}}
		for i := 0; i+1 < len(kv); i += 2 {
			v.Set(kv[i], kv[i+1])
		}
		return push.build(v)
	}
	invalidKey := badRequest("Invalid `push_key`")
	push.extra = []badCase{
		{"bot", push.as(botAuth), badRequest("This endpoint does not accept bot requests.")},
		{"bot, no parameters (checked first)", request{method: "POST", path: push.path, auth: botAuth}, badRequest("This endpoint does not accept bot requests.")},
		{"unknown device", push.with("device_id", "999"), badRequest("Invalid `device_id`")},
		{"device id zero", push.with("device_id", "0"), badRequest("Invalid `device_id`")},
		{"device id negative", push.with("device_id", "-3"), badRequest("Invalid `device_id`")},
		{"another user's device", push.as(ownerAuth), badRequest("Invalid `device_id`")},
		{"no key and no token fields", pushOnly(), badRequest("Missing parameters: must provide either all push key fields, all token fields, or both.")},
		{"push_key without push_key_id", pushOnly("push_key", integPushKey), badRequest("Missing parameters: must provide either all push key fields, all token fields, or both.")},
		{"token fields without token_id", pushOnly("token_kind", "fcm", "bouncer_public_key", integBlob, "encrypted_push_registration", integBlob), badRequest("Missing parameters: must provide either all push key fields, all token fields, or both.")},
		{"only the key fields, never registered", pushOnly("push_key", integPushKey, "push_key_id", "7"), badRequest("No push registration exists to rotate key for.")},
		{"only the token fields, never registered", pushOnly("token_kind", "fcm", "token_id", integTokenID, "bouncer_public_key", integBlob, "encrypted_push_registration", integBlob), badRequest("No push registration exists to rotate token for.")},
		{"push_key_id negative", push.with("push_key_id", "-1"), badRequest("Invalid push_key_id: Not a valid unsigned 32-bit integer")},
		{"push_key_id over 32 bits", push.with("push_key_id", "4294967296"), badRequest("Invalid push_key_id: Not a valid unsigned 32-bit integer")},
		{"push_key not Base64", push.with("push_key", "not base64!"), invalidKey},
		{"push_key URL-safe Base64", push.with("push_key", strings.NewReplacer("+", "-", "/", "_").Replace(base64.StdEncoding.EncodeToString(append([]byte{0x31}, bytes.Repeat([]byte{0xfb}, 32)...)))), invalidKey},
		{"push_key with a line break", push.with("push_key", integPushKey[:20]+"\n"+integPushKey[20:]), invalidKey},
		{"push_key of another cryptosystem", push.with("push_key", base64.StdEncoding.EncodeToString(append([]byte{0x32}, make([]byte, 32)...))), invalidKey},
		{"push_key too short", push.with("push_key", base64.StdEncoding.EncodeToString(append([]byte{0x31}, make([]byte, 31)...))), invalidKey},
		{"push_key too long", push.with("push_key", base64.StdEncoding.EncodeToString(append([]byte{0x31}, make([]byte, 33)...))), invalidKey},
		{"push_key empty", push.with("push_key", ""), invalidKey},
		{"token_id not Base64", push.with("token_id", "%%%"), badRequest("`token_id` is not Base64 encoded")},
		{"token_id of 9 bytes", push.with("token_id", base64.StdEncoding.EncodeToString(make([]byte, 9))), badRequest("Invalid `token_id`")},
		{"good key, bad token (all or nothing)", push.with("token_id", "???"), badRequest("`token_id` is not Base64 encoded")},
	}
	add(push)

	invalidToken := badRequest("Empty or invalid length token")
	notRecognized := bad(400, "INVALID_PUSH_DEVICE_TOKEN", "Device not recognized")
	humansOnly := badRequest("This endpoint does not accept bot requests.")
	addAPNs := routeSpec{method: "POST", pattern: "/api/v1/users/me/apns_device_token", path: "/api/v1/users/me/apns_device_token", role: fixtures.RoleMember,
		params: []param{{name: "appid", required: true}, {name: "token", required: true, oversizeFails: true}},
		valid:  []string{"appid", integAPNsAppID, "token", "4e65772041504e7320746f6b656e"}}
	addAPNs.extra = []badCase{
		{"bot", addAPNs.as(botAuth), humansOnly},
		{"empty token", addAPNs.with("token", ""), invalidToken},
		{"token that does not decode", addAPNs.with("token", "not hex!"), badRequest("Invalid APNS token")},
		{"a Base64 token", addAPNs.with("token", "bmV3LWFwbnMtdG9rZW4="), badRequest("Invalid APNS token")},
		{"an odd number of hex digits", addAPNs.with("token", "4e657"), badRequest("Invalid APNS token")},
		{"a space inside a byte", addAPNs.with("token", "4 e65"), badRequest("Invalid APNS token")},
		{"app ID with bad characters", addAPNs.with("appid", "org.example/app"), badRequest("appid has invalid format")},
	}
	add(addAPNs)

	delAPNs := routeSpec{method: "DELETE", pattern: "/api/v1/users/me/apns_device_token", path: "/api/v1/users/me/apns_device_token", role: fixtures.RoleMember,
		params: []param{{name: "token", required: true, oversizeFails: true}},
		valid:  []string{"token", integAPNsToken}}
	delAPNs.extra = []badCase{
		{"bot", delAPNs.as(botAuth), humansOnly},
		{"unknown token", delAPNs.with("token", "0a0b0c"), notRecognized},
		{"another user's token", delAPNs.as(ownerAuth), notRecognized},
		{"empty token", delAPNs.with("token", ""), invalidToken},
		{"the FCM token", delAPNs.with("token", integFCMToken), badRequest("Invalid APNS token")},
	}
	add(delAPNs)

	addFCM := routeSpec{method: "POST", pattern: "/api/v1/users/me/android_gcm_reg_id", path: "/api/v1/users/me/android_gcm_reg_id", role: fixtures.RoleMember,
		params: []param{{name: "token", required: true, oversizeFails: true}},
		valid:  []string{"token", "a-new-fcm-token"}}
	addFCM.extra = []badCase{
		{"bot", addFCM.as(botAuth), humansOnly},
		{"empty token", addFCM.with("token", ""), invalidToken},
		{"token over 4096 bytes", addFCM.with("token", strings.Repeat("t", 4097)), invalidToken},
	}
	add(addFCM)

	delFCM := routeSpec{method: "DELETE", pattern: "/api/v1/users/me/android_gcm_reg_id", path: "/api/v1/users/me/android_gcm_reg_id", role: fixtures.RoleMember,
		params: []param{{name: "token", required: true, oversizeFails: true}},
		valid:  []string{"token", integFCMToken}}
	delFCM.extra = []badCase{
		{"bot", delFCM.as(botAuth), humansOnly},
		{"unknown token", delFCM.with("token", "unknown-token"), notRecognized},
		{"another user's token", delFCM.as(ownerAuth), notRecognized},
		{"the APNs token", delFCM.with("token", integAPNsToken), notRecognized},
	}
	add(delFCM)
}
