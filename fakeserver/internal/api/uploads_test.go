package api_test

// Uploaded files, avatars and the realm icon: the URLs the fake hands out lead somewhere.

import (
	"bytes"
	"fmt"
	"image/png"
	"mime"
	"mime/multipart"
	"net/http"
	"net/textproto"
	"net/url"
	"strings"
	"testing"
)

func TestUploadedFileDownloads(t *testing.T) {
	ts := newServer(t)
	content := []byte("the minutes of the meeting\n")
	body, ctype := integMultipart(url.Values{}, "file", "minutes.txt", content)
	up := requireSuccess(t, "upload", do(t, ts.URL, request{method: http.MethodPost, path: "/api/v1/user_uploads", auth: ownerAuth, body: body, contentType: ctype}))
	fileURL := up["url"].(string)
	secret := newTestChannel(t, ts.URL, ownerAuth, "board", true, "[1,4]")
	requireSuccess(t, "share", post(t, ts.URL, ownerAuth, "/api/v1/messages", "type", "stream", "to", fmt.Sprint(secret), "topic", "t",
		"content", "[minutes]("+fileURL+")"))

	for _, tc := range []struct {
		who, auth string
		status    int
	}{
		{"the owner", ownerAuth, 200},
		{"a subscriber who can read the message", memberAuth, 200},
		{"a moderator outside the private channel", modAuth, 403},
		{"no credentials", "", 401},
	} {
		res := do(t, ts.URL, request{method: http.MethodGet, path: fileURL, auth: tc.auth})
		if res.status != tc.status {
			t.Errorf("%s: HTTP %d %s, want %d", tc.who, res.status, res, tc.status)
			continue
		}
		if tc.status == 200 && (!bytes.Equal(res.body, content) || !strings.HasPrefix(res.header.Get("Content-Type"), "text/plain") ||
			res.header.Get("Content-Disposition") != `inline; filename=minutes.txt`) {
			t.Errorf("%s: %q, Content-Type %q, Content-Disposition %q", tc.who, res.body, res.header.Get("Content-Type"), res.header.Get("Content-Disposition"))
		}
	}
	if res := do(t, ts.URL, request{method: http.MethodGet, path: "/user_uploads/1/nothing/here.txt", auth: ownerAuth}); res.status != 404 || res.env["msg"] != "File not found." {
		t.Errorf("a file that does not exist: HTTP %d %s", res.status, res)
	}

	// The API's temporary URL serves without credentials.
	env := requireSuccess(t, "temporary URL", get(t, ts.URL, memberAuth, "/api/v1"+fileURL, ""))
	temp, _ := env["url"].(string)
	if !strings.HasPrefix(temp, "/user_uploads/temporary/") || !strings.HasSuffix(temp, "/minutes.txt") {
		t.Fatalf("temporary URL %q", temp)
	}
	if res := do(t, ts.URL, request{method: http.MethodGet, path: temp}); res.status != 200 || !bytes.Equal(res.body, content) {
		t.Errorf("temporary URL without credentials: HTTP %d %s", res.status, res)
	}
	if res := do(t, ts.URL, request{method: http.MethodGet, path: "/user_uploads/temporary/0123/minutes.txt"}); res.status != 404 {
		t.Errorf("an unknown token: HTTP %d", res.status)
	}
	if res := get(t, ts.URL, modAuth, "/api/v1"+fileURL, ""); res.status != 403 {
		t.Errorf("temporary URL for a moderator who may not see the file: HTTP %d %s", res.status, res)
	}
}

// TestUploadPathsEscaped: a client that escapes the slashes of a file's path (go-zulip escapes
// the file name) names the same file, on the file route and the API's, as on the real server,
// which routes the decoded path.
func TestUploadPathsEscaped(t *testing.T) {
	ts := newServer(t)
	content := []byte("escaped\n")
	body, ctype := integMultipart(url.Values{}, "file", "notes.txt", content)
	up := requireSuccess(t, "upload", do(t, ts.URL, request{method: http.MethodPost, path: "/api/v1/user_uploads", auth: ownerAuth, body: body, contentType: ctype}))
	fileURL := up["url"].(string) // /user_uploads/{realm_id}/{path…}/notes.txt
	realmID, rest, _ := strings.Cut(strings.TrimPrefix(fileURL, "/user_uploads/"), "/")
	for _, escaped := range []string{
		"/user_uploads/" + realmID + "/" + strings.ReplaceAll(rest, "/", "%2F"),
		"/user_uploads/" + realmID + "%2F" + strings.ReplaceAll(rest, "/", "%2f"),
	} {
		if res := do(t, ts.URL, request{method: http.MethodGet, path: escaped, auth: ownerAuth}); res.status != 200 || !bytes.Equal(res.body, content) {
			t.Errorf("GET %s: HTTP %d %s", escaped, res.status, res)
		}
		env := requireSuccess(t, "temporary URL of "+escaped, get(t, ts.URL, ownerAuth, "/api/v1"+escaped, ""))
		if temp, _ := env["url"].(string); !strings.HasSuffix(temp, "/notes.txt") {
			t.Errorf("GET /api/v1%s: temporary URL %q", escaped, temp)
		}
	}
}

func TestRealmIconAndAvatars(t *testing.T) {
	ts := newServer(t)
	settings := requireSuccess(t, "server settings", get(t, ts.URL, "", "/api/v1/server_settings", ""))
	icon := strings.TrimPrefix(settings["realm_icon"].(string), ts.URL)
	res := do(t, ts.URL, request{method: http.MethodGet, path: icon})
	if res.status != 200 || res.header.Get("Content-Type") != "image/png" {
		t.Fatalf("realm icon %s: HTTP %d %s", icon, res.status, res.header.Get("Content-Type"))
	}
	if img, err := png.Decode(bytes.NewReader(res.body)); err != nil || img.Bounds().Dx() != 128 {
		t.Errorf("realm icon is no 128-pixel PNG: %v", err)
	}

	me := requireSuccess(t, "me", get(t, ts.URL, memberAuth, "/api/v1/users/1", "client_gravatar=false"))["user"].(map[string]any)
	for path, want := range map[string]string{
		"/avatar/1":                              me["avatar_url"].(string),
		"/avatar/owner@chat.example.test/medium": me["avatar_url"].(string) + "&s=500",
	} {
		res := do(t, ts.URL, request{method: http.MethodGet, path: path, auth: memberAuth})
		if res.status != http.StatusFound || res.header.Get("Location") != want {
			t.Errorf("%s: HTTP %d to %q, want 302 to %q", path, res.status, res.header.Get("Location"), want)
		}
	}
	if res := do(t, ts.URL, request{method: http.MethodGet, path: "/avatar/999", auth: memberAuth}); res.status != 400 || res.env["msg"] != "No such user" {
		t.Errorf("avatar of nobody: HTTP %d %s", res.status, res)
	}
}

// TestUploadedFilesAreServedSafely: every reply of the file routes forbids scripts and type
// sniffing, and only the real server's short list of harmless types is shown in place: an
// SVG, HTML or XML file is a download whatever type its uploader declared (or left to the
// fake to guess from the name), through the credentialed URL and the temporary one alike.
func TestUploadedFilesAreServedSafely(t *testing.T) {
	ts := newServer(t)
	for _, tc := range []struct {
		name, declared, wantType, wantDisposition string
	}{
		{"cat.svg", "application/octet-stream", "image/svg+xml", "attachment"},
		{"cat.svg", "image/svg+xml", "image/svg+xml", "attachment"},
		{"page.html", "", "text/html; charset=utf-8", "attachment"},
		{"page.xhtml", "application/xhtml+xml", "application/xhtml+xml", "attachment"},
		{"data.xml", "text/xml", "text/xml", "attachment"},
		{"notes.txt", "text/plain; charset=utf-8", "text/plain; charset=utf-8", "inline"},
		{"photo.png", "image/png", "image/png", "inline"},
		{"paper.pdf", "application/pdf", "application/pdf", "inline"},
		{"archive.zip", "application/zip", "application/zip", "attachment"},
	} {
		var buf bytes.Buffer
		mw := multipart.NewWriter(&buf)
		h := textproto.MIMEHeader{"Content-Disposition": {`form-data; name="file"; filename="` + tc.name + `"`}}
		if tc.declared != "" {
			h.Set("Content-Type", tc.declared)
		}
		part, _ := mw.CreatePart(h)
		_, _ = part.Write([]byte("<svg xmlns='http://www.w3.org/2000/svg'><script>alert(1)</script></svg>"))
		_ = mw.Close()
		up := requireSuccess(t, "upload "+tc.name, do(t, ts.URL, request{method: http.MethodPost, path: "/api/v1/user_uploads", auth: memberAuth, body: buf.Bytes(), contentType: mw.FormDataContentType()}))
		temp := requireSuccess(t, "temporary URL", get(t, ts.URL, memberAuth, "/api/v1"+up["url"].(string), ""))["url"].(string)
		for _, res := range []response{get(t, ts.URL, memberAuth, up["url"].(string), ""), get(t, ts.URL, "", temp, "")} {
			disposition, _, _ := mime.ParseMediaType(res.header.Get("Content-Disposition"))
			if res.status != 200 || res.header.Get("Content-Type") != tc.wantType || disposition != tc.wantDisposition {
				t.Errorf("%s declared %q: HTTP %d, Content-Type %q, Content-Disposition %q; want %q, %s",
					tc.name, tc.declared, res.status, res.header.Get("Content-Type"), res.header.Get("Content-Disposition"), tc.wantType, tc.wantDisposition)
			}
			fileReplyMustBeInert(t, tc.name, res)
		}
	}
	for _, path := range []string{"/user_uploads/1/nothing/here.svg", "/user_uploads/temporary/0123/here.svg", realmIconPath} {
		fileReplyMustBeInert(t, path, get(t, ts.URL, memberAuth, path, ""))
	}
}

// realmIconPath is where the realm icon is served from (server_settings' realm_icon).
const realmIconPath = "/static/images/logo/zulip-icon-128x128.png"

func fileReplyMustBeInert(t *testing.T, what string, res response) {
	t.Helper()
	if csp := res.header.Get("Content-Security-Policy"); csp != "default-src 'none'; sandbox" {
		t.Errorf("%s: HTTP %d with Content-Security-Policy %q, want default-src 'none'; sandbox", what, res.status, csp)
	}
	if res.header.Get("X-Content-Type-Options") != "nosniff" {
		t.Errorf("%s: HTTP %d without X-Content-Type-Options: nosniff", what, res.status)
	}
}
