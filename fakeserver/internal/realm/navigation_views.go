package realm

import (
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/chatconform/chatconform/fakeserver/internal/apierr"
	"github.com/chatconform/chatconform/fakeserver/internal/events"
)

// NavigationView is a user's setting for one view of the left sidebar: a built-in view
// (inbox, recent conversations ...) pinned or not, or a custom view with its own name.
type NavigationView struct {
	Fragment string  `json:"fragment"`
	IsPinned bool    `json:"is_pinned"`
	Name     *string `json:"name"`
}

// builtInViews are the fragments of the real server's built-in views, which take no name.
var builtInViews = []string{
	"inbox", "recent", "feed", "drafts", "narrow/has/reaction/sender/me",
	"narrow/is/mentioned", "narrow/is/starred", "scheduled",
}

// The fake's own bounds on a user's navigation views (the real server has none): how many a
// user may have, and how long a fragment or name may be, in characters, so that a client adding
// views in a loop cannot grow the fake without end.
const (
	MaxNavigationViews          = 1000
	MaxNavigationViewTextLength = 1000
)

var (
	errViewExists  = apierr.BadRequest("Navigation view already exists.")
	errViewMissing = apierr.Of(apierr.KindNotFound, "BAD_REQUEST", "Navigation view does not exist.")
	errBuiltInName = apierr.BadRequest("Built-in views cannot have a custom name.")
)

// NavigationViews lists the user's navigation views, in the order they were added.
func (s *UserDataState) NavigationViews(userID int) []NavigationView {
	s.mu.RLock()
	defer s.mu.RUnlock()
	out := make([]NavigationView, 0, len(s.views[userID]))
	for _, v := range s.views[userID] {
		out = append(out, *v)
	}
	return out
}

// trimmedName is a view name as the real server reads it: trimmed, and not empty once trimmed.
func trimmedName(name *string) (*string, error) {
	if name == nil {
		return nil, nil
	}
	t := strings.TrimSpace(*name)
	if t == "" {
		return nil, apierr.BadRequest("name is too short.")
	}
	if err := checkViewTextLength("name", t); err != nil {
		return nil, err
	}
	return &t, nil
}

// viewFragment is a fragment as the real server reads it: trimmed, and not empty once trimmed.
func viewFragment(fragment string) (string, error) {
	f := strings.TrimSpace(fragment)
	if f == "" {
		return "", apierr.BadRequest("fragment is too short.")
	}
	return f, nil
}

// checkViewTextLength applies the fake's bound on a view's fragment or name.
func checkViewTextLength(param, text string) error {
	if utf8.RuneCountInString(text) > MaxNavigationViewTextLength {
		return apierr.BadRequest("%s is too long (limit: %d characters)", param, MaxNavigationViewTextLength)
	}
	return nil
}

func (s *UserDataState) viewIndex(userID int, fragment string) int {
	return slices.IndexFunc(s.views[userID], func(v *NavigationView) bool { return v.Fragment == fragment })
}

func (s *UserDataState) viewNamed(userID int, name string) bool {
	return slices.ContainsFunc(s.views[userID], func(v *NavigationView) bool { return v.Name != nil && *v.Name == name })
}

// AddNavigationView adds a view (POST /navigation_views): a built-in view takes no name, a
// custom one needs one; fragments and names are unique per user.
func (s *UserDataState) AddNavigationView(userID int, fragment string, isPinned bool, name *string) error {
	fragment, err := viewFragment(fragment)
	if err != nil {
		return err
	}
	if err := checkViewTextLength("fragment", fragment); err != nil {
		return err
	}
	if name, err = trimmedName(name); err != nil {
		return err
	}
	builtIn := slices.Contains(builtInViews, fragment)
	switch {
	case builtIn && name != nil:
		return errBuiltInName
	case !builtIn && name == nil:
		return apierr.BadRequest("Custom views must have a valid name.")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.viewIndex(userID, fragment) >= 0 || (name != nil && s.viewNamed(userID, *name)) {
		return errViewExists
	}
	if len(s.views[userID]) >= MaxNavigationViews {
		return apierr.BadRequest("A user can have at most %d navigation views.", MaxNavigationViews)
	}
	v := &NavigationView{Fragment: fragment, IsPinned: isPinned, Name: name}
	s.views[userID] = append(s.views[userID], v)
	s.publish(events.Event{"type": "navigation_view", "op": "add", "navigation_view": *v}, userID)
	return nil
}

// UpdateNavigationView changes a view's pinning or name (PATCH /navigation_views/{fragment});
// the event names what was sent, even when nothing was.
func (s *UserDataState) UpdateNavigationView(userID int, fragment string, isPinned *bool, name *string) error {
	fragment, err := viewFragment(fragment)
	if err != nil {
		return err
	}
	if name, err = trimmedName(name); err != nil {
		return err
	}
	if name != nil && slices.Contains(builtInViews, fragment) {
		return errBuiltInName
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if name != nil && s.viewNamed(userID, *name) {
		return errViewExists
	}
	i := s.viewIndex(userID, fragment)
	if i < 0 {
		return errViewMissing
	}
	v, data := s.views[userID][i], map[string]any{}
	if name != nil {
		v.Name, data["name"] = name, *name
	}
	if isPinned != nil {
		v.IsPinned, data["is_pinned"] = *isPinned, *isPinned
	}
	s.publish(events.Event{"type": "navigation_view", "op": "update", "fragment": fragment, "data": data}, userID)
	return nil
}

// RemoveNavigationView removes a view (DELETE /navigation_views/{fragment}).
func (s *UserDataState) RemoveNavigationView(userID int, fragment string) error {
	fragment, err := viewFragment(fragment)
	if err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	i := s.viewIndex(userID, fragment)
	if i < 0 {
		return errViewMissing
	}
	s.views[userID] = slices.Delete(s.views[userID], i, i+1)
	s.publish(events.Event{"type": "navigation_view", "op": "remove", "fragment": fragment}, userID)
	return nil
}
