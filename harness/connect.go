package harness

import (
	"errors"
	"fmt"
	"io"
	"net/url"
	"slices"
	"strconv"
	"strings"
)

// Documented defaults of the real server (reference sheet, section 4), used
// only when the target's registration response lacks a value; Realm.Defaulted
// records each use.
const (
	defaultMaxTopicLength        = 60
	defaultMaxMessageLength      = 10000
	defaultEmptyTopicDisplayName = "general chat"
)

// Connect reaches the target, learns its feature level, realm limits and
// capabilities, checks the owner, and provisions the cast (users of each role,
// see provision.go; the staff administrators and the crowd, see cast.go). Run
// it once per suite run (process 1 of a parallel run) and share the result with
// Encode / DecodeTarget.
func Connect(cfg Config) (*Target, error) {
	return connect(cfg, false, nil)
}

// ConnectLogging is Connect with its exchanges written to log (io.Discard: kept quiet) instead
// of the GinkgoWriter, for a runner that sets the target up before the suite runs. The target
// it returns logs to the GinkgoWriter again.
func ConnectLogging(cfg Config, log io.Writer) (*Target, error) {
	t, err := connect(cfg, false, log)
	if t != nil {
		t.Log = nil
	}
	return t, err
}

// Preflight checks, before any spec runs and without changing the target, what every run
// needs: the URL answers as a chat server, the owner's credentials work and are an owner's,
// and so are those of every account the configuration gives under users:. Its error is one
// line saying what failed, which setting to fix and where it was given; a runner exits on it
// without reporting on any requirement.
func Preflight(cfg Config) error {
	_, err := connect(cfg, true, io.Discard)
	return err
}

// connectStep is one step of connecting; fix, for the preflight, says which setting to change.
type connectStep struct {
	what string
	do   func() error
	fix  func() string
}

func connect(cfg Config, preflight bool, log io.Writer) (*Target, error) {
	if cfg.UsesFake() {
		return nil, fmt.Errorf("harness: Connect needs a target URL: without %s the suite bootstrap must start the in-process fake and set Config.URL and Config.Owner first", settingFlag("url"))
	}
	if cfg.Owner.Email == "" || cfg.Owner.APIKey == "" {
		return nil, fmt.Errorf("harness: Connect needs the owner's credentials (%s, %s)", settingFlag("owner-email"), settingFlag("owner-api-key"))
	}
	t := &Target{
		URL:          cfg.URL,
		Config:       cfg,
		RunID:        newRunID(),
		Features:     map[string]bool{},
		Capabilities: map[string]bool{},
		Users:        map[Role]User{},
		Log:          log,
	}
	for _, f := range cfg.Features {
		t.Features[f] = true
	}
	fixURL := func() string {
		return fmt.Sprintf("is the chat server's base URL (without /api/v1) right, and is it up? (%s)", cfg.Source("url"))
	}
	fixOwner := func() string {
		return fmt.Sprintf("give an organization owner's email and API key (%s; %s)", cfg.Source("owner-email"), cfg.Source("owner-api-key"))
	}
	serverSettings := connectStep{"reading GET /server_settings", t.readServerSettings, fixURL}
	owner := connectStep{"checking the owner", t.checkOwner, fixOwner}
	steps := []connectStep{
		serverSettings,
		{"discovering capabilities", t.discoverCapabilities, nil},
		owner,
		{"learning the owner's permissions", t.learnOwnerPermissions, nil},
		// The staff first: they give the others their roles in the owner's stead.
		{"provisioning the staff administrators", t.provisionStaff, nil},
		{"provisioning users", t.provisionCast, nil},
		{"provisioning the crowd", t.provisionCrowd, nil},
		{"provisioning the spare accounts", t.provisionSpares, nil},
		// After the staff, who send these in the owner's stead.
		{"measuring the target's clock offset", t.measureClockOffset, nil},
		{"reading realm limits from POST /register", t.readRealmState, nil},
	}
	if preflight {
		// Reading only: the server, who the owner is, and who each configured account is.
		steps = []connectStep{serverSettings, owner}
		for _, r := range Roles {
			cr, ok := cfg.Users[r]
			if !ok {
				continue
			}
			steps = append(steps, connectStep{
				what: "checking the " + string(r),
				do:   func() error { _, err := t.whoAmI(r, cr); return err },
				fix: func() string {
					return fmt.Sprintf("give the email and API key of an account with that role (%s)", cfg.Source(userSetting(r)))
				},
			})
		}
	}
	for _, s := range steps {
		if err := s.do(); err != nil {
			if preflight {
				return nil, fmt.Errorf("%s: %s: %w; %s", cfg.URL, s.what, err, s.fix())
			}
			return nil, fmt.Errorf("harness: connecting to %s: %s: %w", cfg.URL, s.what, err)
		}
	}
	return t, nil
}

// readServerSettings reads the feature level and realm URL; the endpoint
// needs no credentials, so it also proves the URL points at a chat server.
func (t *Target) readServerSettings() error {
	obj, err := t.api("GET", "/server_settings", nil, nil)
	if err != nil {
		return err
	}
	t.ServerFeatureLevel, _ = obj.int("zulip_feature_level")
	if digits, ok := obj.string("zulip_feature_level"); ok {
		// Mistyped, it still tells which rules apply: the run goes on and VER-02 fails on it.
		t.ServerFeatureLevel, _ = strconv.Atoi(digits)
	}
	t.ServerVersion, _ = obj.string("zulip_version")
	t.FeatureLevel = t.ServerFeatureLevel
	if t.Config.FeatureLevel > 0 {
		t.FeatureLevel = t.Config.FeatureLevel
	}
	if t.FeatureLevel == 0 {
		return fmt.Errorf("the server reports no zulip_feature_level; set %s", settingFlag("feature-level"))
	}

	// realm_url is the newer name of realm_uri.
	realmURL, ok := obj.string("realm_url")
	if !ok {
		realmURL, ok = obj.string("realm_uri")
	}
	if u, err := url.Parse(realmURL); ok && err == nil && u.Hostname() != "" {
		t.Realm.URL, t.Realm.Host = realmURL, u.Hostname()
	} else {
		// A multi-realm server omits it; the owner's email domain is the
		// best stand-in for the realm's host.
		t.Realm.Host = emailDomain(t.Config.Owner.Email)
		t.Realm.Defaulted = append(t.Realm.Defaulted, "realm_url")
	}
	return nil
}

// discoverCapabilities takes the configured capabilities, or asks the
// control API; a target without one (any non-success answer) has none.
func (t *Target) discoverCapabilities() error {
	if t.Config.CapabilitiesGiven() {
		for _, c := range t.Config.Capabilities {
			t.Capabilities[c] = true
		}
		t.CapabilitySource = "config"
		return nil
	}
	t.CapabilitySource = "none"
	obj, err := t.call("GET", t.URL+"/_fake/health", nil, nil)
	if err != nil {
		return nil // not a fake: no capabilities, not an error
	}
	list, _ := obj["capabilities"].([]any)
	for _, c := range list {
		if s, ok := c.(string); ok && s != "" {
			t.Capabilities[s] = true
		}
	}
	t.CapabilitySource = "discovered"
	return nil
}

// learnOwnerPermissions takes the configured owner permissions, or asks the fake's control
// API which accounts hold which; otherwise they stay unknown (OwnerPermissions nil), and the
// specs that need one are skipped before they try, never after a refusal.
func (t *Target) learnOwnerPermissions() error {
	if t.Config.OwnerPermissions != nil {
		t.OwnerPermissions = append([]string{}, t.Config.OwnerPermissions...)
		t.OwnerPermissionSource = "config"
		return nil
	}
	t.OwnerPermissionSource = "unknown"
	if t.Config.CapabilitiesGiven() && len(t.Config.Capabilities) == 0 {
		return nil // declared without a control API: nothing to ask
	}
	obj, err := t.call("GET", t.URL+"/_fake/health", nil, nil)
	if err != nil {
		return nil // not a fake: unknown, not an error
	}
	held, ok := obj["server_permissions"].(map[string]any)
	if !ok {
		return nil
	}
	t.OwnerPermissions = []string{}
	t.OwnerPermissionSource = "discovered"
	for email, list := range held {
		if !strings.EqualFold(email, t.Config.Owner.Email) {
			continue
		}
		items, _ := list.([]any)
		for _, p := range items {
			if s, ok := p.(string); ok && slices.Contains(KnownOwnerPermissions, s) {
				t.OwnerPermissions = append(t.OwnerPermissions, s)
			}
		}
	}
	return nil
}

// OwnerHolds says whether the owner holds permission: known and held, known and not held,
// or unknown (known false).
func (t *Target) OwnerHolds(permission string) (held, known bool) {
	if t.OwnerPermissions == nil {
		return false, false
	}
	return slices.Contains(t.OwnerPermissions, permission), true
}

// checkOwner makes sure the owner credentials work and are an owner's: the
// provisioning and many specs depend on owner rights.
func (t *Target) checkOwner() error {
	u, err := t.whoAmI(Owner, t.Config.Owner)
	if err != nil {
		return err
	}
	t.Users[Owner] = u
	return nil
}

// whoAmI reads GET /users/me as the given credentials and checks the role.
func (t *Target) whoAmI(role Role, cr Credentials) (User, error) {
	u := User{Role: role, Email: cr.Email, APIKey: cr.APIKey}
	obj, err := t.api("GET", "/users/me", &u, nil)
	if err != nil {
		return User{}, err
	}
	id, ok := obj.int("user_id")
	if !ok {
		return User{}, errors.New("GET /users/me: no integer user_id")
	}
	u.ID = id
	u.FullName, _ = obj.string("full_name")

	if role == Bot {
		if isBot, _ := obj["is_bot"].(bool); !isBot {
			return User{}, fmt.Errorf("%s is configured as the bot but is_bot is not true", cr.Email)
		}
		return u, nil
	}
	got, ok := obj.int("role")
	if !ok {
		return User{}, fmt.Errorf("GET /users/me as %s: no integer role", cr.Email)
	}
	if want := roleCodes[role]; got != want {
		return User{}, fmt.Errorf("%s has role %d, but the %s must have role %d", cr.Email, got, role, want)
	}
	return u, nil
}

// readRealmState reads the limits specs need from the registration
// response, where the API document says clients find them.
func (t *Target) readRealmState() error {
	admin := t.staffer()
	obj, err := t.api("POST", "/register", &admin, nil)
	if err != nil {
		return err
	}
	if queueID, _ := obj.string("queue_id"); queueID != "" {
		// Best effort, as StateOf: the registration is for its state, and a queue of every
		// event type left behind fills up for the whole run (on the fake, which counts queue
		// lifetimes on its clock, until a spec moves it past ten minutes).
		_, _ = t.api("DELETE", "/events", &admin, url.Values{"queue_id": {queueID}})
	}
	var ok bool
	if t.Realm.MaxTopicLength, ok = obj.int("max_topic_length"); !ok {
		t.Realm.MaxTopicLength = defaultMaxTopicLength
		t.Realm.Defaulted = append(t.Realm.Defaulted, "max_topic_length")
	}
	if t.Realm.MaxMessageLength, ok = obj.int("max_message_length"); !ok {
		t.Realm.MaxMessageLength = defaultMaxMessageLength
		t.Realm.Defaulted = append(t.Realm.Defaulted, "max_message_length")
	}
	if t.Realm.EmptyTopicDisplayName, ok = obj.string("realm_empty_topic_display_name"); !ok {
		t.Realm.EmptyTopicDisplayName = defaultEmptyTopicDisplayName
		t.Realm.Defaulted = append(t.Realm.Defaulted, "realm_empty_topic_display_name")
	}
	slices.Sort(t.Realm.Defaulted)
	return nil
}
