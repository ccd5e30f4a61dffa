package fakeserver

import "strings"

// deletesTopic tells whether the call is delete topic (operation 8), for the mutant that lets
// moderators past the administrators-only check there alone.
func deletesTopic(c *call) bool {
	return c.user.IsModerator() && strings.HasSuffix(c.r.URL.Path, "/delete_topic")
}
