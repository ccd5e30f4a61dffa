package harness

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"
)

// Credentials authenticate one account: HTTP Basic with the account's
// (delivery) email as username and its API key as password.
type Credentials struct {
	Email  string `json:"email" yaml:"email"`
	APIKey string `json:"api_key" yaml:"api_key"`
}

// Config says which server the suite runs against and how. Build it with
// ResolveConfig (or LoadConfig); the Settings table documents every field.
type Config struct {
	// URL is the target's base URL, without /api/v1. Empty means the suite
	// bootstrap starts the in-process fake and fills in URL and Owner.
	URL string
	// Owner is an organization owner of the target's realm.
	Owner Credentials
	// Users gives existing accounts per role so that a shared server need
	// not create users; roles missing here are provisioned by Connect.
	Users map[Role]Credentials
	// FeatureLevel overrides the level the server reports; 0 = ask it.
	FeatureLevel int
	// Features the target claims (see KnownFeatures).
	Features []string
	// Capabilities of the target's control API. nil means "discover from
	// GET /_fake/health"; a non-nil empty slice means "none".
	Capabilities []string
	// OwnerPermissions are the server-level permissions the owner holds beyond the owner
	// role (see KnownOwnerPermissions). nil means "discover" (the fake's GET /_fake/health,
	// else unknown); a non-nil empty slice means "none".
	OwnerPermissions []string
	// JWTKey is the key the target verifies JSON Web Tokens with; empty when not given.
	JWTKey string
	// JWTAlgorithm is the algorithm of those tokens (HS256, HS384 or HS512).
	JWTAlgorithm string
	// ControlToken is the bearer token of the fake's control API; empty for none. Reports
	// hold it redacted.
	ControlToken string
	// WildcardMentionThreshold is the largest number of channel subscribers (or topic
	// participants) the target does not count as "many" for wildcard mentions; 0 = unknown.
	WildcardMentionThreshold int
	// Implementation describes the server under test as its implementer declares it, for the
	// report: name, version, home page and contact.
	Implementation Implementation
	// CAFile is a PEM file of certificate authorities the target's certificate may chain to,
	// besides the system's (a staging server with its own CA); empty for none.
	CAFile string
	// InsecureSkipVerify accepts any certificate of the target: for staging servers only, and
	// said in the console and the report whenever it is on.
	InsecureSkipVerify bool
	// ReportDir receives the conformance reports.
	ReportDir string
	// RecordExchanges writes every spec's exchanges to exchanges.jsonl in ReportDir, as
	// chatconform diff reads them; a run records only the failed specs' otherwise.
	RecordExchanges bool
	// RequestTimeout bounds every HTTP request the harness sends.
	RequestTimeout time.Duration
	// ConfigFile is the YAML file the configuration was read from, if any.
	ConfigFile string
	// Sources says where each setting given came from, by setting name (and "users.<role>"):
	// the flag as given, the environment variable, or the key and file. Defaults are absent.
	// Not part of the JSON form: the report holds the values, not how they were given.
	Sources map[string]string
}

// Source names where the setting came from, for a message that must say which input to fix;
// a setting not given is named by its flag and variable.
func (c Config) Source(name string) string {
	if src, ok := c.Sources[name]; ok {
		return src
	}
	if strings.HasPrefix(name, "users.") {
		return name + " in the config file"
	}
	s := setting(name)
	var ways []string
	if s.Flag != "" {
		ways = append(ways, settingFlag(name))
	}
	if s.Env != "" {
		ways = append(ways, s.Env)
	}
	if s.YAML != "" {
		ways = append(ways, s.YAML+" in the config file")
	}
	return strings.Join(ways, ", ") + " (default)"
}

// Implementation is what the report says of the server under test, as declared.
type Implementation struct {
	Name    string `json:"name,omitempty" yaml:"name"`
	Version string `json:"version,omitempty" yaml:"version"`
	URL     string `json:"url,omitempty" yaml:"url"`
	Contact string `json:"contact,omitempty" yaml:"contact"`
}

// KnownFeatures are the optional features a target may claim; specs of a
// feature the target does not claim are reported as not applicable.
var KnownFeatures = []string{"push", "vcall", "jwt"}

// KnownOwnerPermissions are the permissions an owner may hold beyond the role, which only
// the server's administrator grants and no API shows: the specs that need one run only when
// the owner is known to hold it.
var KnownOwnerPermissions = []string{"can_create_users", "can_change_user_emails"}

// UsesFake reports whether no target URL was given, i.e. the bootstrap must
// start the in-process fake and set URL and Owner before calling Connect.
func (c Config) UsesFake() bool { return c.URL == "" }

// CapabilitiesGiven reports whether capabilities were configured (possibly
// as "none") rather than left to discovery.
func (c Config) CapabilitiesGiven() bool { return c.Capabilities != nil }

// Redacted returns a copy safe to print or store in a report: every API key
// is replaced by "****".
func (c Config) Redacted() Config {
	out := c
	out.Owner.APIKey = RedactSecret(c.Owner.APIKey)
	out.JWTKey = RedactSecret(c.JWTKey)
	out.ControlToken = RedactSecret(c.ControlToken)
	if c.Users != nil {
		out.Users = make(map[Role]Credentials, len(c.Users))
		for r, cr := range c.Users {
			cr.APIKey = RedactSecret(cr.APIKey)
			out.Users[r] = cr
		}
	}
	out.Features = append([]string(nil), c.Features...)
	if c.Capabilities != nil {
		out.Capabilities = append([]string{}, c.Capabilities...)
	}
	if c.OwnerPermissions != nil {
		out.OwnerPermissions = append([]string{}, c.OwnerPermissions...)
	}
	return out
}

// RedactSecret hides a secret entirely: no part of a key, password or token is ever shown
// (an empty one stays empty, so a report still tells "not set" from "set").
func RedactSecret(s string) string {
	if s == "" {
		return ""
	}
	return "****"
}

// configJSON is Config's wire form: the timeout as a readable duration
// string, which is what a reader of a report expects.
type configJSON struct {
	URL                      string               `json:"url"`
	Owner                    Credentials          `json:"owner"`
	Users                    map[Role]Credentials `json:"users,omitempty"`
	FeatureLevel             int                  `json:"feature_level"`
	Features                 []string             `json:"features"`
	Capabilities             []string             `json:"capabilities"`
	OwnerPermissions         []string             `json:"owner_permissions"`
	JWTKey                   string               `json:"jwt_key,omitempty"`
	JWTAlgorithm             string               `json:"jwt_algorithm,omitempty"`
	ControlToken             string               `json:"control_token,omitempty"`
	WildcardMentionThreshold int                  `json:"wildcard_mention_threshold,omitempty"`
	Implementation           Implementation       `json:"implementation"`
	CAFile                   string               `json:"ca_file,omitempty"`
	InsecureSkipVerify       bool                 `json:"insecure_skip_verify,omitempty"`
	ReportDir                string               `json:"report_dir"`
	RecordExchanges          bool                 `json:"record_exchanges,omitempty"`
	RequestTimeout           string               `json:"request_timeout"`
	ConfigFile               string               `json:"config_file,omitempty"`
}

// MarshalJSON encodes the config with the timeout as a duration string.
func (c Config) MarshalJSON() ([]byte, error) {
	return json.Marshal(configJSON{
		URL: c.URL, Owner: c.Owner, Users: c.Users, FeatureLevel: c.FeatureLevel,
		Features: c.Features, Capabilities: c.Capabilities, OwnerPermissions: c.OwnerPermissions,
		JWTKey: c.JWTKey, JWTAlgorithm: c.JWTAlgorithm,
		ReportDir: c.ReportDir, RecordExchanges: c.RecordExchanges, RequestTimeout: c.RequestTimeout.String(), ConfigFile: c.ConfigFile,
		CAFile: c.CAFile, InsecureSkipVerify: c.InsecureSkipVerify, Implementation: c.Implementation,
		WildcardMentionThreshold: c.WildcardMentionThreshold, ControlToken: c.ControlToken,
	})
}

// UnmarshalJSON decodes what MarshalJSON wrote.
func (c *Config) UnmarshalJSON(b []byte) error {
	var j configJSON
	if err := json.Unmarshal(b, &j); err != nil {
		return err
	}
	d, err := time.ParseDuration(j.RequestTimeout)
	if err != nil {
		return fmt.Errorf("config request_timeout %q: %w", j.RequestTimeout, err)
	}
	*c = Config{
		URL: j.URL, Owner: j.Owner, Users: j.Users, FeatureLevel: j.FeatureLevel,
		Features: j.Features, Capabilities: j.Capabilities, OwnerPermissions: j.OwnerPermissions,
		JWTKey: j.JWTKey, JWTAlgorithm: j.JWTAlgorithm,
		ReportDir: j.ReportDir, RecordExchanges: j.RecordExchanges, RequestTimeout: d, ConfigFile: j.ConfigFile,
		CAFile: j.CAFile, InsecureSkipVerify: j.InsecureSkipVerify, Implementation: j.Implementation,
		WildcardMentionThreshold: j.WildcardMentionThreshold, ControlToken: j.ControlToken,
	}
	return nil
}

// validate checks what no single setting can: settings that need each other.
func (c Config) validate() error {
	if c.URL != "" {
		if c.Owner.Email == "" {
			return fmt.Errorf("%s is required when %s is set", settingFlag("owner-email"), settingFlag("url"))
		}
		if c.Owner.APIKey == "" {
			return fmt.Errorf("%s is required when %s is set", settingFlag("owner-api-key"), settingFlag("url"))
		}
	}
	for r, cr := range c.Users {
		if cr.Email == "" || cr.APIKey == "" {
			return fmt.Errorf("users.%s in the config file needs both email and api_key", r)
		}
		if !looksLikeEmail(cr.Email) {
			return fmt.Errorf("users.%s.email %q is not an email address", r, cr.Email)
		}
	}
	return nil
}
