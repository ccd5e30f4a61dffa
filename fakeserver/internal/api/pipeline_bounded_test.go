package api_test

// Bounded resources: each bound is a configuration setting, and each holds.

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/chatconform/chatconform/fakeserver"
)

// TestJournalBounds: huge spec headers are cut per entry, and the journal keeps only the
// newest entries within its total size.
func TestJournalBounds(t *testing.T) {
	ts := newServer(t)
	evPatchConfig(t, ts.URL, "journal_max_bytes", "2048", "journal_entry_max_bytes", "64")
	huge := strings.Repeat("s", 100_000)
	for i := range 50 {
		do(t, ts.URL, request{method: http.MethodGet, path: "/api/v1/server_settings", query: fmt.Sprintf("n=%d", i),
			headers: map[string]string{fakeserver.SpecHeader: fmt.Sprintf("%d %s", i, huge)}})
	}
	list, _ := requireSuccess(t, "journal", get(t, ts.URL, "", "/_fake/journal", ""))["requests"].([]any)
	total := 0
	for _, item := range list {
		e := item.(map[string]any)
		spec, path, method := e["spec"].(string), e["path"].(string), e["method"].(string)
		if len(spec) > 64 {
			t.Fatalf("an entry keeps %d bytes of its spec name, want at most 64", len(spec))
		}
		total += len(spec) + len(path) + len(method)
	}
	if total > 2048 || len(list) == 0 {
		t.Errorf("%d entries of %d bytes, want some within 2048", len(list), total)
	}
	if last := list[len(list)-1].(map[string]any)["spec"].(string); !strings.HasPrefix(last, "49 ") {
		t.Errorf("the newest entry is gone: last spec %q", last)
	}
}

// TestEventQueueBounds: a queue over its event bound is dropped, and one nobody polls expires
// in real time while the virtual clock stands still.
func TestEventQueueBounds(t *testing.T) {
	ts := newServer(t)
	evPatchConfig(t, ts.URL, "event_queue_max_events", "3", "event_queue_idle_wall_seconds", "1")
	full := evRegister(t, ts.URL, memberAuth)
	polled, last := evRegister(t, ts.URL, memberAuth), -1
	for i := range 4 {
		evSendDirect(t, ts.URL, ownerAuth, 4, fmt.Sprintf("event %d", i))
		// The second queue keeps up: it acknowledges what it got and lives on.
		evs := evPoll(t, ts.URL, memberAuth, polled, last, true)
		if len(evs) == 0 {
			t.Fatalf("the polled queue got nothing after event %d", i)
		}
		last = int(evs[len(evs)-1]["id"].(float64))
	}
	// The first held three events; the fourth was one too many.
	evBadQueue(t, get(t, ts.URL, memberAuth, "/api/v1/events", evQuery(full, -1, true)), full)

	idle := evRegister(t, ts.URL, memberAuth)
	time.Sleep(1100 * time.Millisecond)
	evBadQueue(t, get(t, ts.URL, memberAuth, "/api/v1/events", evQuery(idle, -1, true)), idle)
}

// TestBotAndUploadBounds: a user owns at most max_bots_per_user active bots, and uploads stay
// within the per-user and the realm's quota.
func TestBotAndUploadBounds(t *testing.T) {
	ts := newServer(t)
	evPatchConfig(t, ts.URL, "max_bots_per_user", "2", "upload_quota_bytes_per_user", "100", "upload_quota_bytes_total", "150")
	bot := func(n int) response {
		return post(t, ts.URL, memberAuth, "/api/v1/bots", "full_name", fmt.Sprintf("Bound Bot %d", n), "short_name", fmt.Sprintf("bound%d", n))
	}
	requireSuccess(t, "first bot", bot(1))
	requireSuccess(t, "second bot", bot(2))
	checkBad(t, badCase{want: badRequest("You may own at most 2 active bots on this server.")}, bot(3))
	requireSuccess(t, "another owner's bot", post(t, ts.URL, adminAuth, "/api/v1/bots", "full_name", "Admin Bound Bot", "short_name", "adminbound"))

	upload := func(auth string) response {
		body, contentType := integMultipart(url.Values{}, "file", "sixty.txt", []byte(strings.Repeat("x", 60)))
		return do(t, ts.URL, request{method: http.MethodPost, path: "/api/v1/user_uploads", auth: auth, body: body, contentType: contentType})
	}
	requireSuccess(t, "member's first upload", upload(memberAuth))
	checkBad(t, badCase{want: badRequest("Upload would exceed your upload quota of 100 bytes.")}, upload(memberAuth))
	requireSuccess(t, "owner's upload", upload(ownerAuth))
	checkBad(t, badCase{want: badRequest("Upload would exceed your organization's upload quota.")}, upload(adminAuth))
}

// TestHeadersTooLarge: headers over the bound are answered 431 in the JSON envelope.
func TestHeadersTooLarge(t *testing.T) {
	ts := newServer(t)
	withHeader := func(n int) response {
		return do(t, ts.URL, request{method: http.MethodGet, path: "/api/v1/server_settings",
			headers: map[string]string{fakeserver.SpecHeader: strings.Repeat("h", n)}})
	}
	requireSuccess(t, "small headers", withHeader(1000))
	checkBad(t, badCase{want: bad(431, "BAD_REQUEST", fmt.Sprintf("Request header fields are larger than %d bytes", fakeserver.DefaultMaxHeaderBytes))}, withHeader(70_000))
	evPatchConfig(t, ts.URL, "max_header_bytes", "2048")
	checkBad(t, badCase{want: bad(431, "BAD_REQUEST", "Request header fields are larger than 2048 bytes")}, withHeader(3000))
}

// storageBot creates a bot of the user of auth and returns its id and credentials.
func storageBot(t *testing.T, base, auth, shortName string) (int, string) {
	t.Helper()
	env := requireSuccess(t, "create bot "+shortName, post(t, base, auth, "/api/v1/bots", "full_name", "Storage "+shortName, "short_name", shortName))
	return int(env["user_id"].(float64)), basicHeader(shortName+"-bot@chat.example.test", env["api_key"].(string))
}

// putStorage stores one entry in the storage of the bot of auth.
func putStorage(t *testing.T, base, auth, key, value string) response {
	t.Helper()
	return do(t, base, request{method: http.MethodPut, path: "/api/v1/bot_storage", auth: auth,
		body: formBody("storage", fmt.Sprintf(`{%q:%q}`, key, value)), contentType: formType})
}

// TestBotStorageQuotas: beyond each bot's limit, what one owner's bots store is bounded,
// deactivated bots included, and so is what the realm's bots store; removing frees the room.
func TestBotStorageQuotas(t *testing.T) {
	ts := newServer(t)
	evPatchConfig(t, ts.URL, "bot_storage_quota_bytes_per_owner", "300", "bot_storage_quota_bytes_total", "540")
	first, firstAuth := storageBot(t, ts.URL, memberAuth, "quota1")
	_, secondAuth := storageBot(t, ts.URL, memberAuth, "quota2")
	_, adminBotAuth := storageBot(t, ts.URL, adminAuth, "quota3")
	// An entry costs its bytes and 64: 1 + 200 + 64 = 265 of the owner's 300.
	requireSuccess(t, "first bot's entry", putStorage(t, ts.URL, firstAuth, "k", strings.Repeat("v", 200)))
	overOwner := badRequest("Request exceeds the storage quota of this owner's bots by 80 bytes. The quota is 300 bytes.")
	checkBad(t, badCase{want: overOwner}, putStorage(t, ts.URL, secondAuth, "k", strings.Repeat("v", 50)))
	requireSuccess(t, "replacing within the quota", putStorage(t, ts.URL, firstAuth, "k", strings.Repeat("v", 150)))
	requireSuccess(t, "deactivate the first bot", do(t, ts.URL, request{method: http.MethodDelete, path: fmt.Sprintf("/api/v1/bots/%d", first), auth: memberAuth}))
	// The deactivated bot keeps its 215 and they still count.
	checkBad(t, badCase{want: badRequest("Request exceeds the storage quota of this owner's bots by 30 bytes. The quota is 300 bytes.")},
		putStorage(t, ts.URL, secondAuth, "k", strings.Repeat("v", 50)))
	requireSuccess(t, "another owner's bot", putStorage(t, ts.URL, adminBotAuth, "k", strings.Repeat("v", 200)))
	// 215 + 265 of the realm's 540: an entry of 65 fits the member's bots but not the realm.
	checkBad(t, badCase{want: badRequest("Request exceeds the organization's bot storage quota.")}, putStorage(t, ts.URL, secondAuth, "k", ""))
	requireSuccess(t, "remove the admin bot's storage", do(t, ts.URL, request{method: http.MethodDelete, path: "/api/v1/bot_storage", auth: adminBotAuth}))
	requireSuccess(t, "room again", putStorage(t, ts.URL, secondAuth, "k", ""))
}
