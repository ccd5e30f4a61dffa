package api_test

import (
	"fmt"
	"net/http"
	"net/url"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chatconform/chatconform/fakeserver"
	"github.com/chatconform/chatconform/fixtures"
)

// startedAs is what a fake shows of the state it was started with: its configuration (as
// GET /_fake/config gives it) and realm as the API gives them.
type startedAs struct {
	push, video bool
	rateLimit   int
	level       int
	realmName   string
}

func readStartedAs(t testing.TB, base string) startedAs {
	t.Helper()
	cfg := requireSuccess(t, "GET /_fake/config", do(t, base, request{method: http.MethodGet, path: "/_fake/config"}))["config"].(map[string]any)
	settings := requireSuccess(t, "server settings", get(t, base, "", "/api/v1/server_settings", ""))
	return startedAs{push: cfg["push_configured"] == true, video: cfg["video_calls_configured"] == true,
		rateLimit: int(cfg["rate_limit_requests"].(float64)), level: int(settings["zulip_feature_level"].(float64)),
		realmName: settings["realm_name"].(string)}
}

func mustSettings(t testing.TB, json string) fakeserver.Option {
	t.Helper()
	opt, err := fakeserver.ParseSettings([]byte(json))
	if err != nil {
		t.Fatal(err)
	}
	return opt
}

// TestResetReturnsToTheStart: whatever a fake was started with (configuration, feature level,
// settings in the control API's words, a fixture of its own) is what POST /_fake/reset and
// Server.Reset return to, after PATCH /_fake/config changed all of it.
func TestResetReturnsToTheStart(t *testing.T) {
	ownRealm := fixtures.Default()
	ownRealm.Realm.Name, ownRealm.Realm.FeatureLevel = "Own Realm", 200
	defaultName := fixtures.Default().Realm.Name
	cases := []struct {
		name string
		opts []fakeserver.Option
		want startedAs
	}{
		{"defaults", nil, startedAs{level: 500, realmName: defaultName}},
		{"WithConfig", []fakeserver.Option{fakeserver.WithConfig(fakeserver.Config{PushConfigured: true, RateLimitRequests: 5000})},
			startedAs{push: true, rateLimit: 5000, level: 500, realmName: defaultName}},
		{"WithFeatureLevel", []fakeserver.Option{fakeserver.WithFeatureLevel(300)}, startedAs{level: 300, realmName: defaultName}},
		{"ParseSettings", []fakeserver.Option{mustSettings(t, `{"video_calls_configured": true, "feature_level": 250}`)},
			startedAs{video: true, level: 250, realmName: defaultName}},
		{"settings over WithConfig and WithFeatureLevel", []fakeserver.Option{mustSettings(t, `{"push_configured": false, "feature_level": 260}`),
			fakeserver.WithConfig(fakeserver.Config{PushConfigured: true, VideoCallsConfigured: true}), fakeserver.WithFeatureLevel(300)},
			startedAs{video: true, level: 260, realmName: defaultName}},
		{"WithFixture", []fakeserver.Option{fakeserver.WithFixture(ownRealm)}, startedAs{level: 200, realmName: "Own Realm"}},
		{"WithFixture and WithFeatureLevel", []fakeserver.Option{fakeserver.WithFixture(ownRealm), fakeserver.WithFeatureLevel(400)},
			startedAs{level: 400, realmName: "Own Realm"}},
	}
	const changeEverything = `{"push_configured": true, "video_calls_configured": true, "rate_limit_requests": 7, "feature_level": 100}`
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ts := fakeserver.Start(t, tc.opts...)
			if got := readStartedAs(t, ts.URL); got != tc.want {
				t.Fatalf("at start: %+v, want %+v", got, tc.want)
			}
			for _, reset := range []struct {
				how string
				do  func()
			}{
				{"POST /_fake/reset", func() {
					requireSuccess(t, "reset", do(t, ts.URL, request{method: http.MethodPost, path: "/_fake/reset"}))
				}},
				{"Server.Reset", ts.Server.Reset},
			} {
				requireSuccess(t, "patch", do(t, ts.URL, request{method: http.MethodPatch, path: "/_fake/config",
					body: []byte(changeEverything), contentType: "application/json"}))
				if got := readStartedAs(t, ts.URL); got == tc.want {
					t.Fatalf("the patch changed nothing: %+v", got)
				}
				reset.do()
				if got := readStartedAs(t, ts.URL); got != tc.want {
					t.Errorf("after %s: %+v, want the start's %+v", reset.how, got, tc.want)
				}
			}
		})
	}
}

// TestLoadFixtureKeepsTheStartConfiguration: a fixture loaded later brings its realm, and the
// configuration and level the fake was started with still apply to it.
func TestLoadFixtureKeepsTheStartConfiguration(t *testing.T) {
	ts := fakeserver.Start(t, fakeserver.WithConfig(fakeserver.Config{PushConfigured: true}), fakeserver.WithFeatureLevel(300))
	other := fixtures.Default()
	other.Realm.Name, other.Realm.FeatureLevel = "Loaded Realm", 200
	ts.Server.LoadFixture(other)
	want := startedAs{push: true, level: 300, realmName: "Loaded Realm"}
	if got := readStartedAs(t, ts.URL); got != want {
		t.Errorf("after LoadFixture: %+v, want %+v", got, want)
	}
	ts.Server.Reset()
	if got := readStartedAs(t, ts.URL); got != want {
		t.Errorf("after a reset of the loaded fixture: %+v, want %+v", got, want)
	}
}

func TestParseSettingsRefusesBadSettings(t *testing.T) {
	for _, tc := range []struct{ settings, want string }{
		{`[1]`, "not one JSON object"},
		{`not json`, "not one JSON object"},
		{`{"push_configurd": true}`, "push_configurd"},
		{`{"feature_level": 0}`, "feature_level must be between 1 and 10000"},
		{`{"rate_limit_requests": -1}`, "rate_limit_requests"},
		{`{"push_configured": "maybe"}`, "push_configured"},
		{`{"jwt_algorithm": "none"}`, "jwt_algorithm"},
	} {
		_, err := fakeserver.ParseSettings([]byte(tc.settings))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ParseSettings(%s): %v, want an error naming %q", tc.settings, err, tc.want)
		}
	}
}

// fatalRecorder is a testing.TB whose Fatalf records the message and ends the goroutine, as
// testing.T's does.
type fatalRecorder struct {
	testing.TB
	fatal string
}

func (r *fatalRecorder) Fatalf(format string, args ...any) {
	r.fatal = fmt.Sprintf(format, args...)
	runtime.Goexit()
}

// TestStartFailsTheTestOnBadOptions: a fixture that does not load or a level out of range
// fails the test with a message that says what is wrong, instead of a panic.
func TestStartFailsTheTestOnBadOptions(t *testing.T) {
	twoKeys := fixtures.Default()
	twoKeys.Users[1].APIKey = twoKeys.Users[0].APIKey
	shortKey := fixtures.Default()
	shortKey.Users[0].APIKey = "short"
	unknownEmoji := fixtures.Default()
	unknownEmoji.Messages = []fixtures.Message{{Sender: 4, Channel: "general", Topic: "t", Content: "hi",
		Reactions: []fixtures.Reaction{{User: 4, Emoji: "no_such_emoji_anywhere"}}}}
	for _, tc := range []struct {
		name string
		opt  fakeserver.Option
		want string
	}{
		{"nil fixture", fakeserver.WithFixture(nil), "WithFixture(nil)"},
		{"an API key twice", fakeserver.WithFixture(twoKeys), "api_key is used twice"},
		{"a short API key", fakeserver.WithFixture(shortKey), "api_key must be 32 letters or digits"},
		{"an unknown emoji", fakeserver.WithFixture(unknownEmoji), "messages.0"},
		{"level 0", fakeserver.WithFeatureLevel(-1), "WithFeatureLevel(-1)"},
		{"level too high", fakeserver.WithFeatureLevel(10_001), "1 to 10000"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec := &fatalRecorder{TB: t}
			done := make(chan *fakeserver.TestServer)
			go func() {
				var ts *fakeserver.TestServer
				defer func() { done <- ts }()
				ts = fakeserver.Start(rec, tc.opt)
			}()
			if ts := <-done; ts != nil {
				t.Fatalf("Start returned a server")
			}
			if !strings.Contains(rec.fatal, tc.want) || !strings.HasPrefix(rec.fatal, "fakeserver.Start: ") {
				t.Errorf("Start failed the test with %q, want a message naming %q", rec.fatal, tc.want)
			}
		})
	}
}

// TestResetAndConfigChangesAreOrdered races PATCH /_fake/config against POST /_fake/reset,
// hundreds of times: whichever comes second, the end state is one of the two orders, never a
// patch that wrote back what the reset had undone (push_configured, set before the race).
func TestResetAndConfigChangesAreOrdered(t *testing.T) {
	ts := fakeserver.Start(t)
	control := func(method, path, body string) (response, error) {
		return send(httpClient, ts.URL, request{method: method, path: path, body: []byte(body), contentType: "application/json"})
	}
	deadline := time.Now().Add(20 * time.Second)
	trials := 0
	for ; trials < 600 && time.Now().Before(deadline); trials++ {
		if res, err := control(http.MethodPatch, "/_fake/config", `{"push_configured": true}`); err != nil || res.status != 200 {
			t.Fatalf("setting up trial %d: %v %v", trials, err, res)
		}
		var wg sync.WaitGroup
		errs := make(chan error, 4)
		race := func(method, path, body string) {
			defer wg.Done()
			if res, err := control(method, path, body); err != nil || res.status != 200 {
				errs <- fmt.Errorf("%s %s: %w %v", method, path, err, res)
			}
		}
		wg.Add(4)
		go race(http.MethodPatch, "/_fake/config", `{"video_calls_configured": true, "feature_level": 300}`)
		go race(http.MethodPost, "/_fake/reset", "")
		go race(http.MethodPatch, "/_fake/config", `{"rate_limit_requests": 9000}`)
		go race(http.MethodPost, "/_fake/clock", `{"advance": 60}`)
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Fatal(err)
		}
		got := readStartedAs(t, ts.URL)
		if got.push {
			t.Fatalf("trial %d: push_configured, set before the reset, is back after it: a patch undid the reset (%+v)", trials, got)
		}
		if got.video != (got.level == 300) {
			t.Fatalf("trial %d: half a patch survived the reset: video calls %t, level %d", trials, got.video, got.level)
		}
	}
	if trials < 100 {
		t.Errorf("only %d trials in the time allowed", trials)
	}
	t.Logf("%d trials", trials)
}

// TestNoIdOrTokenOutlivesAReset: a file's URL and its temporary URL, handed out before a reset,
// never lead to a file uploaded after it, even one of the same name by the same user (path ids
// count from the fixture's again, which is what let an old URL serve the newer file).
func TestNoIdOrTokenOutlivesAReset(t *testing.T) {
	ts := newServer(t)
	upload := func(content string) (fileURL, temporary string) {
		body, ctype := integMultipart(url.Values{}, "file", "notes.txt", []byte(content))
		up := requireSuccess(t, "upload", do(t, ts.URL, request{method: http.MethodPost, path: "/api/v1/user_uploads", auth: memberAuth, body: body, contentType: ctype}))
		fileURL = up["url"].(string)
		temporary = requireSuccess(t, "temporary URL", get(t, ts.URL, memberAuth, "/api/v1"+fileURL, ""))["url"].(string)
		return fileURL, temporary
	}
	oldURL, oldTemporary := upload("before the reset")
	for i := range 3 { // each reset again: ids must not come back after two either
		requireSuccess(t, "reset", do(t, ts.URL, request{method: http.MethodPost, path: "/_fake/reset"}))
		newURL, newTemporary := upload(fmt.Sprintf("after reset %d", i+1))
		if newURL == oldURL || newTemporary == oldTemporary {
			t.Errorf("reset %d: an id came back: %s, %s", i+1, newURL, newTemporary)
		}
		for _, c := range []struct{ what, path, auth string }{
			{"the old file URL", oldURL, memberAuth},
			{"the old temporary URL", oldTemporary, ""},
		} {
			if res := do(t, ts.URL, request{method: http.MethodGet, path: c.path, auth: c.auth}); res.status != http.StatusNotFound {
				t.Errorf("reset %d: %s %s: HTTP %d %q, want 404", i+1, c.what, c.path, res.status, res.body)
			}
		}
		if res := do(t, ts.URL, request{method: http.MethodGet, path: newTemporary}); res.status != 200 || string(res.body) != fmt.Sprintf("after reset %d", i+1) {
			t.Errorf("reset %d: the new temporary URL: HTTP %d %q", i+1, res.status, res.body)
		}
		oldURL, oldTemporary = newURL, newTemporary
	}
}
