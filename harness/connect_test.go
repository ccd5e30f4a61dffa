package harness

import (
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"net/url"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// testFake is a tiny server with just what Connect and the provisioning
// helpers call, in the real server's shapes (reference sheet, section 3).
type testFake struct {
	mu       sync.Mutex
	users    []*fakeUser // index = id - 1
	channels map[string]*fakeChannel
	messages []url_values
	nextKey  int

	// Knobs for the tests.
	canCreateUsers bool
	health         string // body of GET /_fake/health; "" = 404
	settings       map[string]any
	register       map[string]any

	linkifiers map[int]string
	clockNow   int // GET /_fake/clock

	// Event queues (events_test.go).
	queues fakeQueues

	// User groups (groups_test.go).
	groups fakeGroups

	// What the fake saw.
	fetchEventTypes         []string
	userAgents, specHeaders []string
	paths                   []string
}

type url_values = map[string]string

type fakeUser struct {
	ID                         int
	Email, Key, Password, Name string
	Role                       int
	Bot                        bool
	Deactivated                bool
	Settings                   url.Values // the last PATCH /settings
}

type fakeChannel struct {
	ID                        int
	InviteOnly, HistoryPublic string
	Subscribers               map[int]bool
	Archived                  bool
}

const fakeOwnerEmail = "owner@chat.example.test"

func newTestFake() *testFake {
	f := &testFake{
		channels:       map[string]*fakeChannel{},
		linkifiers:     map[int]string{},
		clockNow:       1767225600,
		canCreateUsers: true,
		health:         `{"result":"success","msg":"","capabilities":["clock","reset"]}`,
		settings: map[string]any{"zulip_feature_level": 500, "zulip_version": "11.0-test",
			"realm_url": "http://chat.example.test"},
		register: map[string]any{"max_topic_length": 60, "max_message_length": 10000,
			"realm_empty_topic_display_name": "general chat", "queue_id": "q1"},
	}
	f.addUser(fakeOwnerEmail, ownerKey, "owner-password", 100, false)
	f.queues.init(&f.mu)
	return f
}

func (f *testFake) addUser(email, key, password string, role int, bot bool) *fakeUser {
	u := &fakeUser{ID: len(f.users) + 1, Email: email, Key: key, Password: password, Role: role, Bot: bot, Name: email}
	f.users = append(f.users, u)
	return u
}

func (f *testFake) newKey() string {
	f.nextKey++
	return fmt.Sprintf("%032d", f.nextKey)
}

// tb is what start needs of a *testing.T or GinkgoT().
type tb interface {
	Helper()
	Cleanup(func())
}

func (f *testFake) start(t tb) *httptest.Server {
	t.Helper()
	mux := http.NewServeMux()
	mux.HandleFunc("GET /api/v1/server_settings", func(w http.ResponseWriter, r *http.Request) { success(w, f.settings) })
	mux.HandleFunc("GET /_fake/health", func(w http.ResponseWriter, r *http.Request) {
		if f.health == "" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, f.health)
	})
	mux.HandleFunc("POST /api/v1/fetch_api_key", func(w http.ResponseWriter, r *http.Request) {
		for _, u := range f.users {
			if u.Email == r.FormValue("username") && u.Password == r.FormValue("password") {
				if u.Deactivated {
					fail(w, 401, "USER_DEACTIVATED", "Account is deactivated")
					return
				}
				success(w, map[string]any{"api_key": u.Key, "email": u.Email, "user_id": u.ID})
				return
			}
		}
		fail(w, 401, "AUTHENTICATION_FAILED", "Your username or password is incorrect")
	})
	mux.HandleFunc("GET /api/v1/users/me", f.authed(func(w http.ResponseWriter, r *http.Request, me *fakeUser) {
		success(w, map[string]any{"user_id": me.ID, "email": me.Email, "full_name": me.Name, "role": me.Role, "is_bot": me.Bot})
	}))
	mux.HandleFunc("POST /api/v1/register", f.authed(func(w http.ResponseWriter, r *http.Request, me *fakeUser) {
		f.fetchEventTypes = append(f.fetchEventTypes, r.FormValue("fetch_event_types"))
		body := map[string]any{}
		maps.Copy(body, f.register)
		maps.Copy(body, f.registerQueue(r, me))
		success(w, body)
	}))
	mux.HandleFunc("GET /_fake/clock", func(w http.ResponseWriter, r *http.Request) {
		success(w, map[string]any{"now": f.clockNow})
	})
	mux.HandleFunc("POST /api/v1/realm/filters", f.authed(func(w http.ResponseWriter, r *http.Request, me *fakeUser) {
		if me.Role > 200 {
			fail(w, 400, "UNAUTHORIZED_PRINCIPAL", "Must be an organization administrator")
			return
		}
		id := len(f.paths) // unique enough for a test
		f.linkifiers[id] = r.FormValue("pattern") + " " + r.FormValue("url_template")
		success(w, map[string]any{"id": id})
	}))
	mux.HandleFunc("DELETE /api/v1/realm/filters/{id}", f.authed(func(w http.ResponseWriter, r *http.Request, me *fakeUser) {
		id, _ := strconv.Atoi(r.PathValue("id"))
		delete(f.linkifiers, id)
		success(w, nil)
	}))
	mux.HandleFunc("POST /api/v1/users", f.authed(func(w http.ResponseWriter, r *http.Request, me *fakeUser) {
		if me.Role > 200 || !f.canCreateUsers {
			fail(w, 400, "BAD_REQUEST", "User not authorized to create users")
			return
		}
		u := f.addUser(r.FormValue("email"), f.newKey(), r.FormValue("password"), 400, false)
		u.Name = r.FormValue("full_name")
		success(w, map[string]any{"user_id": u.ID})
	}))
	mux.HandleFunc("PATCH /api/v1/users/{id}", f.authed(func(w http.ResponseWriter, r *http.Request, me *fakeUser) {
		u := f.user(r.PathValue("id"))
		role, err := strconv.Atoi(cmp.Or(r.FormValue("role"), "0"))
		if u == nil || err != nil || me.Role > 200 || ((role == 100 || u.Role == 100) && me.Role != 100) {
			fail(w, 400, "BAD_REQUEST", "No such user")
			return
		}
		if role != 0 {
			u.Role = role
		}
		u.Name = cmp.Or(r.FormValue("full_name"), u.Name)
		success(w, nil)
	}))
	mux.HandleFunc("PATCH /api/v1/settings", f.authed(func(w http.ResponseWriter, r *http.Request, me *fakeUser) {
		_ = r.ParseForm()
		me.Settings = r.PostForm
		success(w, nil)
	}))
	mux.HandleFunc("POST /api/v1/users/{id}/reactivate", f.authed(func(w http.ResponseWriter, r *http.Request, me *fakeUser) {
		u := f.user(r.PathValue("id"))
		if u == nil || me.Role > 200 || !u.Deactivated {
			fail(w, 400, "BAD_REQUEST", "No such user")
			return
		}
		u.Deactivated = false
		success(w, nil)
	}))
	mux.HandleFunc("GET /api/v1/users/{id}", f.authed(func(w http.ResponseWriter, r *http.Request, me *fakeUser) {
		u := f.user(r.PathValue("id"))
		if u == nil {
			fail(w, 400, "BAD_REQUEST", "No such user")
			return
		}
		success(w, map[string]any{"user": map[string]any{"user_id": u.ID, "email": fmt.Sprintf("user%d@chat.example.test", u.ID), "delivery_email": u.Email}})
	}))
	// Deactivation: DELETE /users/{id} for humans, DELETE /bots/{id} for bots, by administrators.
	for _, kind := range []string{"users", "bots"} {
		mux.HandleFunc("DELETE /api/v1/"+kind+"/{id}", f.authed(func(w http.ResponseWriter, r *http.Request, me *fakeUser) {
			u := f.user(r.PathValue("id"))
			if u == nil || me.Role > 200 || u.Bot != (kind == "bots") || u.Deactivated {
				fail(w, 400, "BAD_REQUEST", "No such user")
				return
			}
			u.Deactivated = true
			success(w, nil)
		}))
	}
	mux.HandleFunc("DELETE /api/v1/streams/{id}", f.authed(func(w http.ResponseWriter, r *http.Request, me *fakeUser) {
		for _, ch := range f.channels {
			if strconv.Itoa(ch.ID) == r.PathValue("id") && me.Role <= 200 && !ch.Archived {
				ch.Archived = true
				success(w, nil)
				return
			}
		}
		fail(w, 400, "BAD_REQUEST", "Invalid channel ID")
	}))
	mux.HandleFunc("POST /api/v1/bots", f.authed(func(w http.ResponseWriter, r *http.Request, me *fakeUser) {
		u := f.addUser(r.FormValue("short_name")+"-bot@chat.example.test", f.newKey(), "", 400, true)
		success(w, map[string]any{"user_id": u.ID, "api_key": u.Key})
	}))
	mux.HandleFunc("POST /api/v1/users/me/subscriptions", f.authed(func(w http.ResponseWriter, r *http.Request, me *fakeUser) {
		var subs []map[string]string
		var principals []int
		if json.Unmarshal([]byte(r.FormValue("subscriptions")), &subs) != nil || len(subs) != 1 ||
			json.Unmarshal([]byte(r.FormValue("principals")), &principals) != nil {
			fail(w, 400, "BAD_REQUEST", "subscriptions is not valid JSON")
			return
		}
		ch, ok := f.channels[subs[0]["name"]]
		if !ok {
			ch = &fakeChannel{ID: 100 + len(f.channels), InviteOnly: r.FormValue("invite_only"),
				HistoryPublic: r.FormValue("history_public_to_subscribers"), Subscribers: map[int]bool{}}
			f.channels[subs[0]["name"]] = ch
		}
		for _, id := range principals {
			ch.Subscribers[id] = true
		}
		success(w, map[string]any{"subscribed": map[string]any{}, "already_subscribed": map[string]any{}})
	}))
	mux.HandleFunc("GET /api/v1/get_stream_id", f.authed(func(w http.ResponseWriter, r *http.Request, me *fakeUser) {
		ch, ok := f.channels[r.URL.Query().Get("stream")]
		if !ok {
			fail(w, 400, "BAD_REQUEST", "Invalid channel name")
			return
		}
		success(w, map[string]any{"stream_id": ch.ID})
	}))
	mux.HandleFunc("POST /api/v1/messages", f.authed(func(w http.ResponseWriter, r *http.Request, me *fakeUser) {
		m := url_values{"sender": strconv.Itoa(me.ID)}
		for _, k := range []string{"type", "to", "topic", "content"} {
			m[k] = r.FormValue(k)
		}
		f.messages = append(f.messages, m)
		f.messageEvents(me, m, 1000+len(f.messages))
		success(w, map[string]any{"id": 1000 + len(f.messages)})
	}))

	f.routeEvents(mux)
	f.routeGroups(mux)

	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f.mu.Lock()
		defer f.mu.Unlock()
		f.userAgents = append(f.userAgents, r.UserAgent())
		f.specHeaders = append(f.specHeaders, r.Header.Get(SpecHeader))
		f.paths = append(f.paths, r.Method+" "+r.URL.Path)
		mux.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv
}

// user finds a user by id or by email.
func (f *testFake) user(id string) *fakeUser {
	n, err := strconv.Atoi(id)
	if err != nil {
		for _, u := range f.users {
			if u.Email == id {
				return u
			}
		}
	}
	if err != nil || n < 1 || n > len(f.users) {
		return nil
	}
	return f.users[n-1]
}

func (f *testFake) authed(h func(http.ResponseWriter, *http.Request, *fakeUser)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		email, key, ok := r.BasicAuth()
		for _, u := range f.users {
			if ok && u.Email == email && u.Key == key {
				if u.Deactivated {
					fail(w, 401, "USER_DEACTIVATED", "Account is deactivated")
					return
				}
				h(w, r, u)
				return
			}
		}
		fail(w, 401, "UNAUTHORIZED", "Not logged in: API authentication or user session required")
	}
}

func (f *testFake) byEmail(email string) *fakeUser {
	for _, u := range f.users {
		if u.Email == email {
			return u
		}
	}
	return nil
}

func success(w http.ResponseWriter, fields map[string]any) {
	body := map[string]any{"result": "success", "msg": ""}
	for k, v := range fields {
		body[k] = v
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(body)
}

func fail(w http.ResponseWriter, status int, code, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]any{"result": "error", "code": code, "msg": msg})
}

// connectCfg is a configuration for the fake at url.
func connectCfg(url string) Config {
	return Config{URL: url, Owner: Credentials{fakeOwnerEmail, ownerKey}, RequestTimeout: 5e9, ReportDir: "reports"}
}

func TestConnectProvisions(t *testing.T) {
	f := newTestFake()
	srv := f.start(t)
	cfg := connectCfg(srv.URL)
	cfg.Features = []string{"push"}
	tgt, err := Connect(cfg)
	if err != nil {
		t.Fatal(err)
	}

	if tgt.FeatureLevel != 500 || tgt.ServerFeatureLevel != 500 || tgt.ServerVersion != "11.0-test" {
		t.Errorf("levels = %d/%d %q", tgt.FeatureLevel, tgt.ServerFeatureLevel, tgt.ServerVersion)
	}
	if want := (Realm{URL: "http://chat.example.test", Host: "chat.example.test", EmptyTopicDisplayName: "general chat",
		MaxTopicLength: 60, MaxMessageLength: 10000}); !reflect.DeepEqual(tgt.Realm, want) {
		t.Errorf("realm = %+v, want %+v", tgt.Realm, want)
	}
	if !tgt.Capabilities["clock"] || !tgt.Capabilities["reset"] || tgt.CapabilitySource != "discovered" {
		t.Errorf("capabilities = %v (%s)", tgt.Capabilities, tgt.CapabilitySource)
	}
	if !tgt.Features["push"] || tgt.Features["vcall"] {
		t.Errorf("features = %v", tgt.Features)
	}

	for _, r := range Roles {
		u, ok := tgt.Users[r]
		if !ok {
			t.Errorf("no %s", r)
			continue
		}
		fu := f.byEmail(u.Email)
		if fu == nil || fu.ID != u.ID || fu.Key != u.APIKey {
			t.Errorf("%s = %+v, fake has %+v", r, u, fu)
			continue
		}
		if r == Bot {
			if !fu.Bot || !strings.HasSuffix(u.Email, "-bot@chat.example.test") {
				t.Errorf("bot = %+v", fu)
			}
		} else if fu.Role != roleCodes[r] {
			t.Errorf("%s has role %d, want %d", r, fu.Role, roleCodes[r])
		}
		if r != Owner {
			if r == Bot && (!u.Provisioned || !strings.HasPrefix(u.Email, "bot-"+tgt.RunID+"-")) {
				t.Errorf("bot = %+v, want a provisioned bot named after the run", u)
			}
			if r != Bot && (!u.Provisioned || u.Email != tgt.castEmail(string(r))) {
				t.Errorf("%s = %+v, want the persistent cast member %s", r, u, tgt.castEmail(string(r)))
			}
		}
	}
	// Members are created as members: no role change needed.
	for _, p := range f.paths {
		if p == fmt.Sprintf("PATCH /api/v1/users/%d", tgt.Users[Member].ID) {
			t.Errorf("member's role was patched")
		}
	}
	for i, ua := range f.userAgents {
		if ua != "chatconform/"+Version || f.specHeaders[i] != "setup" {
			t.Errorf("request %s: User-Agent %q, spec %q", f.paths[i], ua, f.specHeaders[i])
		}
	}

	// The encoded target is what the other Ginkgo processes use.
	back, err := DecodeTarget(tgt.Encode())
	if err != nil {
		t.Fatal(err)
	}
	if back.RunID != tgt.RunID || back.Users[Guest] != tgt.Users[Guest] || back.Realm.Host != tgt.Realm.Host ||
		!back.Capabilities["clock"] || back.Config.RequestTimeout != cfg.RequestTimeout {
		t.Errorf("decoded = %+v", back)
	}
}

func TestConnectUsesConfiguredUsers(t *testing.T) {
	f := newTestFake()
	guest := f.addUser("guest@chat.example.test", "guestkey00000000000000000000000g", "", 600, false)
	bot := f.addUser("b-bot@chat.example.test", "botkey0000000000000000000000000b", "", 400, true)
	srv := f.start(t)
	cfg := connectCfg(srv.URL)
	cfg.Users = map[Role]Credentials{Guest: {guest.Email, guest.Key}, Bot: {bot.Email, bot.Key}}
	cfg.Capabilities = []string{} // "none": no discovery
	cfg.FeatureLevel = 300
	tgt, err := Connect(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if u := tgt.Users[Guest]; u.ID != guest.ID || u.Provisioned {
		t.Errorf("guest = %+v", u)
	}
	if u := tgt.Users[Bot]; u.ID != bot.ID || u.Provisioned {
		t.Errorf("bot = %+v", u)
	}
	if tgt.FeatureLevel != 300 || tgt.ServerFeatureLevel != 500 {
		t.Errorf("feature level = %d (server %d), want the configured 300", tgt.FeatureLevel, tgt.ServerFeatureLevel)
	}
	if len(tgt.Capabilities) != 0 || tgt.CapabilitySource != "config" {
		t.Errorf("capabilities = %v (%s)", tgt.Capabilities, tgt.CapabilitySource)
	}
	for _, p := range f.paths {
		if p == "GET /_fake/health" || p == "POST /api/v1/bots" {
			t.Errorf("unexpected request %s", p)
		}
	}
	// owner, guest, bot + the pools of administrators, moderators, members + staff + the two
	// crowd members of a target whose wildcard-mention threshold is unknown + the spares
	spareTotal := 0
	for _, c := range spareCounts {
		spareTotal += c.n
	}
	if n, want := len(f.users), 3+castSlots[Admin]+castSlots[Moderator]+castSlots[Member]+staffSize+2+spareTotal; n != want {
		t.Errorf("fake has %d users, want %d", n, want)
	}
	if _, pooled := tgt.Pool[Guest]; pooled || len(tgt.Pool[Member]) != castSlots[Member] {
		t.Errorf("pool = %v, want no guest (configured) and %d members", tgt.Pool, castSlots[Member])
	}
}

func TestConnectDefaultsAndDiscovery(t *testing.T) {
	tests := []struct {
		name      string
		health    string
		register  map[string]any
		settings  map[string]any
		wantCaps  int
		source    string
		defaulted string
	}{
		{"no control API", "", nil, nil, 0, "none", ""},
		{"health not success", `{"result":"error","code":"X","msg":""}`, nil, nil, 0, "none", ""},
		{"health not JSON", `<html>`, nil, nil, 0, "none", ""},
		{"limits missing", "", map[string]any{"queue_id": "q"}, nil, 0, "none",
			"max_message_length,max_topic_length,realm_empty_topic_display_name"},
		{"realm_uri only", "", nil, map[string]any{"zulip_feature_level": 400, "realm_uri": "https://old.example.test"}, 0, "none", ""},
		{"no realm url", "", nil, map[string]any{"zulip_feature_level": 400}, 0, "none", "realm_url"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newTestFake()
			f.health = tt.health
			if tt.register != nil {
				f.register = tt.register
			}
			if tt.settings != nil {
				f.settings = tt.settings
			}
			tgt, err := Connect(connectCfg(f.start(t).URL))
			if err != nil {
				t.Fatal(err)
			}
			if len(tgt.Capabilities) != tt.wantCaps || tgt.CapabilitySource != tt.source {
				t.Errorf("capabilities = %v (%s)", tgt.Capabilities, tgt.CapabilitySource)
			}
			if got := strings.Join(tgt.Realm.Defaulted, ","); got != tt.defaulted {
				t.Errorf("defaulted = %q, want %q", got, tt.defaulted)
			}
			if tgt.Realm.MaxTopicLength != 60 || tgt.Realm.MaxMessageLength != 10000 || tgt.Realm.EmptyTopicDisplayName != "general chat" {
				t.Errorf("realm = %+v", tgt.Realm)
			}
			if tt.name == "realm_uri only" && tgt.Realm.Host != "old.example.test" {
				t.Errorf("host = %q", tgt.Realm.Host)
			}
			if tt.name == "no realm url" && tgt.Realm.Host != "chat.example.test" {
				t.Errorf("host = %q, want the owner's domain", tgt.Realm.Host)
			}
		})
	}
}

func TestConnectErrors(t *testing.T) {
	tests := []struct {
		name    string
		setup   func(f *testFake, cfg *Config)
		wantErr []string
	}{
		{"no url", func(f *testFake, cfg *Config) { cfg.URL = "" }, []string{"-chatconform.url", "fake"}},
		{"no owner key", func(f *testFake, cfg *Config) { cfg.Owner.APIKey = "" }, []string{"-chatconform.owner-api-key"}},
		{"wrong key", func(f *testFake, cfg *Config) { cfg.Owner.APIKey = strings.Repeat("x", 32) },
			[]string{"checking the owner", "GET /api/v1/users/me as owner@chat.example.test", "HTTP 401", "UNAUTHORIZED"}},
		{"not an owner", func(f *testFake, cfg *Config) { f.users[0].Role = 200 },
			[]string{"has role 200", "owner must have role 100"}},
		{"no feature level", func(f *testFake, cfg *Config) { f.settings = map[string]any{} },
			[]string{"zulip_feature_level", "-chatconform.feature-level"}},
		{"feature level not a number", func(f *testFake, cfg *Config) { f.settings = map[string]any{"zulip_feature_level": "new"} },
			[]string{"zulip_feature_level", "-chatconform.feature-level"}},
		{"cannot create users", func(f *testFake, cfg *Config) { f.canCreateUsers = false },
			// The staff are made first (they give the cast its roles).
			[]string{"provisioning the staff administrators", "staff administrator 1", "User not authorized", "can_create_users", "users.administrator"}},
		{"configured user has wrong role", func(f *testFake, cfg *Config) {
			u := f.addUser("m@chat.example.test", "memberkey0000000000000000000000m", "", 400, false)
			cfg.Users = map[Role]Credentials{Moderator: {u.Email, u.Key}}
		}, []string{"the moderator", "m@chat.example.test has role 400", "role 300"}},
		{"configured bot is human", func(f *testFake, cfg *Config) {
			u := f.addUser("h@chat.example.test", "humankey000000000000000000000000", "", 400, false)
			cfg.Users = map[Role]Credentials{Bot: {u.Email, u.Key}}
		}, []string{"is_bot"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newTestFake()
			cfg := connectCfg(f.start(t).URL)
			tt.setup(f, &cfg)
			_, err := Connect(cfg)
			if err == nil {
				t.Fatal("no error")
			}
			for _, want := range tt.wantErr {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("error %q does not mention %q", err, want)
				}
			}
			if strings.Contains(err.Error(), ownerKey) {
				t.Errorf("error %q holds the key", err)
			}
		})
	}
}

func TestDecodeTargetRejectsGarbage(t *testing.T) {
	for _, in := range []string{``, `{}`, `{"url":"http://x","run_id":"r"}`, `[1]`} {
		if _, err := DecodeTarget([]byte(in)); err == nil {
			t.Errorf("DecodeTarget(%q) accepted it", in)
		}
	}
}

// A second run finds the persistent cast and staff of the first by their stable names and
// creates no one but the run's bot.
func TestConnectReusesThePersistentCast(t *testing.T) {
	f := newTestFake()
	srv := f.start(t)
	first, err := Connect(connectCfg(srv.URL))
	if err != nil {
		t.Fatal(err)
	}
	before := len(f.users)
	second, err := Connect(connectCfg(srv.URL))
	if err != nil {
		t.Fatal(err)
	}
	if n := len(f.users) - before; n != 1 {
		t.Errorf("the second run created %d users, want 1 (its bot)", n)
	}
	for _, r := range []Role{Admin, Moderator, Member, Guest} {
		if a, b := first.Users[r], second.Users[r]; a.ID != b.ID || a.APIKey != b.APIKey {
			t.Errorf("%s: first run %+v, second %+v", r, a, b)
		}
	}
	if len(second.Staff) != staffSize || second.Staff[0].ID != first.Staff[0].ID {
		t.Errorf("staff: first run %v, second %v", first.Staff, second.Staff)
	}
	for r, pool := range first.Pool {
		for i, u := range pool {
			if b := second.Pool[r]; len(b) != len(pool) || b[i].ID != u.ID {
				t.Errorf("%s pool: first run %v, second %v", r, pool, b)
			}
		}
	}
	// The run's bot goes when the run ends.
	if err := second.Teardown(); err != nil {
		t.Fatal(err)
	}
	if bot := f.byEmail(second.Users[Bot].Email); bot == nil || !bot.Deactivated {
		t.Errorf("bot after Teardown = %+v, want deactivated", bot)
	}
}

// A persistent cast member someone deactivated is reported with what to do, not recreated.
func TestConnectReportsADeactivatedCastMember(t *testing.T) {
	f := newTestFake()
	srv := f.start(t)
	first, err := Connect(connectCfg(srv.URL))
	if err != nil {
		t.Fatal(err)
	}
	f.byEmail(first.Users[Moderator].Email).Deactivated = true
	_, err = Connect(connectCfg(srv.URL))
	if err == nil || !strings.Contains(err.Error(), "was deactivated: reactivate it, or give users.moderator") {
		t.Errorf("Connect: %v, want the deactivated moderator reported", err)
	}
}

// TestPreflight: the read-only check before a run fails on the URL, the owner and every account
// the configuration gives, in one line that names the setting to fix and where it was given;
// it creates nothing.
func TestPreflight(t *testing.T) {
	const file = "users.member in /etc/chatconform.yaml"
	tests := []struct {
		name    string
		setup   func(f *testFake, cfg *Config)
		wantErr []string // nil: passes
	}{
		{"all right", func(f *testFake, cfg *Config) {
			u := f.addUser("m@chat.example.test", "memberkey0000000000000000000000m", "", 400, false)
			cfg.Users = map[Role]Credentials{Member: {u.Email, u.Key}}
		}, nil},
		{"wrong owner key", func(f *testFake, cfg *Config) {
			cfg.Owner.APIKey = strings.Repeat("x", 32)
			cfg.Sources = map[string]string{"owner-api-key": "CHATCONFORM_OWNER_API_KEY"}
		}, []string{"checking the owner", "HTTP 401", "give an organization owner's email and API key", "CHATCONFORM_OWNER_API_KEY"}},
		{"a configured account's wrong key", func(f *testFake, cfg *Config) {
			u := f.addUser("m@chat.example.test", "memberkey0000000000000000000000m", "", 400, false)
			cfg.Users = map[Role]Credentials{Member: {u.Email, strings.Repeat("y", 32)}}
			cfg.Sources = map[string]string{"users.member": file}
		}, []string{"checking the member", "HTTP 401", file}},
		{"a configured account's wrong role", func(f *testFake, cfg *Config) {
			u := f.addUser("m@chat.example.test", "memberkey0000000000000000000000m", "", 200, false)
			cfg.Users = map[Role]Credentials{Member: {u.Email, u.Key}}
			cfg.Sources = map[string]string{"users.member": file}
		}, []string{"checking the member", "has role 200, but the member must have role 400", file}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newTestFake()
			cfg := connectCfg(f.start(t).URL)
			tt.setup(f, &cfg)
			users := len(f.users)
			err := Preflight(cfg)
			if len(f.users) != users {
				t.Errorf("the preflight created %d accounts", len(f.users)-users)
			}
			if tt.wantErr == nil {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if err == nil {
				t.Fatal("no error")
			}
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("error %q is more than one line", err)
			}
			for _, want := range tt.wantErr {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("error %q does not mention %q", err, want)
				}
			}
		})
	}
}

// A feature level mistyped as a string of digits still says which rules apply: the run goes
// on, so that the versioning spec can fail on the type (VER-02) rather than the whole run.
func TestConnectFeatureLevelAsString(t *testing.T) {
	f := newTestFake()
	f.settings = map[string]any{"zulip_feature_level": "400"}
	tgt, err := Connect(connectCfg(f.start(t).URL))
	if err != nil {
		t.Fatal(err)
	}
	if tgt.ServerFeatureLevel != 400 || tgt.FeatureLevel != 400 {
		t.Errorf("levels = %d, %d; want 400", tgt.ServerFeatureLevel, tgt.FeatureLevel)
	}
}
