package api_test

// Uploads and attachments over HTTP: references made by messages, detached uploads of edits,
// automatic deletion with the last referencing message and after the unused-upload lifetime,
// and the attachment events the owner receives.

import (
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"testing"
)

// integFile uploads a file as auth and returns its URL.
func integFile(t *testing.T, base, auth, name string) string {
	t.Helper()
	env := requireSuccess(t, "upload", do(t, base, integUpload(auth, name)))
	url, _ := env["url"].(string)
	if !strings.HasPrefix(url, "/user_uploads/") || env["uri"] != url || env["filename"] != name {
		t.Fatalf("upload answered url %v, uri %v, filename %v", env["url"], env["uri"], env["filename"])
	}
	return url
}

// integAttachments returns auth's attachments by path_id, and upload_space_used.
func integAttachments(t *testing.T, base, auth string) (map[string]map[string]any, float64) {
	t.Helper()
	env := requireSuccess(t, "attachments", get(t, base, auth, "/api/v1/attachments", ""))
	out := map[string]map[string]any{}
	list, _ := env["attachments"].([]any)
	for _, item := range list {
		a := item.(map[string]any)
		out[a["path_id"].(string)] = a
	}
	used, _ := env["upload_space_used"].(float64)
	return out, used
}

func integPath(url string) string { return strings.TrimPrefix(url, "/user_uploads/") }

// integSend sends a channel message to general as auth and returns its id.
func integSend(t *testing.T, base, auth, content string) int {
	t.Helper()
	env := requireSuccess(t, "send", post(t, base, auth, "/api/v1/messages", "type", "channel", "to", setupChan, "topic", "files", "content", content))
	return int(env["id"].(float64))
}

// integEdit replaces a message's content and returns the detached uploads.
func integEdit(t *testing.T, base, auth string, id int, content string) []any {
	t.Helper()
	env := requireSuccess(t, "edit", do(t, base, request{method: http.MethodPatch, path: fmt.Sprintf("/api/v1/messages/%d", id),
		auth: auth, body: formBody("content", content), contentType: formType}))
	list, ok := env["detached_uploads"].([]any)
	if !ok {
		t.Fatalf("detached_uploads is not a list: %v", env["detached_uploads"])
	}
	return list
}

func integIDs(v any) []int {
	var out []int
	list, _ := v.([]any)
	for _, x := range list {
		out = append(out, int(x.(float64)))
	}
	return out
}

func TestUploadIsListedWithTheRealServersFields(t *testing.T) {
	ts := newServer(t)
	url := integFile(t, ts.URL, memberAuth, "Report (final) v2.txt")
	if !regexp.MustCompile(`^/user_uploads/1/[0-9a-f]{24}/Report-final-v2.txt$`).MatchString(url) {
		t.Errorf("url %s: want a URL-safe path with the sanitized file name", url)
	}
	list, used := integAttachments(t, ts.URL, memberAuth)
	a := list[integPath(url)]
	if a == nil {
		t.Fatalf("GET /attachments does not list %s: %v", url, list)
	}
	size := float64(len("uploaded by the bad-input test\n"))
	if a["name"] != "Report (final) v2.txt" || a["size"] != size || used != size ||
		a["create_time"] != float64(defaultFixture.Realm.StartTime) || len(integIDs(a["message_ids"])) != 0 {
		t.Errorf("attachment %v, upload_space_used %v", a, used)
	}
	if others, _ := integAttachments(t, ts.URL, ownerAuth); len(others) != 0 {
		t.Errorf("the owner sees the member's attachment: %v", others)
	}
}

func TestMessagesReferenceUploadsTheirSenderMayShare(t *testing.T) {
	ts := newServer(t)
	url := integFile(t, ts.URL, memberAuth, "shared.txt")
	first := integSend(t, ts.URL, memberAuth, "see [shared.txt]("+url+").")
	// The owner can read the member's message, so may share the file; a guest's private
	// conversation with nobody who has it may not.
	second := integSend(t, ts.URL, ownerAuth, "again: http://chat.example.test"+url)
	ownUpload := integFile(t, ts.URL, ownerAuth, "owners.txt")
	requireSuccess(t, "guest message", post(t, ts.URL, guestAuth, "/api/v1/messages", "type", "direct", "to", "[5]", "content", "[x]("+ownUpload+")"))

	list, _ := integAttachments(t, ts.URL, memberAuth)
	if got := integIDs(list[integPath(url)]["message_ids"]); fmt.Sprint(got) != fmt.Sprint([]int{first, second}) {
		t.Errorf("message_ids %v, want [%d %d]", got, first, second)
	}
	owners, _ := integAttachments(t, ts.URL, ownerAuth)
	if got := integIDs(owners[integPath(ownUpload)]["message_ids"]); len(got) != 0 {
		t.Errorf("a guest who cannot see the owner's file referenced it: %v", got)
	}
}

func TestEditDetachesTheSendersUploadsThatLostTheirLastReference(t *testing.T) {
	ts := newServer(t)
	mine := integFile(t, ts.URL, memberAuth, "mine.txt")
	shared := integFile(t, ts.URL, memberAuth, "shared.txt")
	id := integSend(t, ts.URL, memberAuth, "[a]("+mine+") [b]("+shared+")")
	integSend(t, ts.URL, ownerAuth, "[b]("+shared+")")

	detached := integEdit(t, ts.URL, memberAuth, id, "nothing linked")
	if len(detached) != 1 {
		t.Fatalf("detached_uploads %v: want only mine.txt (shared.txt is still referenced)", detached)
	}
	d := detached[0].(map[string]any)
	if d["path_id"] != integPath(mine) || d["name"] != "mine.txt" || d["create_time"] != float64(defaultFixture.Realm.StartTime) ||
		len(integIDs(d["message_ids"])) != 0 || d["id"] == nil || d["size"] == nil {
		t.Errorf("detached upload %v", d)
	}
	// Linking it again references it again; an edit that keeps the link detaches nothing.
	if got := integEdit(t, ts.URL, memberAuth, id, "[a]("+mine+")"); len(got) != 0 {
		t.Errorf("detached_uploads %v, want none", got)
	}
	list, _ := integAttachments(t, ts.URL, memberAuth)
	if got := integIDs(list[integPath(mine)]["message_ids"]); fmt.Sprint(got) != fmt.Sprint([]int{id}) {
		t.Errorf("message_ids after linking again: %v", got)
	}
}

func TestAttachmentGoesWithItsLastMessage(t *testing.T) {
	ts := newServer(t)
	queue := evRegister(t, ts.URL, memberAuth, "event_types", `["attachment"]`)
	url := integFile(t, ts.URL, memberAuth, "gone.txt")
	a := integSend(t, ts.URL, memberAuth, "[a]("+url+")")
	b := integSend(t, ts.URL, memberAuth, "[b]("+url+")")
	for i, id := range []int{a, b} {
		requireSuccess(t, "delete", do(t, ts.URL, request{method: http.MethodDelete, path: fmt.Sprintf("/api/v1/messages/%d", id), auth: adminAuth}))
		list, _ := integAttachments(t, ts.URL, memberAuth)
		if _, listed := list[integPath(url)]; listed != (i == 0) {
			t.Errorf("after deleting %d of 2 messages: listed %v", i+1, listed)
		}
	}
	var ops []string
	for _, ev := range evPoll(t, ts.URL, memberAuth, queue, -1, true) {
		ops = append(ops, fmt.Sprint(ev["op"]))
	}
	if got := strings.Join(ops, " "); got != "add update update update remove" {
		t.Errorf("attachment events %q, want add, update (×2 claims, 1 release), remove", got)
	}

	// Through topic deletion.
	url = integFile(t, ts.URL, memberAuth, "topic.txt")
	integSend(t, ts.URL, memberAuth, "[t]("+url+")")
	requireSuccess(t, "delete topic", post(t, ts.URL, adminAuth, "/api/v1/streams/1/delete_topic", "topic_name", "files"))
	if list, _ := integAttachments(t, ts.URL, memberAuth); list[integPath(url)] != nil {
		t.Errorf("the attachment outlived its topic")
	}
}

func TestUnusedUploadsExpireAfterTheConfiguredLifetime(t *testing.T) {
	ts := newServer(t)
	requireSuccess(t, "config", do(t, ts.URL, request{method: http.MethodPatch, path: "/_fake/config",
		body: formBody("unused_attachment_seconds", "100"), contentType: formType}))
	unused := integFile(t, ts.URL, memberAuth, "unused.txt")
	used := integFile(t, ts.URL, memberAuth, "used.txt")
	detached := integFile(t, ts.URL, memberAuth, "detached.txt")
	integSend(t, ts.URL, memberAuth, "[u]("+used+")")
	id := integSend(t, ts.URL, memberAuth, "[d]("+detached+")")
	integEdit(t, ts.URL, memberAuth, id, "no link")

	advance := func(seconds string) map[string]map[string]any {
		requireSuccess(t, "clock", post(t, ts.URL, "", "/_fake/clock", "advance", seconds))
		list, _ := integAttachments(t, ts.URL, memberAuth)
		return list
	}
	if list := advance("99"); len(list) != 3 {
		t.Errorf("before the lifetime: %d attachments, want 3", len(list))
	}
	list := advance("1")
	if list[integPath(unused)] != nil || list[integPath(detached)] != nil || list[integPath(used)] == nil {
		t.Errorf("after the lifetime: %v; want only used.txt", list)
	}
}

func TestDefaultUnusedUploadLifetimeIsThreeWeeks(t *testing.T) {
	ts := newServer(t)
	url := integFile(t, ts.URL, memberAuth, "unused.txt")
	requireSuccess(t, "clock", post(t, ts.URL, "", "/_fake/clock", "advance", fmt.Sprint(21*24*3600-1)))
	if list, _ := integAttachments(t, ts.URL, memberAuth); list[integPath(url)] == nil {
		t.Fatalf("expired before three weeks")
	}
	requireSuccess(t, "clock", post(t, ts.URL, "", "/_fake/clock", "advance", "1"))
	if list, _ := integAttachments(t, ts.URL, memberAuth); list[integPath(url)] != nil {
		t.Errorf("still listed after three weeks")
	}
}
