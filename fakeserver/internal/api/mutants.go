package api

import "github.com/chatconform/chatconform/fakeserver/internal/realm"

// Helpers of the mutation points of this package (package mutation), kept here so that each
// point stays a one-statement hook.

// pathIDs are the detached uploads' path_id strings in place of the objects.
func pathIDs(detached []realm.DetachedUpload) []string {
	ids := make([]string, len(detached))
	for i, d := range detached {
		ids[i] = d.PathID
	}
	return ids
}
