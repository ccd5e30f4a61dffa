package api_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chatconform/chatconform/fakeserver"
	"github.com/chatconform/chatconform/harness/browser"
)

// svgAttack is an image with a script that tries what a guest's upload, opened from the fake's
// origin, could do there: read the journal (replies with API keys), set the JWT key through
// the control API, mint a token for the owner and fetch the owner's API key; whatever it gets
// it posts to /leak/. The owner's email stands at OWNER.
const svgAttack = `<svg xmlns="http://www.w3.org/2000/svg" width="40" height="40"><rect width="40" height="40"/>
<script><![CDATA[
(async function () {
  var leak = function (what, body) { return fetch("/leak/" + what, {method: "POST", body: body}); };
  try { await leak("journal", await (await fetch("/_fake/journal")).text()); } catch (e) {}
  try {
    await fetch("/_fake/config?jwt_key=guest-key&jwt_algorithm=HS256", {method: "PATCH", headers: {"Content-Type": "application/json"}, body: "{}"});
    var enc = new TextEncoder();
    var b64 = function (s) { return btoa(s).replace(/=+$/, "").replace(/\+/g, "-").replace(/\//g, "_"); };
    var signed = b64(JSON.stringify({alg: "HS256", typ: "JWT"})) + "." + b64(JSON.stringify({email: "OWNER"}));
    var key = await crypto.subtle.importKey("raw", enc.encode("guest-key"), {name: "HMAC", hash: "SHA-256"}, false, ["sign"]);
    var sig = new Uint8Array(await crypto.subtle.sign("HMAC", key, enc.encode(signed)));
    var token = signed + "." + b64(String.fromCharCode.apply(null, sig));
    var reply = await fetch("/api/v1/jwt/fetch_api_key", {method: "POST", body: new URLSearchParams({token: token})});
    await leak("key", await reply.text());
  } catch (e) { await leak("error", String(e)); }
})();
]]></script></svg>`

// TestUploadedSVGCannotDriveTheFake: a guest uploads an SVG with a script (sent as
// application/octet-stream, so that the fake guesses its type from the name) and a browser
// opens its temporary URL, which needs no credentials. Nothing the script sends may reach
// the control API, the owner's API key must leak nowhere, and the JWT key must be unchanged.
// Without Chromium (.ci/ensure-chromium installs it) the test says so and is skipped.
func TestUploadedSVGCannotDriveTheFake(t *testing.T) {
	chromium := browser.Open(t)
	fake := fakeserver.New()
	t.Cleanup(fake.Close)
	var mu sync.Mutex
	var seen []string // every request the fake received while the browser had the file open
	recording, temp, asked := false, "", false
	requested := make(chan struct{}) // closed when the browser asks for the file
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		if recording {
			body, _ := io.ReadAll(r.Body)
			r.Body = io.NopCloser(strings.NewReader(string(body)))
			seen = append(seen, r.Method+" "+r.URL.RequestURI()+" "+string(body))
			if r.URL.RequestURI() == temp && !asked {
				asked = true
				close(requested)
			}
		}
		mu.Unlock()
		fake.ServeHTTP(w, r)
	}))
	t.Cleanup(hs.Close)

	owner, _ := defaultFixture.UserByRole("owner")
	// The owner's key is in the journal's replies, as after a client's password login.
	requireSuccess(t, "owner login", post(t, hs.URL, "", "/api/v1/fetch_api_key", "username", owner.Email, "password", owner.Password))
	jwtKey := fake.Config().JWTKey
	svg := strings.ReplaceAll(svgAttack, "OWNER", owner.Email)
	body, ctype := integMultipart(url.Values{}, "file", "cat.svg", []byte(svg))
	up := requireSuccess(t, "guest upload", do(t, hs.URL, request{method: http.MethodPost, path: "/api/v1/user_uploads", auth: guestAuth, body: body, contentType: ctype}))
	fileURL := requireSuccess(t, "temporary URL", get(t, hs.URL, guestAuth, "/api/v1"+up["url"].(string), ""))["url"].(string)

	mu.Lock()
	recording, temp = true, fileURL
	mu.Unlock()
	chromium.Visit(hs.URL+temp, 5*time.Second, requested)
	mu.Lock()
	recording = false
	got := append([]string(nil), seen...)
	mu.Unlock()

	opened := false
	for _, line := range got {
		opened = opened || strings.HasPrefix(line, "GET "+temp)
		if strings.Contains(line, "/_fake/") || strings.Contains(line, owner.APIKey) {
			t.Errorf("the uploaded file's script reached the fake: %.300s", line)
		}
	}
	if !opened {
		t.Fatalf("the browser never asked for the file: %q", got)
	}
	if fake.Config().JWTKey != jwtKey {
		t.Error("the uploaded file's script changed the JWT key")
	}
	t.Logf("requests while the file was open: %q", got)
}
