package api_test

import (
	"github.com/chatconform/chatconform/fixtures"
)

// routeCasesUploads adds the bad-input cases of the routes whose handlers are in uploads.go.
func routeCasesUploads(add func(routeSpec)) {
	add(routeSpec{method: "GET", pattern: "/user_uploads/temporary/{token}/{name}", path: "/user_uploads/temporary/0123456789abcdef/" + integSetupFile,
		unknowable: "a temporary URL's token is random (TestUploadedFileDownloads uses one)"})

	// The setup upload (integrationSetUp): the owner's, attachment 1, whose path_id the fake
	// derives from the realm and the ID.
	setupFile := "/user_uploads/1/" + setupUpload + "/" + integSetupFile
	for _, prefix := range []string{"/api/v1", ""} { // the temporary URL, and the bytes
		file := routeSpec{method: "GET", pattern: prefix + "/user_uploads/*", path: prefix + setupFile, role: fixtures.RoleOwner, raw: prefix == ""}
		file.extra = []badCase{
			{"no such file", request{method: "GET", path: prefix + "/user_uploads/1/nothing/x.txt", auth: ownerAuth}, bad(404, "BAD_REQUEST", "File not found.")},
			{"a file the member may not see", file.as(memberAuth), bad(403, "BAD_REQUEST", "You are not authorized to view this file.")},
		}
		add(file)
	}
}
