package api

import (
	"crypto/rand"
	"encoding/hex"
	"mime"
	"net/http"
	"path"
	"strconv"
	"sync"
	"time"

	"github.com/chatconform/chatconform/fakeserver/internal/apierr"
	"github.com/chatconform/chatconform/fakeserver/internal/handler"
	"github.com/chatconform/chatconform/fakeserver/internal/params"
	"github.com/chatconform/chatconform/fakeserver/internal/realm"
)

// Uploaded files are served as on the real server: GET /user_uploads/<path_id> (outside the
// API, with the API's HTTP Basic credentials) gives the bytes to whoever may see the file;
// GET /api/v1/user_uploads/<path_id> gives a temporary URL that serves them without
// credentials for a minute of real time, for clients that hand the file to a browser or an
// image loader.

// temporaryUploadLifetime is how long a temporary URL serves its file (the real server: 60 s).
const temporaryUploadLifetime = 60 * time.Second

// temporaryUploads maps the tokens of temporary URLs to what they serve.
type temporaryUploads struct {
	mu     sync.Mutex
	tokens map[string]temporaryUpload
}

type temporaryUpload struct {
	userID  int
	pathID  string
	expires time.Time
}

func (t *temporaryUploads) add(userID int, pathID string) string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	token := hex.EncodeToString(b[:])
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.tokens == nil {
		t.tokens = map[string]temporaryUpload{}
	}
	now := time.Now()
	for k, v := range t.tokens { // forget the expired ones
		if now.After(v.expires) {
			delete(t.tokens, k)
		}
	}
	t.tokens[token] = temporaryUpload{userID: userID, pathID: pathID, expires: now.Add(temporaryUploadLifetime)}
	return token
}

func (t *temporaryUploads) get(token string) (temporaryUpload, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	v, ok := t.tokens[token]
	if !ok || time.Now().After(v.expires) {
		return temporaryUpload{}, false
	}
	return v, true
}

// uploadPathID is the path_id a /user_uploads/ request names (everything after the prefix),
// decoded: clients that escape the file name's slashes (%2F) name the same file.
func uploadPathID(r *http.Request) string { return pathParam(r, "*") }

// fileURL: GET /api/v1/user_uploads/{path_id} — a temporary URL of a file the user may see.
func (s *Service) fileURL(c *handler.Call) (handler.Fields, error) {
	pathID := uploadPathID(c.R)
	if err := c.Done(); err != nil {
		return nil, err
	}
	if _, err := s.realm().DownloadFile(c.User.ID, pathID); err != nil {
		return nil, err
	}
	token := s.uploads.add(c.User.ID, pathID)
	return handler.Fields{"url": "/user_uploads/temporary/" + token + "/" + path.Base(pathID)}, nil
}

// serveUpload: GET /user_uploads/{path_id} with HTTP Basic credentials — the file's bytes.
func (s *Service) serveUpload(w http.ResponseWriter, r *http.Request) {
	if u, ok := s.authenticateRaw(w, r); ok {
		s.sendFile(w, r, u.ID, uploadPathID(r))
	}
}

// authenticateRaw checks the query and the HTTP Basic credentials of a request outside the
// API, and answers the failure itself; ok is false then.
func (s *Service) authenticateRaw(w http.ResponseWriter, r *http.Request) (u realm.User, ok bool) {
	if _, err := params.Parse(r); err != nil {
		handler.WriteError(w, err)
		return u, false
	}
	u, err := handler.Authenticate(r, s.realm())
	if err != nil {
		handler.WriteError(w, err)
		return u, false
	}
	return u, true
}

// serveTemporaryUpload: GET /user_uploads/temporary/{token}/{name} — no credentials needed
// while the token lives.
func (s *Service) serveTemporaryUpload(w http.ResponseWriter, r *http.Request) {
	if _, err := params.Parse(r); err != nil {
		handler.WriteError(w, err)
		return
	}
	t, ok := s.uploads.get(pathParam(r, "token"))
	if !ok || path.Base(t.pathID) != pathParam(r, "name") {
		handler.WriteError(w, apierr.New(http.StatusNotFound, "BAD_REQUEST", "File not found."))
		return
	}
	s.sendFile(w, r, t.userID, t.pathID)
}

// inlineTypes are the content types a browser may show in place, the real server's list: none
// of them can run a script. Anything else (SVG, HTML, XML, …) is sent as a download, so that
// a file a user uploaded never becomes a page of the fake's origin.
var inlineTypes = map[string]bool{
	"application/pdf": true,
	"audio/aac":       true, "audio/flac": true, "audio/mp4": true, "audio/mpeg": true, "audio/wav": true, "audio/webm": true,
	"image/apng": true, "image/avif": true, "image/gif": true, "image/jpeg": true, "image/png": true, "image/webp": true,
	"text/plain": true,
	"video/mp4":  true, "video/webm": true,
}

// fileReplyHeaders marks every reply of the file routes as a document that may run nothing and
// load nothing, even when a browser shows it in place (the sandbox gives it an origin of its
// own, so no script of it could reach the API or the control API as the fake's origin), and
// forbids guessing a type other than the one sent.
func fileReplyHeaders(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Content-Security-Policy", "default-src 'none'; sandbox")
		h.Set("X-Content-Type-Options", "nosniff")
		next.ServeHTTP(w, r)
	})
}

// sendFile writes an uploaded file: the inlineTypes in place, anything else as a download.
func (s *Service) sendFile(w http.ResponseWriter, r *http.Request, userID int, pathID string) {
	var f realm.UploadedFile
	var err error
	func() { // the file is read under the generation lock, and written after it
		s.generation.RLock()
		defer s.generation.RUnlock()
		f, err = s.realm().DownloadFile(userID, pathID)
	}()
	if err != nil {
		handler.WriteError(w, err)
		return
	}
	// A client that did not know the type sent none or octet-stream: the name tells it, as
	// the real server guesses it, else the bytes do.
	ctype := f.ContentType
	if ctype == "" || ctype == "application/octet-stream" {
		if ctype = mime.TypeByExtension(path.Ext(f.Name)); ctype == "" {
			ctype = http.DetectContentType(f.Content)
		}
	}
	disposition := "attachment"
	if mt, _, err := mime.ParseMediaType(ctype); err == nil && inlineTypes[mt] {
		disposition = "inline"
	}
	h := w.Header()
	h.Set("Content-Type", ctype)
	h.Set("Content-Disposition", mime.FormatMediaType(disposition, map[string]string{"filename": f.Name}))
	h.Set("Content-Length", strconv.Itoa(len(f.Content)))
	h.Set("Cache-Control", "private, max-age=3600")
	w.WriteHeader(http.StatusOK)
	if r.Method != http.MethodHead {
		_, _ = w.Write(f.Content)
	}
}
