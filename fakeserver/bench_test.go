package fakeserver_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/chatconform/chatconform/fakeserver"
)

// The fake's speed and memory per request, measured in-process (no network), so that a
// client developer knows what a test double costs: `make bench`.

func benchRequest(b *testing.B, srv http.Handler, method, path string, form url.Values) {
	b.Helper()
	req := httptest.NewRequest(method, path, strings.NewReader(form.Encode()))
	if form != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	req.Header.Set("Authorization", basicAuth(b, "owner"))
	rec := httptest.NewRecorder()
	srv.ServeHTTP(rec, req)
	if rec.Code != http.StatusOK {
		b.Fatalf("%s %s: %d %s", method, path, rec.Code, rec.Body)
	}
}

// BenchmarkSendMessage measures POST /messages to a channel, Markdown rendering included.
func BenchmarkSendMessage(b *testing.B) {
	srv := fakeserver.New()
	form := url.Values{"type": {"stream"}, "to": {"general"}, "topic": {"bench"}, "content": {"Hello **world**, see https://example.com"}}
	b.ReportAllocs()
	for b.Loop() {
		benchRequest(b, srv, "POST", "/api/v1/messages", form)
	}
}

// BenchmarkFetchMessage measures GET /messages/{id} on a realm holding 10,000 messages.
func BenchmarkFetchMessage(b *testing.B) {
	srv := realmWithMessages(b, 10000, 50)
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		i++
		benchRequest(b, srv, "GET", fmt.Sprintf("/api/v1/messages/%d", i%10000+1), nil)
	}
}

// BenchmarkTopics measures GET /users/me/{stream_id}/topics over 10,000 messages in 50 topics:
// the one operation whose cost grows with the realm, because topics are derived from messages.
func BenchmarkTopics(b *testing.B) {
	srv := realmWithMessages(b, 10000, 50)
	b.ReportAllocs()
	for b.Loop() {
		benchRequest(b, srv, "GET", "/api/v1/users/me/1/topics", nil)
	}
}

// realmWithMessages returns a fake holding n channel messages spread over the given number of topics.
func realmWithMessages(b *testing.B, n, topics int) http.Handler {
	b.Helper()
	srv := fakeserver.New()
	form := url.Values{"type": {"stream"}, "to": {"general"}, "content": {"message"}}
	for i := range n {
		form.Set("topic", fmt.Sprintf("topic %d", i%topics))
		benchRequest(b, srv, "POST", "/api/v1/messages", form)
	}
	return srv
}
