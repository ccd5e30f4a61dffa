package control

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"mime"
	"net"
	"net/http"
	"net/url"
	"strings"

	"github.com/chatconform/chatconform/fakeserver/internal/apierr"
	"github.com/chatconform/chatconform/fakeserver/internal/handler"
	"github.com/chatconform/chatconform/fakeserver/internal/pipeline"
)

// InspectorHeader is the header in which the inspector page (GET /_fake/) sends the
// per-process secret it was given; the control API answers no other web page. (Package
// fakeserver names it too, for its users.)
const InspectorHeader = "X-Chatconform-Inspector"

// newInspectorSecret is a secret for one process, known only to the pages of the inspector.
func newInspectorSecret() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// Guard protects the control API: off when so configured; the bearer token when one
// is configured, else a Host naming this machine (so that a web page whose domain name was
// rebound to 127.0.0.1 cannot reach it); no web page but the inspector (webPage); and for
// state-changing requests, proof that no cross-site web page sent them (crossSite).
func Guard(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s := serviceOf(r)
		// No site may show the control API in a frame (clickjacking the inspector's buttons).
		w.Header().Set("X-Frame-Options", "DENY")
		switch {
		case s.access.Off:
			handler.WriteError(w, apierr.NotFound())
		case s.access.Token != "" && !hasBearer(r, s.access.Token) && !inspectorPage(r):
			handler.WriteError(w, apierr.Unauthorized("The control API needs its token: Authorization: Bearer <token>"))
		case s.access.Token == "" && !isLocalHost(r.Host):
			handler.WriteError(w, apierr.New(http.StatusForbidden, "BAD_REQUEST", "The control API answers only requests addressed to this machine (Host %q); configure a control token to reach it by another name", r.Host))
		default:
			err := s.webPage(r)
			if err == nil {
				err = crossSite(r)
			}
			if err != nil {
				handler.WriteError(w, err)
				return
			}
			next.ServeHTTP(w, r)
		}
	})
}

func hasBearer(r *http.Request, token string) bool {
	scheme, value, _ := strings.Cut(r.Header.Get("Authorization"), " ")
	return strings.EqualFold(scheme, "Bearer") && subtle.ConstantTimeCompare([]byte(strings.TrimSpace(value)), []byte(token)) == 1
}

// isLocalHost reports whether a Host header names this machine by an IP address or as
// localhost: never a domain name an attacker controls.
func isLocalHost(hostport string) bool {
	host := hostport
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		host = h
	}
	host = strings.TrimSuffix(strings.Trim(host, "[]"), ".")
	if net.ParseIP(host) != nil {
		return true
	}
	host = strings.ToLower(host)
	return host == "localhost" || strings.HasSuffix(host, ".localhost")
}

// crossSite refuses a state-changing control request a web page of another site could have
// sent: one from another Origin, or a "simple" request (in the sense of CORS) that a page
// can send without the browser asking first. The suite's requests carry X-Chatconform-Spec;
// curl users add any X- header, a bearer token, or Content-Type: application/json.
func crossSite(r *http.Request) error {
	if r.Method == http.MethodGet || r.Method == http.MethodHead || r.Method == http.MethodOptions {
		return nil
	}
	refuse := func(why string) *apierr.Error {
		return apierr.New(http.StatusForbidden, "BAD_REQUEST", "Cross-site control request refused: %s", why)
	}
	if origin := r.Header.Get("Origin"); origin != "" {
		u, err := url.Parse(origin)
		if err != nil || !strings.EqualFold(u.Host, r.Host) {
			return refuse("Origin " + origin + " is not this server")
		}
	}
	if r.Header.Get("Sec-Fetch-Site") == "cross-site" {
		return refuse("Sec-Fetch-Site: cross-site")
	}
	if r.Header.Get("Authorization") != "" {
		return nil
	}
	for name := range r.Header {
		if strings.HasPrefix(name, "X-") {
			return nil
		}
	}
	if mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); mt == "application/json" {
		return nil
	}
	return refuse("send a header a web form cannot (any X- header, such as " + pipeline.SpecHeader + ", or a bearer token) or Content-Type: application/json")
}

// webPage refuses a request a web page sent, unless the page is the inspector: a script of
// any page of the fake's own origin (an uploaded file a browser shows, were it not sandboxed)
// could otherwise read the journal and change the configuration, as the browser sends such
// requests as same-origin ones. A browser says a page sent a request with Origin, or with a
// Sec-Fetch-Site other than "none" (which marks what a person typed or bookmarked, such as
// the inspector's own address). The inspector proves itself with the secret its page was
// given, in InspectorHeader; the bearer token, which no page of the fake knows, proves as much.
func (s *Service) webPage(r *http.Request) error {
	site := r.Header.Get("Sec-Fetch-Site")
	if r.Header.Get("Origin") == "" && (site == "" || site == "none") {
		return nil
	}
	if s.access.Token != "" && hasBearer(r, s.access.Token) {
		return nil
	}
	if subtle.ConstantTimeCompare([]byte(r.Header.Get(InspectorHeader)), []byte(s.inspectorSecret)) == 1 {
		return nil
	}
	return apierr.New(http.StatusForbidden, "BAD_REQUEST", "The control API answers no web page but the inspector: open /_fake/ from the address bar, or send the request from outside a browser")
}

// inspectorPage tells whether r asks for the inspector's page, which holds no data: a browser
// cannot add a header to a page it navigates to, so the page's own script sends the token with
// each request for data, as every control client does.
func inspectorPage(r *http.Request) bool {
	switch r.URL.Path {
	case "/_fake", "/_fake/", "/_fake/ui":
		return r.Method == http.MethodGet
	}
	return false
}
