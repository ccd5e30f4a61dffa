package fakeserver

import (
	"net/url"

	"github.com/chatconform/chatconform/fakeserver/internal/apierr"

	"github.com/go-chi/chi/v5"
)

// getNavigationViews: GET /navigation_views — the requester's navigation views.
func (s *Server) getNavigationViews(c *call) (fields, error) {
	if err := c.done(); err != nil {
		return nil, err
	}
	return fields{"navigation_views": s.realm().NavigationViews(c.user.ID)}, nil
}

// addNavigationView: POST /navigation_views.
func (s *Server) addNavigationView(c *call) (fields, error) {
	fragment := c.p.RequiredString("fragment")
	if !c.p.Has("is_pinned") {
		c.p.Fail(apierr.Missing("is_pinned"))
	}
	isPinned := c.p.Bool("is_pinned", false)
	name := optionalString(c, "name")
	if err := c.done(); err != nil {
		return nil, err
	}
	return fields{}, s.realm().AddNavigationView(c.user.ID, fragment, isPinned, name)
}

// updateNavigationView: PATCH /navigation_views/{fragment}.
func (s *Server) updateNavigationView(c *call) (fields, error) {
	isPinned := optionalBool(c, "is_pinned")
	name := optionalString(c, "name")
	if err := c.done(); err != nil {
		return nil, err
	}
	return fields{}, s.realm().UpdateNavigationView(c.user.ID, viewFragment(c), isPinned, name)
}

// removeNavigationView: DELETE /navigation_views/{fragment}.
func (s *Server) removeNavigationView(c *call) (fields, error) {
	if err := c.done(); err != nil {
		return nil, err
	}
	return fields{}, s.realm().RemoveNavigationView(c.user.ID, viewFragment(c))
}

// viewFragment is the fragment a path names. Fragments hold slashes (narrow/is/starred),
// which the real server's route takes as they are or encoded (%2F).
func viewFragment(c *call) string {
	raw := chi.URLParam(c.r, "*")
	if c.r.URL.RawPath == "" { // chi routed the decoded path
		return raw
	}
	decoded, err := url.PathUnescape(raw)
	if err != nil {
		return raw
	}
	return decoded
}
