package pipeline

import (
	"encoding/base64"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chatconform/chatconform/fakeserver/internal/api"
	"github.com/chatconform/chatconform/fakeserver/internal/clock"
	"github.com/chatconform/chatconform/fakeserver/internal/config"
	"github.com/chatconform/chatconform/fakeserver/internal/events"
	"github.com/chatconform/chatconform/fakeserver/internal/realm"
	"github.com/chatconform/chatconform/fixtures"
	"github.com/go-chi/chi/v5"
	"github.com/go-chi/chi/v5/middleware"
)

// BenchmarkPipelineStages measures what each stage of the request pipeline (routes(), in its
// order) costs one request on its own: the stage around a handler that writes a short reply,
// beside that handler alone (none), with the features the stage serves switched off, as a
// request meets them by default (no fault, no rate limit). A stage's cost is its ns/op, B/op
// and allocs/op minus none's. all is the whole pipeline on GET /users/me; the stages plus the
// handler's own work (parameters, domain, reply) make it up.
func BenchmarkPipelineStages(b *testing.B) {
	s := newPipeline()
	owner, _ := fixtures.Default().UserByRole("owner")
	auth := "Basic " + base64.StdEncoding.EncodeToString([]byte(owner.Email+":"+owner.APIKey))
	reply := []byte(`{"result":"success","msg":""}`)
	handler := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(reply)
	})
	authed := func(next http.Handler) http.Handler { return s.requireAuth(next) }
	stages := []struct {
		name string
		mw   func(http.Handler) http.Handler
	}{
		{"none", func(h http.Handler) http.Handler { return h }},
		{"journal", s.journal.Record},
		{"faults", s.faults.Apply},
		{"recoverer", recoverer},
		{"limit-headers", s.limitHeaders},
		{"long-poll-deadline", s.longPollDeadline},
		{"read-body", readBodyFirst},
		{"generation", s.sameGeneration},
		{"feature-level", s.featureLevel},
		{"get-head", middleware.GetHead},
		{"auth", authed},
		{"auth+rate-limit", func(h http.Handler) http.Handler { return authed(s.rateLimit(h)) }},
	}
	for _, method := range []string{http.MethodGet, http.MethodPost} {
		for _, st := range stages {
			b.Run(method+"/"+st.name, func(b *testing.B) {
				runStage(b, st.mw(handler), method, auth)
			})
		}
		b.Run(method+"/all", func(b *testing.B) {
			path := "/api/v1/users/me"
			if method == http.MethodPost {
				path = "/api/v1/users/me/status" // a POST that changes nothing but the status text
			}
			runStageOn(b, s, method, path, auth)
		})
	}
}

func runStage(b *testing.B, h http.Handler, method, auth string) {
	runStageOn(b, h, method, "/api/v1/users/me", auth)
}

// runStageOn serves method on path through h, b.N times, with a small form body for a POST.
func runStageOn(b *testing.B, h http.Handler, method, path, auth string) {
	b.Helper()
	const form = "status_text=out+to+lunch"
	b.ReportAllocs()
	for b.Loop() {
		var body io.Reader
		if method == http.MethodPost {
			body = strings.NewReader(form)
		}
		req := httptest.NewRequest(method, path, body)
		if body != nil {
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		}
		req.Header.Set("Authorization", auth)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != http.StatusOK {
			b.Fatalf("%s %s: %d %s", method, path, rec.Code, rec.Body)
		}
	}
}

// newPipeline is the pipeline of a fake on the default fixture, without the routes outside
// the API.
func newPipeline() *Pipeline {
	f := fixtures.Default()
	clk := clock.New(time.Unix(f.Realm.StartTime, 0))
	hub := events.NewHub(clk, events.Options{})
	state := realm.New(f, clk, hub)
	state.SetFeatureLevel(f.Realm.FeatureLevel)
	cfg := config.Config{}.WithDefaults()
	current := func() *config.Config { return &cfg }
	var generation sync.RWMutex
	a := api.New(state, hub, clk, current, &generation)
	return New(state, a, current, &generation, NewJournal(1000, clk.Unix), &Faults{}, func(chi.Router) {}, nil)
}
