package harness

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/onsi/ginkgo/v2/types"
)

// Exchange is one HTTP request and what came back, as the reports carry it: credentials
// redacted, bodies as text and cut at maxLoggedBody.
type Exchange struct {
	// Start is when the request was sent; the reports tell the exchange a failure was about by it.
	Start          time.Time           `json:"start,omitzero"`
	Method         string              `json:"method"`
	URL            string              `json:"url"`
	RequestHeaders map[string][]string `json:"request_headers,omitempty"`
	RequestBody    string              `json:"request_body,omitempty"`
	// Status is the HTTP status code; 0 when no response came (Error says why).
	Status          int                 `json:"status"`
	ResponseHeaders map[string][]string `json:"response_headers,omitempty"`
	ResponseBody    string              `json:"response_body,omitempty"`
	Error           string              `json:"error,omitempty"`
	DurationMS      int64               `json:"duration_ms"`
	// FailedAssertions are the messages of the httpexpect assertions about this exchange's
	// response that failed (at most the last maxNotedFailures): the reports mark the exchange
	// a spec's failure was about by its message, whatever the spec sent after it.
	FailedAssertions []string `json:"failed_assertions,omitempty"`

	// tag is in the context of the request sent, so the response's assertions find it.
	tag *exchangeTag
}

// maxNotedFailures bounds the messages kept on one exchange: an assertion retried by
// Eventually on one response fails again and again, and only the last one is the spec's.
const maxNotedFailures = 4

// exchangeKey is the context key of a recorded request's exchangeTag.
type exchangeKey struct{}

// exchangeTag goes with a recorded request (in its context, which every copy of the request,
// and so the response's Request, keeps) and collects the failures of the assertions about it.
type exchangeTag struct{ failed []string }

// noteFailedAssertion notes on the recorded exchange that gave resp that an assertion about
// it failed with msg (as the spec's failure carries it). A response not recorded through the
// harness's transport (or recorded before the spec) has no exchange to note it on.
func noteFailedAssertion(resp *http.Response, msg string) {
	if resp == nil || resp.Request == nil {
		return
	}
	tag, ok := resp.Request.Context().Value(exchangeKey{}).(*exchangeTag)
	if !ok {
		return
	}
	recorded.Lock()
	defer recorded.Unlock()
	if len(tag.failed) == maxNotedFailures {
		tag.failed = tag.failed[1:]
	}
	tag.failed = append(tag.failed, msg)
}

// ExchangesEntry names the report entry that holds a spec's exchanges.
const ExchangesEntry = "exchanges"

// ExchangesOf returns the exchanges a spec's report entry holds, or nil.
func ExchangesOf(entries types.ReportEntries) []Exchange {
	for _, e := range entries {
		if e.Name != ExchangesEntry {
			continue
		}
		// The value itself in the process that added it, its JSON once it came from another.
		if list, ok := e.Value.GetRawValue().([]Exchange); ok {
			return list
		}
		var list []Exchange
		if json.Unmarshal([]byte(e.Value.AsJSON), &list) == nil {
			return list
		}
	}
	return nil
}

// recorded holds the exchanges of this process since TakeExchanges last ran. A process runs
// one spec at a time, so between the suite's BeforeEach and AfterEach they are the spec's.
var recorded struct {
	sync.Mutex
	list []Exchange
}

// TakeExchanges returns the exchanges recorded since the last call and forgets them.
func TakeExchanges() []Exchange {
	recorded.Lock()
	defer recorded.Unlock()
	list := recorded.list
	recorded.list = nil
	for i := range list {
		if t := list[i].tag; t != nil && len(t.failed) > 0 {
			list[i].FailedAssertions = slices.Clone(t.failed)
		}
	}
	return list
}

// exchangeRecorder records every exchange that goes through it, under every client of the
// target (the API, the control API, the event queue), each attempt of a retried request
// included.
type exchangeRecorder struct{ base http.RoundTripper }

func (rt exchangeRecorder) RoundTrip(req *http.Request) (*http.Response, error) {
	var reqBody []byte
	if req.Body != nil && req.Body != http.NoBody {
		var err error
		if reqBody, err = io.ReadAll(req.Body); err != nil {
			return nil, err
		}
		req.Body.Close()
		req = req.Clone(req.Context())
		req.Body = io.NopCloser(bytes.NewReader(reqBody))
	}
	shown := *req.URL
	shown.User = nil
	shown.RawQuery = redactQuery(req.URL.RawQuery)
	tag := &exchangeTag{}
	req = req.WithContext(context.WithValue(req.Context(), exchangeKey{}, tag))
	ex := Exchange{
		Start: time.Now(), Method: req.Method, URL: shown.String(), RequestHeaders: redactedHeaders(req.Header),
		RequestBody: bodyText(req.Header.Get("Content-Type"), reqBody), tag: tag,
	}
	start := time.Now()
	resp, err := rt.base.RoundTrip(req)
	ex.DurationMS = time.Since(start).Milliseconds()
	if err != nil {
		ex.Error = err.Error()
		record(ex)
		return nil, err
	}
	if resp.Request == nil {
		// The response's Request is how its assertions find the exchange (http.Transport
		// sets it; another RoundTripper may not).
		resp.Request = req
	}
	respBody, readErr := io.ReadAll(resp.Body)
	resp.Body.Close()
	resp.Body = io.NopCloser(bytes.NewReader(respBody))
	ex.Status, ex.ResponseHeaders = resp.StatusCode, redactedHeaders(resp.Header)
	ex.ResponseBody = bodyText(resp.Header.Get("Content-Type"), respBody)
	if readErr != nil {
		ex.Error = "reading the body: " + readErr.Error()
	}
	record(ex)
	return resp, nil
}

func record(ex Exchange) {
	recorded.Lock()
	defer recorded.Unlock()
	recorded.list = append(recorded.list, ex)
}

func redactedHeaders(h http.Header) map[string][]string {
	if len(h) == 0 {
		return nil
	}
	out := make(map[string][]string, len(h))
	for name, values := range h {
		for _, v := range values {
			out[name] = append(out[name], redactHeader(name, v))
		}
	}
	return out
}

// bodyText is a body as the reports show it: a form with its secret parameters hidden, text
// with any credential in it hidden, anything else by its size.
func bodyText(contentType string, body []byte) string {
	if len(body) == 0 {
		return ""
	}
	mt, _, _ := mime.ParseMediaType(contentType)
	switch {
	case mt == "application/x-www-form-urlencoded":
		return truncate(redactQuery(string(body)))
	case strings.HasPrefix(mt, "multipart/"):
		return fmt.Sprintf("<%s body, %d bytes>", mt, len(body))
	case utf8.Valid(body):
		return RedactText(truncate(string(bytes.TrimSpace(body))))
	}
	return fmt.Sprintf("<%d bytes of %s>", len(body), contentType)
}
