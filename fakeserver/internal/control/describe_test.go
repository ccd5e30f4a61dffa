package control_test

import (
	"io"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/go-chi/chi/v5"

	"github.com/chatconform/chatconform/fakeserver"
	"github.com/chatconform/chatconform/fakeserver/internal/api"
	"github.com/chatconform/chatconform/fakeserver/internal/control"
	"github.com/chatconform/chatconform/fakeserver/internal/pipeline"
	"github.com/chatconform/chatconform/fakeserver/openapi/check"
)

// samplePaths turns a chi pattern into a path the description must route: each parameter
// becomes a value its pattern takes.
var samplePaths = strings.NewReplacer(
	api.UserEmail, "iago@chat.example.test",
	api.UserIDOrEmail, "12",
	"/user_uploads/*", "/user_uploads/1/4f2a/notes.txt",
	"/user_avatars/exports/1/*", "/user_avatars/exports/1/4f2a/realm-export-1.json",
)

var anyParam = regexp.MustCompile(`\{[a-z_]+(:[^}]*)?\}`)

// Every route the fake serves is in its OpenAPI description: a route added without its
// description fails here (add it to fakeserver/openapi/openapi.yaml).
func TestEveryRouteIsDescribed(t *testing.T) {
	checker, err := check.New()
	if err != nil {
		t.Fatal(err)
	}
	s := fakeserver.New()
	defer s.Close()
	routes := 0
	err = chi.Walk(pipeline.Routes(), func(method, route string, _ http.Handler, _ ...func(http.Handler) http.Handler) error {
		path := anyParam.ReplaceAllString(samplePaths.Replace(route), "1")
		if method == http.MethodHead {
			return nil // HEAD is answered by the GET route
		}
		routes++
		if !checker.Documented(method, path) {
			t.Errorf("%s %s (as %s) is not in fakeserver/openapi/openapi.yaml", method, route, path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if routes < 100 {
		t.Fatalf("walked only %d routes", routes)
	}
}

// The fake serves its description as JSON, without credentials.
func TestServesDescription(t *testing.T) {
	ts := fakeserver.NewTestServer()
	defer ts.Close()
	resp, err := http.Get(ts.URL + control.DescribePath)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != "application/json" {
		t.Fatalf("GET %s: %s, %s", control.DescribePath, resp.Status, resp.Header.Get("Content-Type"))
	}
	// What a client generator reads: the same description, valid as JSON.
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	loader := openapi3.NewLoader()
	doc, err := loader.LoadFromData(body)
	if err != nil {
		t.Fatal(err)
	}
	if err := doc.Validate(loader.Context); err != nil {
		t.Fatalf("the served description is not valid: %v", err)
	}
	if doc.OpenAPI != "3.1.0" || doc.Paths.Find("/api/v1/messages/{message_id}") == nil {
		t.Fatalf("the served description is not the fake's: openapi %q", doc.OpenAPI)
	}
}
