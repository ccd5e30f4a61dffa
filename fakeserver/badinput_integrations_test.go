package fakeserver_test

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"mime/multipart"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/chatconform/chatconform/fakeserver/internal/realm"
	"github.com/chatconform/chatconform/fixtures"
)

// The objects integrationSetUp gives every route's fake, each with ID 1 where it has an ID.
const (
	integSetupFile      = "setup.txt"
	integBotKey         = "setup-key"
	integFCMToken       = "setup-fcm-token"
	integAPNsToken      = "5365747570415041704e73546f6b656e"
	integReminderLater  = 86400 // seconds after the fixture's start
	integLinkifierID    = "1"
	integSetupAttach    = "1"
	integSetupReminder  = "1"
	integSetupDevice    = "1"
	integAPNsAppID      = "org.example.chat"
	integSecondBotValue = "kept"
)

var (
	integPushKey = base64.StdEncoding.EncodeToString(append([]byte{0x31}, bytes.Repeat([]byte{7}, 32)...))
	integTokenID = realm.LegacyTokenID("a provider token")
	integBlob    = base64.StdEncoding.EncodeToString([]byte("sealed for the bouncer"))
)

// integrationSetUp gives a route's fake, after setUp, what this area's valid requests need:
// an upload of the owner (attachment 1), a reminder of the owner (reminder 1), bot storage of
// the helper bot, a client device (1) and legacy push tokens of the member, a push service
// and a video-call integration, and a video-call token for the member.
func integrationSetUp(t testing.TB, base string) {
	t.Helper()
	requireSuccess(t, "setup upload", do(t, base, integUpload(ownerAuth, integSetupFile)))
	requireSuccess(t, "setup reminder", post(t, base, ownerAuth, "/api/v1/reminders",
		"message_id", "1", "scheduled_delivery_timestamp", fmt.Sprint(defaultFixture.Realm.StartTime+integReminderLater), "note", "setup"))
	requireSuccess(t, "setup bot storage", do(t, base, request{method: http.MethodPut, path: "/api/v1/bot_storage", auth: botAuth,
		body: formBody("storage", `{"`+integBotKey+`":"value","other-key":"`+integSecondBotValue+`"}`), contentType: formType}))
	requireSuccess(t, "setup device", post(t, base, memberAuth, "/api/v1/register_client_device"))
	requireSuccess(t, "setup FCM token", post(t, base, memberAuth, "/api/v1/users/me/android_gcm_reg_id", "token", integFCMToken))
	requireSuccess(t, "setup APNs token", post(t, base, memberAuth, "/api/v1/users/me/apns_device_token", "appid", integAPNsAppID, "token", integAPNsToken))
	requireSuccess(t, "setup configuration", do(t, base, request{method: http.MethodPatch, path: "/_fake/config",
		body: formBody("push_configured", "true", "video_calls_configured", "true"), contentType: formType}))
	requireSuccess(t, "setup video-call token", post(t, base, "", "/_fake/vcall_token", "user_id", "4", "has_token", "true"))
}

// integrationStateOf adds, to a bad-input test's state, what this area's requests could change.
func integrationStateOf(t testing.TB, base string, state map[string]any) {
	t.Helper()
	read := func(key string, res response, name string) { recordField(state, key, res, name) }
	read("attachments", get(t, base, ownerAuth, "/api/v1/attachments", ""), "attachments")
	read("member attachments", get(t, base, memberAuth, "/api/v1/attachments", ""), "attachments")
	read("reminders", get(t, base, ownerAuth, "/api/v1/reminders", ""), "reminders")
	read("member reminders", get(t, base, memberAuth, "/api/v1/reminders", ""), "reminders")
	read("bot storage", get(t, base, botAuth, "/api/v1/bot_storage", ""), "storage")
	read("devices", post(t, base, memberAuth, "/api/v1/register", "fetch_event_types", `["device"]`), "devices")
	read("video-call token", post(t, base, memberAuth, "/api/v1/register", "fetch_event_types", `[]`), "has_vcall_token")
}

// integUpload is a POST /user_uploads request carrying one file.
func integUpload(auth, name string) request {
	body, contentType := integMultipart(url.Values{}, "file", name, []byte("uploaded by the bad-input test\n"))
	return request{method: http.MethodPost, path: "/api/v1/user_uploads", auth: auth, body: body, contentType: contentType}
}

// integMultipart encodes values and, unless fileField is "", one file as multipart/form-data.
func integMultipart(vals url.Values, fileField, name string, content []byte) ([]byte, string) {
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	for k, vs := range vals {
		for _, v := range vs {
			_ = mw.WriteField(k, v)
		}
	}
	if fileField != "" {
		w, _ := mw.CreateFormFile(fileField, name)
		_, _ = w.Write(content)
	}
	_ = mw.Close()
	return buf.Bytes(), mw.FormDataContentType()
}

// integrationRouteCases adds the bad-input cases of the routes of uploads and attachments,
// reminders, bot storage, push devices, video calls and linkifier editing. The
// valid requests need integrationSetUp's objects.
func integrationRouteCases(add func(routeSpec)) {
	upload := routeSpec{method: "POST", pattern: "/api/v1/user_uploads", path: "/api/v1/user_uploads", role: fixtures.RoleMember, upload: "file"}
	twoFiles := func() request {
		var buf bytes.Buffer
		mw := multipart.NewWriter(&buf)
		for _, name := range []string{"a.txt", "b.txt"} {
			w, _ := mw.CreateFormFile(name, name)
			_, _ = w.Write([]byte(name))
		}
		_ = mw.Close()
		return request{method: "POST", path: upload.path, auth: memberAuth, body: buf.Bytes(), contentType: mw.FormDataContentType()}
	}
	tooLarge := func() request {
		body, contentType := integMultipart(url.Values{}, "file", "big.bin", bytes.Repeat([]byte{'x'}, realm.MaxUploadBytes+1))
		return request{method: "POST", path: upload.path, auth: memberAuth, body: body, contentType: contentType}
	}
	onlyFields := func() request {
		body, contentType := integMultipart(url.Values{"file": {"not a file"}}, "", "", nil)
		return request{method: "POST", path: upload.path, auth: memberAuth, body: body, contentType: contentType}
	}
	upload.extra = []badCase{
		{"no file (form body)", request{method: "POST", path: upload.path, auth: memberAuth, body: formBody("file", "not a file"), contentType: formType}, badRequest("You must specify a file to upload")},
		{"no file (multipart fields only)", onlyFields(), badRequest("You must specify a file to upload")},
		{"two files", twoFiles(), badRequest("You may only upload one file at a time")},
		{"a file over the size limit", tooLarge(), badRequest(fmt.Sprintf("File is larger than this server's configured maximum upload size (%d MiB).", realm.MaxUploadBytes>>20))},
	}
	add(upload)

	add(routeSpec{method: "GET", pattern: "/api/v1/attachments", path: "/api/v1/attachments", role: fixtures.RoleMember})

	delAttachment := routeSpec{method: "DELETE", pattern: "/api/v1/attachments/{attachment_id:[0-9]+}", path: "/api/v1/attachments/{id}",
		id: integSetupAttach, notFound: "Invalid attachment", role: fixtures.RoleOwner}
	delAttachment.extra = []badCase{
		{"another user's attachment", delAttachment.as(memberAuth), badRequest("Invalid attachment")},
		{"an administrator deleting the owner's attachment", delAttachment.as(adminAuth), badRequest("Invalid attachment")},
	}
	add(delAttachment)

	reminderAt := fmt.Sprint(defaultFixture.Realm.StartTime + integReminderLater)
	reminders := routeSpec{method: "POST", pattern: "/api/v1/reminders", path: "/api/v1/reminders", role: fixtures.RoleMember,
		params: []param{
			{name: "message_id", kind: kInt, required: true},
			{name: "scheduled_delivery_timestamp", kind: kInt, required: true},
			{name: "note", oversizeFails: true},
		},
		valid: []string{"message_id", "1", "scheduled_delivery_timestamp", reminderAt, "note", "look again"}}
	now := fmt.Sprint(defaultFixture.Realm.StartTime)
	reminders.extra = []badCase{
		{"the time now", reminders.with("scheduled_delivery_timestamp", now), badRequest("Scheduled delivery time must be in the future.")},
		{"a time in the past", reminders.with("scheduled_delivery_timestamp", "0"), badRequest("Scheduled delivery time must be in the future.")},
		{"a negative time", reminders.with("scheduled_delivery_timestamp", "-5"), badRequest("Scheduled delivery time must be in the future.")},
		{"past time and unknown message (time first)", reminders.as(memberAuth, "message_id", "999", "scheduled_delivery_timestamp", "0"), badRequest("Scheduled delivery time must be in the future.")},
		{"unknown message", reminders.with("message_id", "999"), badRequest("Invalid message(s)")},
		{"message id zero", reminders.with("message_id", "0"), badRequest("Invalid message(s)")},
		{"message id negative", reminders.with("message_id", "-1"), badRequest("Invalid message(s)")},
		{"message id beyond 32 bits", reminders.with("message_id", "4294967297"), badRequest("Invalid message(s)")},
		{"note too long", reminders.with("note", strings.Repeat("n", realm.MaxReminderNoteLength+1)), badRequest(fmt.Sprintf("Maximum reminder note length: %d characters", realm.MaxReminderNoteLength))},
	}
	add(reminders)

	add(routeSpec{method: "GET", pattern: "/api/v1/reminders", path: "/api/v1/reminders", role: fixtures.RoleOwner})

	delReminder := routeSpec{method: "DELETE", pattern: "/api/v1/reminders/{reminder_id:[0-9]+}", path: "/api/v1/reminders/{id}",
		id: integSetupReminder, notFound: "Reminder does not exist", role: fixtures.RoleOwner}
	delReminder.extra = []badCase{
		{"another user's reminder", delReminder.as(memberAuth), badRequest("Reminder does not exist")},
	}
	add(delReminder)

	permissionDenied := bad(403, "PERMISSION_DENIED", "This endpoint is only available to bot users.")
	noKey := badRequest("Key does not exist.")
	getStorage := routeSpec{method: "GET", pattern: "/api/v1/bot_storage", path: "/api/v1/bot_storage", role: fixtures.RoleBot,
		params: []param{{name: "keys", kind: kStrList}}}
	getStorage.extra = []badCase{
		{"member", getStorage.as(memberAuth), permissionDenied},
		{"owner of the bot", getStorage.as(ownerAuth), permissionDenied},
		{"a key that does not exist", getStorage.with("keys", `["`+integBotKey+`","missing"]`), noKey},
	}
	add(getStorage)

	putStorage := routeSpec{method: "PUT", pattern: "/api/v1/bot_storage", path: "/api/v1/bot_storage", role: fixtures.RoleBot,
		params: []param{{name: "storage", kind: kJSONDict, required: true}},
		valid:  []string{"storage", `{"new-key":"new value"}`}}
	putStorage.extra = []badCase{
		{"member", putStorage.as(memberAuth), permissionDenied},
		{"member, no parameters (checked first)", request{method: "PUT", path: putStorage.path, auth: memberAuth}, permissionDenied},
		{"a value that is not a string", putStorage.with("storage", `{"a":"ok","b":5}`), badRequest(`storage["b"] is not a string`)},
		{"a null value", putStorage.with("storage", `{"a":null}`), badRequest(`storage["a"] is not a string`)},
		{"over the storage limit", putStorage.with("storage", `{"k":"`+strings.Repeat("v", realm.BotStorageLimit)+`"}`), want{status: 400, code: "BAD_REQUEST"}},
	}
	add(putStorage)

	delStorage := routeSpec{method: "DELETE", pattern: "/api/v1/bot_storage", path: "/api/v1/bot_storage", role: fixtures.RoleBot,
		params: []param{{name: "keys", kind: kStrList}},
		valid:  []string{"keys", `["` + integBotKey + `"]`}}
	delStorage.extra = []badCase{
		{"member", delStorage.as(memberAuth), permissionDenied},
		{"administrator, no parameters (checked first)", request{method: "DELETE", path: delStorage.path, auth: adminAuth}, permissionDenied},
		{"a key that does not exist", delStorage.with("keys", `["missing"]`), noKey},
		{"an existing key and a missing one (all or nothing)", delStorage.with("keys", `["`+integBotKey+`","missing"]`), noKey},
	}
	add(delStorage)

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
		{"bouncer_public_key not Base64", push.with("bouncer_public_key", "bouncer-public-key"), badRequest("`bouncer_public_key` is not Base64 encoded")},
		{"bouncer_public_key empty", push.with("bouncer_public_key", ""), badRequest("Invalid `bouncer_public_key`")},
		{"encrypted_push_registration not Base64", push.with("encrypted_push_registration", "***"), badRequest("`encrypted_push_registration` is not Base64 encoded")},
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

	vcall := routeSpec{method: "POST", pattern: "/api/v1/calls/vcall/create", path: "/api/v1/calls/vcall/create", role: fixtures.RoleMember}
	vcall.extra = []badCase{
		{"a user without a token", vcall.as(ownerAuth), bad(400, "INVALID_VIDEO_CALL_PROVIDER_TOKEN", "Invalid video call access token")},
	}
	add(vcall)

	reorder := routeSpec{method: "PATCH", pattern: "/api/v1/realm/linkifiers", path: "/api/v1/realm/linkifiers", role: fixtures.RoleOwner,
		params: []param{{name: "ordered_linkifier_ids", kind: kJSONList, required: true}},
		valid:  []string{"ordered_linkifier_ids", "[" + integLinkifierID + "]"}}
	incomplete := badRequest("The ordered list must enumerate all existing linkifiers exactly once")
	reorder.extra = []badCase{
		{"member", reorder.as(memberAuth), principalAdmin},
		{"moderator, no parameters (role checked first)", request{method: "PATCH", path: reorder.path, auth: modAuth}, principalAdmin},
		{"a duplicate", reorder.with("ordered_linkifier_ids", "[1,1]"), badRequest("The ordered list must not contain duplicated linkifiers")},
		{"an empty list", reorder.with("ordered_linkifier_ids", "[]"), incomplete},
		{"an unknown linkifier", reorder.with("ordered_linkifier_ids", "[2]"), incomplete},
		{"one too many", reorder.with("ordered_linkifier_ids", "[1,2]"), incomplete},
		{"a string element", reorder.with("ordered_linkifier_ids", `["1"]`), badRequest("ordered_linkifier_ids[0] is not an integer")},
	}
	add(reorder)

	editLf := routeSpec{method: "PATCH", pattern: "/api/v1/realm/filters/{filter_id:[0-9]+}", path: "/api/v1/realm/filters/{id}",
		id: integLinkifierID, notFound: "Linkifier not found.", role: fixtures.RoleOwner,
		params: linkifierParams,
		valid:  []string{"pattern", "SETUP-(?P<id>[0-9]+)", "url_template", "https://changed.example/{id}"}}
	editLf.extra = []badCase{
		{"member", editLf.as(memberAuth), principalAdmin},
		{"pattern not a regex", editLf.with("pattern", "SETUP-(?P<id>[0-9]+"), want{status: 400, code: "BAD_REQUEST"}},
		{"template variable not in pattern", editLf.with("url_template", "https://changed.example/{other}"), badRequest("Group 'other' in URL template is not present in linkifier pattern.")},
		{"template not RFC 6570", editLf.with("url_template", "https://changed.example/{id"), badRequest("Invalid URL template.")},
		{"example input does not match", editLf.with("example_input", "nothing"), badRequest("Example input does not match the linkifier pattern.")},
	}
	add(editLf)
}
