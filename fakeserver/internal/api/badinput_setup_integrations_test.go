package api_test

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"mime/multipart"
	"net/http"
	"net/url"
	"testing"

	"github.com/chatconform/chatconform/fakeserver/internal/realm"
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
