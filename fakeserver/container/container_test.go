package container_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chatconform/chatconform/fakeserver/container"
	"github.com/chatconform/chatconform/fixtures"
	"github.com/chatconform/chatconform/internal/testctx"
)

// TestRunWithOptions starts the fake's image with a fixture of its own, a feature level and a
// setting, and checks each through the API and the control API, at start and after a reset.
func TestRunWithOptions(t *testing.T) {
	if testing.Short() {
		t.Skip("builds an image and starts a container")
	}
	container.SkipWithoutEngine(t)
	fixture := strings.Replace(string(fixtures.DefaultYAML()), "name: ", "name: Mounted ", 1)
	path := filepath.Join(t.TempDir(), "realm.yaml")
	if err := os.WriteFile(path, []byte(fixture), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx := testctx.Context(t)
	c, err := container.Run(ctx, container.WithFixture(path), container.WithFeatureLevel(300),
		container.WithConfig(map[string]any{"push_configured": true}))
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = c.Terminate(context.Background()) }()

	get := func(path string) map[string]any {
		t.Helper()
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, c.URL+path, nil)
		req.SetBasicAuth(c.Owner.Email, c.Owner.APIKey)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var body map[string]any
		_ = json.NewDecoder(resp.Body).Decode(&body)
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("GET %s: %d %v", path, resp.StatusCode, body)
		}
		return body
	}
	control := func(method, path string, body []byte) {
		t.Helper()
		if _, err := c.Control(ctx, method, path, body); err != nil {
			t.Fatal(err)
		}
	}
	// What the container was started with, at start and after a reset that follows changes.
	check := func(when string) {
		t.Helper()
		settings := get("/api/v1/server_settings")
		if settings["zulip_feature_level"] != float64(300) || !strings.HasPrefix(settings["realm_name"].(string), "Mounted ") {
			t.Errorf("%s: server settings %v: want level 300 and the mounted fixture's realm", when, settings)
		}
		if me := get("/api/v1/users/me"); me["role"] != float64(100) {
			t.Errorf("%s: the owner's credentials: %v", when, me)
		}
		raw, err := c.Control(ctx, http.MethodGet, "/_fake/config", nil)
		if err != nil {
			t.Fatal(err)
		}
		var cfg struct {
			Config map[string]any `json:"config"`
		}
		_ = json.Unmarshal(raw, &cfg)
		if cfg.Config["push_configured"] != true {
			t.Errorf("%s: configuration %v: want push_configured", when, cfg.Config)
		}
	}
	check("at start")
	control(http.MethodPatch, "/_fake/config", []byte(`{"feature_level": 100, "push_configured": false}`))
	control(http.MethodPost, "/_fake/reset", nil)
	check("after a reset")
	if _, err := c.Control(ctx, http.MethodGet, "/_fake/bogus", nil); err == nil {
		t.Error("an unknown control route answered success")
	}
}

// ExampleRun starts the fake's image at feature level 300 and moves its clock through the
// control API (it needs a Docker engine, so it is compiled, not run, by go test).
func ExampleRun() {
	ctx := context.Background()
	c, err := container.Run(ctx, container.WithFeatureLevel(300))
	if err != nil {
		panic(err)
	}
	defer func() { _ = c.Terminate(ctx) }()
	out, err := c.Control(ctx, "POST", "/_fake/clock", []byte(`{"advance": 3600}`))
	fmt.Println(c.URL, c.Owner.Email, string(out), err)
}
