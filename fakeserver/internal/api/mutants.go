package api

import (
	"strings"

	"github.com/chatconform/chatconform/fakeserver/internal/handler"
)

// deletesTopic tells whether the call is delete topic (operation 8), for the mutants that
// break the administrators-only check there alone.
func deletesTopic(c *handler.Call) bool { return strings.HasSuffix(c.R.URL.Path, "/delete_topic") }
