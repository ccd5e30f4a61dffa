package harness

import (
	"bytes"
	"fmt"
	"mime/multipart"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gavv/httpexpect/v2"
	"github.com/onsi/ginkgo/v2"
	"github.com/onsi/gomega"
)

// Helpers of the integrations area: uploads, the fake's configuration switches for the push
// service and the video-call integration, and virtual time.

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

// SetFakeConfig changes one setting of the fake's configuration (PATCH /_fake/config) for the
// rest of the spec and restores its value when the spec ends. Callers declare the config
// capability first, and their specs are Serial: the configuration is server-wide.
func (t *Target) SetFakeConfig(name string, value any) {
	ginkgo.GinkgoHelper()
	requireSerial("changing the fake's configuration")
	obj, err := t.call(http.MethodGet, t.URL+"/_fake/config", nil, nil)
	g.Expect(err).NotTo(gomega.HaveOccurred(), "harness: reading the fake's configuration")
	config, _ := obj["config"].(map[string]any)
	previous, known := config[name]
	g.Expect(known).To(gomega.BeTrue(), "harness: the fake's configuration has no %s", name)
	patch := func(v any) error {
		_, err := t.call(http.MethodPatch, t.URL+"/_fake/config", nil, url.Values{name: {jsonParam(v)}})
		return err
	}
	g.Expect(patch(value)).To(gomega.Succeed(), "harness: setting the fake's %s to %v", name, value)
	ginkgo.DeferCleanup(func() {
		g.Expect(patch(previous)).To(gomega.Succeed(), "harness: restoring the fake's %s to %v", name, previous)
	})
}

// UsePushService makes the spec run against a server with a push notification service: a
// target that claims the push feature has one; on the fake it is switched on for the spec
// (config capability, Serial spec); otherwise the spec is not applicable.
func (t *Target) UsePushService() {
	ginkgo.GinkgoHelper()
	if t.Features["push"] {
		return
	}
	if !t.Capabilities["config"] {
		t.NeedFeature("push")
	}
	t.SetFakeConfig("push_configured", true)
}

// WithoutPushService makes the spec run against a server without a push notification
// service: on the fake it is switched off for the spec; a target that claims the push
// feature has one, so the spec is not applicable there; any other target is taken at its word.
func (t *Target) WithoutPushService() {
	ginkgo.GinkgoHelper()
	if t.Capabilities["config"] {
		t.SetFakeConfig("push_configured", false)
		return
	}
	if t.Features["push"] {
		ginkgo.Skip(NotApplicablePrefix + " the target claims feature push, so it has a push notification service")
	}
}

// UseVideoCalls makes the spec run against a server whose video-call integration is
// configured: a target claiming the vcall feature, or the fake with the integration switched
// on for the spec. The user's provider token comes from the control API (vcall-token).
func (t *Target) UseVideoCalls() {
	ginkgo.GinkgoHelper()
	t.NeedCapability("vcall-token")
	if t.Features["vcall"] {
		return
	}
	if !t.Capabilities["config"] {
		t.NeedFeature("vcall")
	}
	t.SetFakeConfig("video_calls_configured", true)
}

// WithoutVideoCalls makes the spec run against a server whose video-call integration is not
// configured: on the fake it is switched off for the spec; a target claiming the vcall
// feature is not applicable; any other target is taken at its word.
func (t *Target) WithoutVideoCalls() {
	ginkgo.GinkgoHelper()
	if t.Capabilities["config"] {
		t.SetFakeConfig("video_calls_configured", false)
		return
	}
	if t.Features["vcall"] {
		ginkgo.Skip(NotApplicablePrefix + " the target claims feature vcall, so its video-call integration is configured")
	}
}

// PassTime moves the target's virtual clock forward by d (POST /_fake/clock), which also
// delivers what falls due (reminders, upload expiry). Callers declare the clock capability;
// their specs are Serial, because every spec shares the clock.
func (t *Target) PassTime(d time.Duration) {
	ginkgo.GinkgoHelper()
	requireSerial("moving the fake's clock")
	seconds := int64(d / time.Second)
	_, err := t.call(http.MethodPost, t.URL+"/_fake/clock", nil, url.Values{"advance": {strconv.FormatInt(seconds, 10)}})
	g.Expect(err).NotTo(gomega.HaveOccurred(), "harness: moving the clock forward by %s", d)
}

// envelopeKeys are the fields every success response may carry.
var envelopeKeys = map[string]bool{"result": true, "msg": true, "ignored_parameters_unsupported": true}

// BareSuccess asserts a success envelope for an operation whose response the document says
// has "no extra fields". That means the operation documents none, not that a server may send
// none: a field beyond result, msg and ignored_parameters_unsupported never fails a spec; it
// is recorded as information.
func BareSuccess(r *httpexpect.Response) *httpexpect.Object {
	ginkgo.GinkgoHelper()
	obj := Success(r)
	var extra []string
	for key := range obj.Raw() {
		if !envelopeKeys[key] {
			extra = append(extra, key)
		}
	}
	if len(extra) > 0 {
		slices.Sort(extra)
		Info("undocumented response fields", "%v", extra)
	}
	return obj
}
