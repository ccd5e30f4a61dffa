package api_test

// What one user and their bots keep is bounded together (docs/bounds.md, "What a user and
// their bots keep"): each case fills a bound and checks the next request, by count, is
// refused in the envelope and changes nothing.

import (
	"bytes"
	"fmt"
	"image"
	"image/png"
	"math/rand/v2"
	"net/http"
	"strings"
	"testing"

	"github.com/chatconform/chatconform/fakeserver/internal/realm"
)

// noisePNG is a PNG image of about size bytes: random pixels do not compress.
func noisePNG(size int) []byte {
	side := 1
	for side*side*4 < size {
		side++
	}
	img := image.NewNRGBA(image.Rect(0, 0, side, side))
	r := rand.New(rand.NewPCG(1, 2))
	for i := range img.Pix {
		img.Pix[i] = byte(r.IntN(256))
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		panic(err)
	}
	return b.Bytes()
}

// uploadBytes uploads a file of n bytes as auth.
func uploadBytes(t *testing.T, base, auth string, n int) response {
	t.Helper()
	body, contentType := integMultipart(nil, "file", "data.bin", bytes.Repeat([]byte("u"), n))
	return do(t, base, request{method: http.MethodPost, path: "/api/v1/user_uploads", auth: auth, body: body, contentType: contentType})
}

// refused fails unless res is an error in the envelope whose msg holds want.
func refused(t *testing.T, what string, res response, want string) {
	t.Helper()
	if res.status != http.StatusBadRequest || res.env["result"] != "error" || !strings.Contains(fmt.Sprint(res.env["msg"]), want) {
		t.Fatalf("%s: want a 400 error about %q, got %s", what, want, res)
	}
}

func draftsJSON(n int) string {
	return "[" + strings.TrimSuffix(strings.Repeat(`{"type":"","to":[],"topic":"","content":"kept"},`, n), ",") + "]"
}

// TestBotsCountTowardTheirOwner: a bot's queues, uploads and drafts count toward its owner's
// bounds, so that owning bots does not multiply them.
func TestBotsCountTowardTheirOwner(t *testing.T) {
	t.Run("event queues", func(t *testing.T) {
		ts := newServer(t)
		_, botAuth := storageBot(t, ts.URL, memberAuth, "queues")
		queue := func(auth string) string {
			env := requireSuccess(t, "queue", get(t, ts.URL, auth, "/api/v1/events", "dont_block=true"))
			return env["queue_id"].(string)
		}
		first := queue(memberAuth)
		for range 999 {
			queue(memberAuth)
		}
		queue(botAuth) // the member's 1,001st: the least recently used goes
		res := get(t, ts.URL, memberAuth, "/api/v1/events", "dont_block=true&last_event_id=-1&queue_id="+first)
		if res.status != http.StatusBadRequest || res.env["code"] != "BAD_EVENT_QUEUE_ID" {
			t.Fatalf("the member's first queue outlived the 1,001st of the member and their bot: %s", res)
		}
	})
	t.Run("uploads", func(t *testing.T) {
		ts := newServer(t)
		integConfig(t, ts.URL, "upload_quota_bytes_per_user", "1000")
		_, botAuth := storageBot(t, ts.URL, memberAuth, "uploads")
		requireSuccess(t, "the member's upload", uploadBytes(t, ts.URL, memberAuth, 600))
		refused(t, "the bot's upload past its owner's quota", uploadBytes(t, ts.URL, botAuth, 600), "upload quota")
		requireSuccess(t, "the bot's upload within it", uploadBytes(t, ts.URL, botAuth, 300))
	})
	t.Run("drafts", func(t *testing.T) {
		ts := newServer(t)
		_, botAuth := storageBot(t, ts.URL, memberAuth, "drafts")
		requireSuccess(t, "the member's drafts", post(t, ts.URL, memberAuth, "/api/v1/drafts", "drafts", draftsJSON(realm.MaxDraftsPerUser-1)))
		refused(t, "the bot's two drafts", post(t, ts.URL, botAuth, "/api/v1/drafts", "drafts", draftsJSON(2)), "at most")
		requireSuccess(t, "the bot's one draft", post(t, ts.URL, botAuth, "/api/v1/drafts", "drafts", draftsJSON(1)))
	})
}

// TestKeptItemsAreBounded: drafts, saved snippets, scheduled messages, reminders and user
// groups stop at their bound; the request past it changes nothing.
func TestKeptItemsAreBounded(t *testing.T) {
	cases := []struct {
		name  string
		limit int
		// setUp returns what a create needs (a message's ID for reminders).
		setUp  func(t *testing.T, base string) string
		create func(t *testing.T, base, arg string, i int) response
		list   func(t *testing.T, base string) int
	}{
		{
			name: "drafts", limit: realm.MaxDraftsPerUser,
			create: func(t *testing.T, base, _ string, _ int) response {
				return post(t, base, memberAuth, "/api/v1/drafts", "drafts", draftsJSON(1))
			},
			list: func(t *testing.T, base string) int {
				return len(requireSuccess(t, "drafts", get(t, base, memberAuth, "/api/v1/drafts", ""))["drafts"].([]any))
			},
		},
		{
			name: "saved snippets", limit: realm.MaxSavedSnippetsPerUser,
			create: func(t *testing.T, base, _ string, i int) response {
				return post(t, base, memberAuth, "/api/v1/saved_snippets", "title", fmt.Sprint("s", i), "content", "kept")
			},
			list: func(t *testing.T, base string) int {
				return len(requireSuccess(t, "snippets", get(t, base, memberAuth, "/api/v1/saved_snippets", ""))["saved_snippets"].([]any))
			},
		},
		{
			name: "scheduled messages", limit: realm.MaxScheduledMessagesPerUser,
			create: func(t *testing.T, base, _ string, i int) response {
				return post(t, base, memberAuth, "/api/v1/scheduled_messages", "type", "stream", "to", "1", "topic", "later",
					"content", fmt.Sprint("m", i), "scheduled_delivery_timestamp", "4000000000")
			},
			list: func(t *testing.T, base string) int {
				return len(requireSuccess(t, "scheduled", get(t, base, memberAuth, "/api/v1/scheduled_messages", ""))["scheduled_messages"].([]any))
			},
		},
		{
			name: "reminders", limit: realm.MaxRemindersPerUser,
			setUp: func(t *testing.T, base string) string { return fmt.Sprint(integSend(t, base, memberAuth, "remind me")) },
			create: func(t *testing.T, base, message string, _ int) response {
				return post(t, base, memberAuth, "/api/v1/reminders", "message_id", message, "scheduled_delivery_timestamp", "4000000000")
			},
			list: func(t *testing.T, base string) int {
				return len(requireSuccess(t, "reminders", get(t, base, memberAuth, "/api/v1/reminders", ""))["reminders"].([]any))
			},
		},
		{
			name: "user groups", limit: realm.MaxUserGroups,
			create: func(t *testing.T, base, _ string, i int) response {
				return post(t, base, memberAuth, "/api/v1/user_groups/create", "name", fmt.Sprint("group ", i), "description", "", "members", "[]")
			},
			list: func(t *testing.T, base string) int {
				return len(requireSuccess(t, "groups", get(t, base, memberAuth, "/api/v1/user_groups", "include_deactivated_groups=true"))["user_groups"].([]any))
			},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ts := newServer(t)
			arg := ""
			if c.setUp != nil {
				arg = c.setUp(t, ts.URL)
			}
			for i := c.list(t, ts.URL); i < c.limit; i++ {
				requireSuccess(t, fmt.Sprint(c.name, " ", i), c.create(t, ts.URL, arg, i))
			}
			refused(t, "one past the bound", c.create(t, ts.URL, arg, c.limit), "at most")
			if n := c.list(t, ts.URL); n != c.limit {
				t.Fatalf("%d %s kept, want %d", n, c.name, c.limit)
			}
		})
	}
}

// TestCustomEmojiCountTowardTheUploadQuota: a custom emoji's image and the uploaded files of
// its author share the author's quota.
func TestCustomEmojiCountTowardTheUploadQuota(t *testing.T) {
	ts := newServer(t)
	integConfig(t, ts.URL, "upload_quota_bytes_per_user", "3000")
	image := noisePNG(2000)
	requireSuccess(t, "the emoji", uploadEmoji(t, ts.URL, memberAuth, "noise", image))
	refused(t, "a file past the quota the emoji fills", uploadBytes(t, ts.URL, memberAuth, 3000-len(image)+1), "upload quota")
	requireSuccess(t, "a file within it", uploadBytes(t, ts.URL, memberAuth, 3000-len(image)))
	refused(t, "an emoji past the quota the files fill", uploadEmoji(t, ts.URL, memberAuth, "more_noise", noisePNG(100)), "upload quota")
}

// TestBotMoveRespectsTheNewOwnersBounds: giving a bot to another user is refused when what it
// keeps would take the new owner's bots over their storage quota, or the new owner over the
// upload quota; nothing changes then, and a bot that fits moves.
func TestBotMoveRespectsTheNewOwnersBounds(t *testing.T) {
	ts := newServer(t)
	integConfig(t, ts.URL, "bot_storage_quota_bytes_per_owner", "300", "upload_quota_bytes_per_user", "1000")
	owner := fmt.Sprint(requireSuccess(t, "owner", get(t, ts.URL, ownerAuth, "/api/v1/users/me", ""))["user_id"])
	_, ownersBot := storageBot(t, ts.URL, ownerAuth, "theirs")
	requireSuccess(t, "the owner's bot stores", putStorage(t, ts.URL, ownersBot, "k", strings.Repeat("v", 100)))
	requireSuccess(t, "the owner uploads", uploadBytes(t, ts.URL, ownerAuth, 600))

	move := func(bot int) response {
		return patch(t, ts.URL, memberAuth, fmt.Sprintf("/api/v1/bots/%d", bot), "bot_owner_id", owner)
	}
	full, fullAuth := storageBot(t, ts.URL, memberAuth, "full")
	requireSuccess(t, "the member's bot stores", putStorage(t, ts.URL, fullAuth, "k", strings.Repeat("v", 100)))
	refused(t, "a move past the storage quota", move(full), "storage quota")

	uploader, uploaderAuth := storageBot(t, ts.URL, memberAuth, "uploader")
	requireSuccess(t, "the member's bot uploads", uploadBytes(t, ts.URL, uploaderAuth, 600))
	refused(t, "a move past the upload quota", move(uploader), "upload quota")

	member := requireSuccess(t, "member", get(t, ts.URL, memberAuth, "/api/v1/users/me", ""))["user_id"]
	for _, bot := range []int{full, uploader} {
		if got := requireSuccess(t, "bot", get(t, ts.URL, memberAuth, fmt.Sprintf("/api/v1/users/%d", bot), ""))["user"].(map[string]any)["bot_owner_id"]; got != member {
			t.Fatalf("a refused move changed bot %d's owner to %v", bot, got)
		}
	}
	light, _ := storageBot(t, ts.URL, memberAuth, "light")
	requireSuccess(t, "a move within the bounds", move(light))
}
