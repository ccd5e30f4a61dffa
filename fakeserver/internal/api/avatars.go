package api

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"net/http"
	"strconv"
	"strings"
	"sync"

	"github.com/chatconform/chatconform/fakeserver/internal/apierr"
	"github.com/chatconform/chatconform/fakeserver/internal/handler"
	"github.com/chatconform/chatconform/fakeserver/internal/params"
)

// The images behind the URLs the fake hands out: the realm icon (server settings and the
// register state name it on the fake itself) and /avatar/{user}, by which clients reach a
// user's avatar without knowing its URL. Avatars are the real server's default, gravatar
// URLs derived from the email address, so /avatar/ redirects there, as the real server does.

// realmIconPath is the realm icon's path on the fake, the real server's default icon path.
const realmIconPath = "/static/images/logo/zulip-icon-128x128.png"

var realmIcon = sync.OnceValue(func() []byte {
	// A 128×128 icon drawn here: a rounded square of the fake's colour, no file to ship.
	img := image.NewNRGBA(image.Rect(0, 0, 128, 128))
	fill := color.NRGBA{R: 0x64, G: 0x92, B: 0xfe, A: 0xff}
	for y := 0; y < 128; y++ {
		for x := 0; x < 128; x++ {
			dx, dy := max(16-x, x-111, 0), max(16-y, y-111, 0)
			if dx*dx+dy*dy <= 16*16 {
				img.Set(x, y, fill)
			}
		}
	}
	var buf bytes.Buffer
	_ = png.Encode(&buf, img)
	return buf.Bytes()
})

// serveRealmIcon: GET /static/images/logo/zulip-icon-128x128.png.
func (s *Service) serveRealmIcon(w http.ResponseWriter, r *http.Request) {
	if _, err := params.Parse(r); err != nil {
		handler.WriteError(w, err)
		return
	}
	data := realmIcon()
	w.Header().Set("Content-Type", "image/png")
	w.Header().Set("Content-Length", strconv.Itoa(len(data)))
	w.Header().Set("Cache-Control", "public, max-age=86400")
	w.WriteHeader(http.StatusOK)
	if r.Method != http.MethodHead {
		_, _ = w.Write(data)
	}
}

// serveAvatar: GET /avatar/{user_id_or_email} and /avatar/{user_id_or_email}/medium — a
// redirect to the user's avatar (medium: the larger size), with the API's credentials.
func (s *Service) serveAvatar(w http.ResponseWriter, r *http.Request) {
	u, ok := s.authenticateRaw(w, r)
	if !ok {
		return
	}
	key := pathParam(r, "user_id_or_email")
	var url string
	var lookupErr error
	func() {
		s.generation.RLock()
		defer s.generation.RUnlock()
		id, err := strconv.Atoi(key)
		if err != nil {
			id, _ = s.realm().UserIDByEmail(u.ID, key)
		}
		view, verr := s.realm().UserView(u.ID, id)
		if verr != nil {
			lookupErr = apierr.NoSuchUser
			return
		}
		url, _ = view.AvatarURL.(string)
	}()
	if lookupErr != nil {
		handler.WriteError(w, lookupErr)
		return
	}
	if strings.HasSuffix(r.URL.Path, "/medium") {
		url += "&s=500"
	}
	http.Redirect(w, r, url, http.StatusFound)
}
