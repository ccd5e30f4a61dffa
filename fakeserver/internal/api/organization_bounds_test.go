package api_test

// The fake's own bounds on channel folders (per organization) and navigation views (per
// user), which the real server does not have: the request over the bound is refused with a
// clear error and changes nothing.

import (
	"fmt"
	"testing"

	"github.com/chatconform/chatconform/fakeserver/internal/realm"
)

func TestOrganizationCountBounds(t *testing.T) {
	base := newServer(t).URL
	for _, c := range []struct {
		name, msg string
		max       int
		add       func(i int) response
		count     func() int
	}{
		{"channel folders", fmt.Sprintf("An organization can have at most %d channel folders.", realm.MaxChannelFolders), realm.MaxChannelFolders,
			func(i int) response {
				return post(t, base, adminAuth, "/api/v1/channel_folders/create", "name", fmt.Sprint("Folder ", i), "description", "")
			},
			func() int {
				return len(requireSuccess(t, "folders", get(t, base, adminAuth, "/api/v1/channel_folders", "include_archived=true"))["channel_folders"].([]any))
			}},
		{"navigation views", fmt.Sprintf("A user can have at most %d navigation views.", realm.MaxNavigationViews), realm.MaxNavigationViews,
			func(i int) response {
				return post(t, base, memberAuth, "/api/v1/navigation_views", "fragment", fmt.Sprint("narrow/channel/", i), "is_pinned", "false", "name", fmt.Sprint("View ", i))
			},
			func() int {
				return len(requireSuccess(t, "views", get(t, base, memberAuth, "/api/v1/navigation_views", ""))["navigation_views"].([]any))
			}},
	} {
		t.Run(c.name, func(t *testing.T) {
			for i := range c.max {
				requireSuccess(t, fmt.Sprint("within the bound, ", i), c.add(i))
			}
			wantRefusal(t, "one over the bound", c.add(c.max), c.msg)
			if n := c.count(); n != c.max {
				t.Errorf("after the refusal: %d, want %d", n, c.max)
			}
		})
	}
	// The bound on views is each user's: another user still adds one.
	requireSuccess(t, "another user's view", post(t, base, ownerAuth, "/api/v1/navigation_views", "fragment", "narrow/is/followed", "is_pinned", "true", "name", "Followed"))
}
