package fakeserver_test

import (
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/chatconform/chatconform/fakeserver"
	"github.com/chatconform/chatconform/harness/browser"
)

// TestInspectorPageInABrowser opens GET /_fake/ui in headless Chromium after a message was sent
// and a request refused: its users, the message and the journal entry must be in the DOM. The
// fake runs with a control token, which the browser passes in the page's address. A screenshot
// is kept for a person (its path is logged). Without Chromium (.ci/ensure-chromium installs it)
// the test says so and is skipped.
func TestInspectorPageInABrowser(t *testing.T) {
	chromium := browser.Open(t)
	ts := fakeserver.Start(t, fakeserver.WithControlToken("inspect-me"))
	owner, _ := ts.Server.As("owner")
	if _, err := owner.Send("general", "inspection", "a message sent just before"); err != nil {
		t.Fatal(err)
	}
	resp, err := ts.Client("member").Get(ts.URL + "/api/v1/messages/999999")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()

	if resp, err := http.Get(ts.URL + "/_fake/ui"); err != nil || resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("the inspector without the token: %v %v", resp, err)
	}
	page := ts.URL + "/_fake/ui?token=inspect-me"
	dom := chromium.DOM(page)
	table := func(id string) string {
		m := regexp.MustCompile(`(?s)<table id="` + id + `">.*?</table>`).FindString(dom)
		if m == "" {
			t.Fatalf("no table %s in the page", id)
		}
		return m
	}
	for _, want := range []string{"Olivia Owner", "Max Member", "member@chat.example.test", "guest"} {
		if !strings.Contains(table("users"), want) {
			t.Errorf("the users table lacks %q", want)
		}
	}
	if !strings.Contains(table("messages"), "a message sent just before") || !strings.Contains(table("channels"), "inspection") {
		t.Error("the message sent just before (or its topic) is not on the page")
	}
	if !regexp.MustCompile(`(?s)GET /api/v1/messages/999999.*?member@chat.example.test.*?400`).MatchString(table("journal")) {
		t.Error("the journal does not show the refused request with its user and status")
	}
	shot := filepath.Join(os.TempDir(), "chatconform-inspector.png")
	chromium.Screenshot(page, shot, 1280, 1600)
	if info, err := os.Stat(shot); err != nil || info.Size() == 0 {
		t.Errorf("no screenshot: %v", err)
	} else {
		t.Logf("screenshot of the inspector: %s (%d bytes)", shot, info.Size())
	}
}
