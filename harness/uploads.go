package harness

import (
	"bytes"
	"fmt"
	"mime/multipart"
	"net/url"
	"strings"

	"github.com/onsi/ginkgo/v2"
	"github.com/onsi/gomega"
)

// UploadedFile is a file a spec uploaded with POST /user_uploads.
type UploadedFile struct {
	// URL is the url of the upload response, relative to the server ("/user_uploads/…").
	URL string
	// PathID is URL without its "/user_uploads/" prefix: the attachment's path_id.
	PathID string
	// Name is the file name the spec uploaded the file under.
	Name string
}

// Link is Markdown that links the file, to put in a message that references it.
func (f UploadedFile) Link() string { return fmt.Sprintf("[%s](%s)", f.Name, f.URL) }

// uploadPrefix starts the URL of an uploaded file.
const uploadPrefix = "/user_uploads/"

// Upload uploads a file as u (POST /user_uploads, multipart, one file) under a unique name
// and returns it. Failure fails the spec.
func (t *Target) Upload(u User, content string) UploadedFile {
	ginkgo.GinkgoHelper()
	name := UniqueName("upload") + ".txt"
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	part, err := mw.CreateFormFile("file", name)
	g.Expect(err).NotTo(gomega.HaveOccurred())
	_, _ = part.Write([]byte(content))
	g.Expect(mw.Close()).To(gomega.Succeed())

	resp := Success(t.As(u).POST("/user_uploads").WithHeader("Content-Type", mw.FormDataContentType()).
		WithBytes(body.Bytes()).Expect())
	fileURL, ok := uploadURLOf(resp.Raw())
	g.Expect(ok).To(gomega.BeTrue(), "harness: POST /user_uploads returned no url")
	// A server may answer with an absolute URL; the path is what identifies the file.
	if parsed, err := url.Parse(fileURL); err == nil && parsed.IsAbs() {
		fileURL = parsed.Path
	}
	g.Expect(fileURL).To(gomega.HavePrefix(uploadPrefix), "harness: POST /user_uploads returned url %q", fileURL)
	return UploadedFile{URL: fileURL, PathID: strings.TrimPrefix(fileURL, uploadPrefix), Name: name}
}
