package fakeserver

import "strings"

// deletesTopic tells whether the call is delete topic (operation 8), for the mutants that
// break the administrators-only check there alone.
func deletesTopic(c *call) bool { return strings.HasSuffix(c.r.URL.Path, "/delete_topic") }
