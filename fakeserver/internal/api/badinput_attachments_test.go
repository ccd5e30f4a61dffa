package api_test

import (
	"bytes"
	"fmt"
	"mime/multipart"
	"net/url"

	"github.com/chatconform/chatconform/fakeserver/internal/realm"
	"github.com/chatconform/chatconform/fixtures"
)

// routeCasesAttachments adds the bad-input cases of the routes whose handlers are in attachments.go.
func routeCasesAttachments(add func(routeSpec)) {
	upload := routeSpec{method: "POST", pattern: "/api/v1/user_uploads", path: "/api/v1/user_uploads", role: fixtures.RoleMember, upload: "file"}
	twoFiles := func() request {
		var buf bytes.Buffer
		mw := multipart.NewWriter(&buf)
		for _, name := range []string{"a.txt", "b.txt"} {
			w, _ := mw.CreateFormFile(name, name)
			_, _ = w.Write([]byte(name))
		}
		_ = mw.Close()
		return request{method: "POST", path: upload.path, auth: memberAuth, body: buf.Bytes(), contentType: mw.FormDataContentType()}
	}
	tooLarge := func() request {
		body, contentType := integMultipart(url.Values{}, "file", "big.bin", bytes.Repeat([]byte{'x'}, realm.MaxUploadBytes+1))
		return request{method: "POST", path: upload.path, auth: memberAuth, body: body, contentType: contentType}
	}
	onlyFields := func() request {
		body, contentType := integMultipart(url.Values{"file": {"not a file"}}, "", "", nil)
		return request{method: "POST", path: upload.path, auth: memberAuth, body: body, contentType: contentType}
	}
	upload.extra = []badCase{
		{"no file (form body)", request{method: "POST", path: upload.path, auth: memberAuth, body: formBody("file", "not a file"), contentType: formType}, badRequest("You must specify a file to upload")},
		{"no file (multipart fields only)", onlyFields(), badRequest("You must specify a file to upload")},
		{"two files", twoFiles(), badRequest("You may only upload one file at a time")},
		{"a file over the size limit", tooLarge(), badRequest(fmt.Sprintf("File is larger than this server's configured maximum upload size (%d MiB).", realm.MaxUploadBytes>>20))},
	}
	add(upload)

	add(routeSpec{method: "GET", pattern: "/api/v1/attachments", path: "/api/v1/attachments", role: fixtures.RoleMember})

	delAttachment := routeSpec{method: "DELETE", pattern: "/api/v1/attachments/{attachment_id:[0-9]+}", path: "/api/v1/attachments/{id}",
		id: integSetupAttach, notFound: "Invalid attachment", role: fixtures.RoleOwner}
	delAttachment.extra = []badCase{
		{"another user's attachment", delAttachment.as(memberAuth), badRequest("Invalid attachment")},
		{"an administrator deleting the owner's attachment", delAttachment.as(adminAuth), badRequest("Invalid attachment")},
	}
	add(delAttachment)
}
