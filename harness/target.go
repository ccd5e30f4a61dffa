package harness

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/gavv/httpexpect/v2"
	"github.com/onsi/ginkgo/v2"
)

// User is one account of the cast.
type User struct {
	Role     Role   `json:"role"`
	ID       int    `json:"id"`
	Email    string `json:"email"` // the login (delivery) email, the Basic username
	FullName string `json:"full_name"`
	APIKey   string `json:"api_key"`
	// Provisioned is true when Connect created the account, false when it
	// came from the configuration.
	Provisioned bool `json:"provisioned"`
}

// Realm holds what the specs need to know about the target's realm.
type Realm struct {
	// URL is realm_url (or the older realm_uri) of GET /server_settings.
	URL string `json:"url"`
	// Host is URL's host name, or the owner's email domain when the
	// server reports no realm URL (then "realm_url" is in Defaulted).
	Host                  string `json:"host"`
	EmptyTopicDisplayName string `json:"empty_topic_display_name"`
	MaxTopicLength        int    `json:"max_topic_length"`
	MaxMessageLength      int    `json:"max_message_length"`
	// ClockOffsetSeconds is how far the target's clock is ahead of the suite's
	// (negative: behind), measured once at setup from a message timestamp.
	ClockOffsetSeconds int64 `json:"clock_offset_seconds"`
	// Defaulted names the values the target did not report, which were
	// filled in from the real server's documented defaults.
	Defaulted []string `json:"defaulted,omitempty"`
}

// Target is a connected, provisioned server. Connect builds one in one
// process; Encode and DecodeTarget hand it to the other Ginkgo processes.
type Target struct {
	URL string `json:"url"`
	// FeatureLevel is the level specs are gated on: the configured one, or
	// else the one the server reports.
	FeatureLevel int `json:"feature_level"`
	// ServerFeatureLevel is what GET /server_settings reported (0 if none).
	ServerFeatureLevel int    `json:"server_feature_level"`
	ServerVersion      string `json:"server_version,omitempty"`
	// Features the target claims (configuration).
	Features map[string]bool `json:"features"`
	// Capabilities of the target's control API.
	Capabilities map[string]bool `json:"capabilities"`
	// CapabilitySource says where Capabilities came from: "config",
	// "discovered" (GET /_fake/health) or "none".
	CapabilitySource string `json:"capability_source"`
	// OwnerPermissions are the permissions the owner holds beyond the role; nil when
	// unknown. OwnerPermissionSource says where they came from: "config", "discovered"
	// (GET /_fake/health) or "unknown".
	OwnerPermissions      []string      `json:"owner_permissions"`
	OwnerPermissionSource string        `json:"owner_permission_source"`
	Realm                 Realm         `json:"realm"`
	Users                 map[Role]User `json:"users"`
	// Pool holds, per non-owner human role not given in the configuration, the persistent
	// accounts the specs take in turn (NextCast); Users holds the current spec's.
	Pool map[Role][]User `json:"pool,omitempty"`
	// CrowdUsers are the persistent members of the crowd (Crowd), found by Connect.
	CrowdUsers []User `json:"crowd,omitempty"`
	// Spares are the persistent accounts the specs that change a user take in turn (Spare),
	// found by Connect.
	Spares []User `json:"spares,omitempty"`
	// Staff are the persistent administrators that share the harness's housekeeping
	// (cast.go); empty when the owner may not create them.
	Staff []User `json:"staff,omitempty"`
	// RunID is random per run and shared by all processes; UniqueName
	// uses it so names never collide across runs on a shared server.
	RunID string `json:"run_id"`
	// Config is the configuration Connect was given.
	Config Config `json:"config"`

	// Reporter receives assertion failures of the clients; nil fails the
	// current Ginkgo spec. Tests of the harness set a recording reporter.
	Reporter httpexpect.Reporter `json:"-"`
	// Log receives the HTTP exchanges; nil means GinkgoWriter.
	Log io.Writer `json:"-"`

	clientOnce sync.Once
	client     *http.Client
}

// Encode serialises the target, for SynchronizedBeforeSuite to pass from
// process 1 to every process.
func (t *Target) Encode() []byte {
	b, err := json.Marshal(t)
	if err != nil {
		// Only plain data is marshalled; failure is a programming error.
		panic(fmt.Sprintf("harness: encoding target: %v", err))
	}
	return b
}

// DecodeTarget reverses Encode.
func DecodeTarget(b []byte) (*Target, error) {
	var t Target
	if err := json.Unmarshal(b, &t); err != nil {
		return nil, fmt.Errorf("harness: decoding target: %w", err)
	}
	if t.URL == "" || t.RunID == "" {
		return nil, errors.New("harness: decoding target: no URL or run id (was it made by Target.Encode?)")
	}
	if _, ok := t.Users[Owner]; !ok {
		return nil, errors.New("harness: decoding target: no owner")
	}
	return &t, nil
}

// FeatureList returns the claimed features, sorted.
func (t *Target) FeatureList() []string { return sortedKeys(t.Features) }

// CapabilityList returns the capabilities, sorted.
func (t *Target) CapabilityList() []string { return sortedKeys(t.Capabilities) }

// httpClient is shared by all clients of the target: one connection pool,
// the configured timeout per attempt, rate limits waited out (ratelimit.go),
// and no cookie jar, so every request stands alone.
func (t *Target) httpClient() *http.Client {
	t.clientOnce.Do(func() {
		timeout := t.Config.RequestTimeout
		if timeout <= 0 {
			timeout = 10 * time.Second
		}
		base := t.baseTransport()
		if t.Config.ControlToken != "" {
			base = controlAuth{token: t.Config.ControlToken, base: base}
		}
		t.client = &http.Client{Transport: newRetryTransport(base, timeout, t.logWriter)}
	})
	return t.client
}

// logWriter is where exchanges go.
func (t *Target) logWriter() io.Writer {
	if t.Log != nil {
		return t.Log
	}
	return ginkgo.GinkgoWriter
}

var (
	currentMu sync.RWMutex
	current   *Target
)

// SetCurrent makes t the suite's target; the bootstrap calls it in every
// process.
func SetCurrent(t *Target) {
	currentMu.Lock()
	current = t
	currentMu.Unlock()
}

// Current returns the suite's target. It panics (failing the spec) when the
// bootstrap has not set one, which means the suite's setup failed.
func Current() *Target {
	t, ok := TryCurrent()
	if !ok {
		panic("harness: no target: the suite bootstrap must Connect and SetCurrent before specs run")
	}
	return t
}

// TryCurrent returns the suite's target and whether one is set, for code
// that runs even when setup failed (reports).
func TryCurrent() (*Target, bool) {
	currentMu.RLock()
	defer currentMu.RUnlock()
	return current, current != nil
}

func sortedKeys(m map[string]bool) []string {
	out := []string{}
	for k, v := range m {
		if v {
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out
}

// controlAuth adds the control token to the requests of the fake's control API (/_fake/).
// It sits below the exchange log, so the token never appears in a report.
type controlAuth struct {
	token string
	base  http.RoundTripper
}

func (c controlAuth) RoundTrip(req *http.Request) (*http.Response, error) {
	if !strings.Contains(req.URL.Path, "/_fake/") || req.Header.Get("Authorization") != "" {
		return c.base.RoundTrip(req)
	}
	req = req.Clone(req.Context())
	req.Header.Set("Authorization", "Bearer "+c.token)
	return c.base.RoundTrip(req)
}

// ReportDir is where the conformance reports go (the configured directory,
// "reports" by default).
func (t *Target) ReportDir() string {
	if t.Config.ReportDir == "" {
		return setting("report-dir").Default
	}
	return t.Config.ReportDir
}
