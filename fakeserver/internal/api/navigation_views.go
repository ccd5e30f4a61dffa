package api

import (
	"github.com/chatconform/chatconform/fakeserver/internal/apierr"
	"github.com/chatconform/chatconform/fakeserver/internal/handler"
)

// getNavigationViews: GET /navigation_views — the requester's navigation views.
func (s *Service) getNavigationViews(c *handler.Call) (handler.Fields, error) {
	if err := c.Done(); err != nil {
		return nil, err
	}
	return handler.Fields{"navigation_views": s.realm().NavigationViews(c.User.ID)}, nil
}

// addNavigationView: POST /navigation_views.
func (s *Service) addNavigationView(c *handler.Call) (handler.Fields, error) {
	fragment := c.P.RequiredString("fragment")
	if !c.P.Has("is_pinned") {
		c.P.Fail(apierr.Missing("is_pinned"))
	}
	isPinned := c.P.Bool("is_pinned", false)
	name := optionalString(c, "name")
	if err := c.Done(); err != nil {
		return nil, err
	}
	return handler.Fields{}, s.realm().AddNavigationView(c.User.ID, fragment, isPinned, name)
}

// updateNavigationView: PATCH /navigation_views/{fragment}.
func (s *Service) updateNavigationView(c *handler.Call) (handler.Fields, error) {
	isPinned := optionalBool(c, "is_pinned")
	name := optionalString(c, "name")
	if err := c.Done(); err != nil {
		return nil, err
	}
	return handler.Fields{}, s.realm().UpdateNavigationView(c.User.ID, viewFragment(c), isPinned, name)
}

// removeNavigationView: DELETE /navigation_views/{fragment}.
func (s *Service) removeNavigationView(c *handler.Call) (handler.Fields, error) {
	if err := c.Done(); err != nil {
		return nil, err
	}
	return handler.Fields{}, s.realm().RemoveNavigationView(c.User.ID, viewFragment(c))
}

// viewFragment is the fragment a path names. Fragments hold slashes (narrow/is/starred),
// which the real server's route takes as they are or encoded (%2F).
func viewFragment(c *handler.Call) string { return pathParam(c.R, "*") }
