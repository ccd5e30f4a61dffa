package harness

import (
	"errors"
	"fmt"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
)

// FlagPrefix prefixes every command-line flag of the harness, so the flags
// can live next to Ginkgo's and go test's own.
const FlagPrefix = "chatconform."

// Setting is one configuration setting: where it can be given and what it
// means. The settings table of docs/settings.md and `chatconform run --help` are generated from
// Settings, so the documentation and the code cannot drift.
type Setting struct {
	Name    string // short name, e.g. "url"
	Flag    string // command-line flag without the dash, "" if none
	Env     string // environment variable, "" if none
	YAML    string // key in the YAML file, dotted for nested keys
	Default string // default value as text ("" = empty)
	Meaning string // one line for the documentation
	Secret  bool   // never echo the value in errors

	set func(c *Config, v string) error // parses and stores one value
}

// Settings lists every setting. Precedence: flags > environment > YAML file
// > defaults. An empty environment variable counts as unset; an empty flag
// is a value (for example "no capabilities").
var Settings = []Setting{
	{Name: "url", Flag: FlagPrefix + "url", Env: "CHATCONFORM_URL", YAML: "url",
		Meaning: "Base URL of the target server (without /api/v1). Empty: run against the in-process fake.",
		set:     setURL},
	{Name: "owner-email", Flag: FlagPrefix + "owner-email", Env: "CHATCONFORM_OWNER_EMAIL", YAML: "owner.email",
		Meaning: "Email of an organization owner of the target realm (HTTP Basic username).",
		set:     setOwnerEmail},
	{Name: "owner-api-key", Flag: FlagPrefix + "owner-api-key", Env: "CHATCONFORM_OWNER_API_KEY", YAML: "owner.api_key",
		Meaning: "API key of that owner. The owner needs can_create_users unless users are given, and can_change_user_emails for the new_email specs.",
		Secret:  true, set: setOwnerAPIKey},
	{Name: "owner-permissions", Flag: FlagPrefix + "owner-permissions", Env: "CHATCONFORM_OWNER_PERMISSIONS", YAML: "owner.permissions",
		Meaning: "Comma list of the permissions the owner holds beyond the role (can_create_users, can_change_user_emails); \"none\" for none. Unset: read from the fake's GET /_fake/health, else unknown, and the specs that need one are skipped up front with the reason. A refusal of a declared permission is a failure.",
		set:     setOwnerPermissions},
	{Name: "users", YAML: "users",
		Meaning: "YAML only: existing accounts per role (administrator, moderator, member, guest, bot), each with email and api_key; roles not given come from the persistent cast, found or created (see Footprint of a run).",
	},
	{Name: "feature-level", Flag: FlagPrefix + "feature-level", Env: "CHATCONFORM_FEATURE_LEVEL", YAML: "feature_level",
		Default: "0",
		Meaning: "Feature level to test against; 0 reads zulip_feature_level from GET /server_settings.",
		set:     setFeatureLevel},
	{Name: "features", Flag: FlagPrefix + "features", Env: "CHATCONFORM_FEATURES", YAML: "features",
		Meaning: "Comma list of optional features the target claims: push, vcall, jwt. Others are reported not applicable.",
		set:     setFeatures},
	{Name: "capabilities", Flag: FlagPrefix + "capabilities", Env: "CHATCONFORM_CAPABILITIES", YAML: "capabilities",
		Meaning: "Comma list of control-API capabilities (clock, config, reset, fixture, journal, vcall-token, batch); \"none\" for none. Unset: discovered from GET /_fake/health.",
		set:     setCapabilities},
	{Name: "jwt-key", Flag: FlagPrefix + "jwt-key", Env: "CHATCONFORM_JWT_KEY",
		Meaning: "Key a target claiming feature jwt verifies JSON Web Tokens with (operation 9); the suite signs its tokens with it. Unset: the JWT specs run only against a fake whose configuration the suite can set.",
		Secret:  true, set: setJWTKey},
	{Name: "jwt-algorithm", Flag: FlagPrefix + "jwt-algorithm", Env: "CHATCONFORM_JWT_ALGORITHM",
		Meaning: "Algorithm of those tokens: HS256 (when unset), HS384 or HS512.",
		set:     setJWTAlgorithm},
	{Name: "control-token", Flag: FlagPrefix + "control-token", Env: "CHATCONFORM_CONTROL_TOKEN",
		Meaning: "Bearer token of the fake's control API (/_fake/), sent with every control request; the fake binary reads the same variable. Needed when the fake listens on a non-loopback address (a container).",
		Secret:  true, set: func(c *Config, v string) error { c.ControlToken = strings.TrimSpace(v); return nil }},
	{Name: "wildcard-mention-threshold", Flag: FlagPrefix + "wildcard-mention-threshold", Env: "CHATCONFORM_WILDCARD_MENTION_THRESHOLD", YAML: "wildcard_mention_threshold",
		Default: "0",
		Meaning: "How many subscribers of a channel (or participants of a topic) the target still counts as few for wildcard mentions; the specs use one more. 0: unknown, the wildcard-limit specs run only against the fake.",
		set:     setWildcardMentionThreshold},
	{Name: "implementation-name", Flag: FlagPrefix + "implementation-name", Env: "CHATCONFORM_IMPLEMENTATION_NAME", YAML: "implementation.name",
		Meaning: "Name of the server implementation under test, for the report.",
		set:     func(c *Config, v string) error { c.Implementation.Name = strings.TrimSpace(v); return nil }},
	{Name: "implementation-version", Flag: FlagPrefix + "implementation-version", Env: "CHATCONFORM_IMPLEMENTATION_VERSION", YAML: "implementation.version",
		Meaning: "Its version, for the report.",
		set:     func(c *Config, v string) error { c.Implementation.Version = strings.TrimSpace(v); return nil }},
	{Name: "implementation-url", Flag: FlagPrefix + "implementation-url", Env: "CHATCONFORM_IMPLEMENTATION_URL", YAML: "implementation.url",
		Meaning: "Its home page, for the report.",
		set:     func(c *Config, v string) error { c.Implementation.URL = strings.TrimSpace(v); return nil }},
	{Name: "implementation-contact", Flag: FlagPrefix + "implementation-contact", Env: "CHATCONFORM_IMPLEMENTATION_CONTACT", YAML: "implementation.contact",
		Meaning: "Who answers for it (an email or a URL), for the report.",
		set:     func(c *Config, v string) error { c.Implementation.Contact = strings.TrimSpace(v); return nil }},
	{Name: "ca-file", Flag: FlagPrefix + "ca-file", Env: "CHATCONFORM_CA_FILE", YAML: "ca_file",
		Meaning: "PEM file of certificate authorities the target's certificate may chain to, besides the system's (a staging server with its own CA).",
		set:     setCAFile},
	{Name: "insecure-skip-verify", Flag: FlagPrefix + "insecure-skip-verify", Env: "CHATCONFORM_INSECURE_SKIP_VERIFY", YAML: "insecure_skip_verify",
		Default: "false",
		Meaning: "Accept any certificate of the target (staging servers only); the console and the report say so whenever it is on.",
		set:     setInsecureSkipVerify},
	{Name: "report-dir", Flag: FlagPrefix + "report-dir", Env: "CHATCONFORM_REPORT_DIR", YAML: "report_dir",
		Default: "reports",
		Meaning: "Directory that receives conformance.json and conformance.html.",
		set:     setReportDir},
	{Name: "record-exchanges", Flag: FlagPrefix + "record-exchanges", Env: "CHATCONFORM_RECORD_EXCHANGES", YAML: "record_exchanges",
		Default: "false",
		Meaning: "Keep everything: write every spec's HTTP exchanges, redacted, to exchanges.jsonl in the report directory, and keep every failure in full in conformance.json and conformance.html, which are otherwise bounded (docs/reports.md; chatconform diff sets it).",
		set:     setRecordExchanges},
	{Name: "timeout", Flag: FlagPrefix + "timeout", Env: "CHATCONFORM_TIMEOUT", YAML: "timeout",
		Default: "10s",
		Meaning: "Timeout of each HTTP request (Go duration, e.g. 10s); time spent waiting out a rate limit (HTTP 429, Retry-After) does not count.",
		set:     setTimeout},
	{Name: "config", Flag: FlagPrefix + "config", Env: "CHATCONFORM_CONFIG",
		Meaning: "Path of a YAML file holding any of the settings above that have a YAML key.",
		set:     func(c *Config, v string) error { c.ConfigFile = v; return nil }},
}

// setting returns the named entry of Settings; names are fixed, so a miss is
// a programming error.
func setting(name string) Setting {
	for _, s := range Settings {
		if s.Name == name {
			return s
		}
	}
	panic("harness: unknown setting " + name)
}

// settingFlag names a setting the way a user most often gives it: by its flag, in the style
// of the command line in use.
// SettingFlag is a setting's flag as this program spells it: "--url" in the runner,
// "-chatconform.url" under go test; the reports' hints use it, so they name one spelling.
func SettingFlag(name string) string { return settingFlag(name) }

func settingFlag(name string) string {
	boundMu.Lock()
	short := shortFlags
	boundMu.Unlock()
	if short {
		return "--" + name
	}
	return "-" + setting(name).Flag
}

// userSetting is the key of Config.Sources for the account of role r under users:.
func userSetting(r Role) string { return "users." + string(r) }

// defaultConfig applies every setting's default.
func defaultConfig() Config {
	var c Config
	for _, s := range Settings {
		if s.set != nil && s.Default != "" {
			if err := s.set(&c, s.Default); err != nil {
				panic(fmt.Sprintf("harness: default of %s: %v", s.Name, err))
			}
		}
	}
	return c
}

func setURL(c *Config, v string) error {
	v = strings.TrimSpace(v)
	if v == "" {
		c.URL = ""
		return nil
	}
	u, err := url.Parse(v)
	if err != nil {
		return err
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return errors.New("must be an http or https URL")
	}
	if u.Host == "" {
		return errors.New("has no host")
	}
	if u.RawQuery != "" || u.Fragment != "" {
		return errors.New("must not have a query or fragment")
	}
	// The harness appends /api/v1 itself (Versioning rule 1); a URL that
	// already has it would produce /api/v1/api/v1.
	if strings.HasSuffix(strings.TrimRight(u.Path, "/"), "/api/v1") {
		return errors.New("give the server's base URL, without /api/v1")
	}
	c.URL = strings.TrimRight(u.String(), "/")
	return nil
}

func setOwnerEmail(c *Config, v string) error {
	v = strings.TrimSpace(v)
	if v != "" && !looksLikeEmail(v) {
		return errors.New("is not an email address")
	}
	c.Owner.Email = v
	return nil
}

func setOwnerAPIKey(c *Config, v string) error {
	v = strings.TrimSpace(v)
	if strings.ContainsAny(v, " \t\r\n") {
		return errors.New("contains white space")
	}
	c.Owner.APIKey = v
	return nil
}

func setFeatureLevel(c *Config, v string) error {
	return setCount(&c.FeatureLevel, v, "ask the server")
}

func setFeatures(c *Config, v string) error {
	list := splitList(v)
	for _, f := range list {
		if !slices.Contains(KnownFeatures, f) {
			return fmt.Errorf("unknown feature %q (known: %s)", f, strings.Join(KnownFeatures, ", "))
		}
	}
	c.Features = list
	return nil
}

func setOwnerPermissions(c *Config, v string) error {
	return setDeclaredList(&c.OwnerPermissions, v, func(p string) error {
		if !slices.Contains(KnownOwnerPermissions, p) {
			return fmt.Errorf("unknown owner permission %q (known: %s)", p, strings.Join(KnownOwnerPermissions, ", "))
		}
		return nil
	})
}

var capabilityName = regexp.MustCompile(`^[a-z0-9_-]+$`)

func setCapabilities(c *Config, v string) error {
	return setDeclaredList(&c.Capabilities, v, func(cp string) error {
		if !capabilityName.MatchString(cp) {
			return fmt.Errorf("capability %q is not a name of [a-z0-9_-]", cp)
		}
		return nil
	})
}

// setDeclaredList stores a comma list whose every item check accepts, "none" for none. The
// list is non-nil even when empty: "none" is a declaration, which turns discovery off, where
// nil (unset) asks for discovery.
func setDeclaredList(list *[]string, v string, check func(item string) error) error {
	items := splitList(v)
	if len(items) == 1 && items[0] == "none" {
		items = nil
	}
	for _, item := range items {
		if err := check(item); err != nil {
			return err
		}
	}
	*list = append([]string{}, items...)
	return nil
}

func setJWTKey(c *Config, v string) error {
	c.JWTKey = strings.TrimSpace(v)
	return nil
}

// JWTAlgorithms are the signing algorithms the suite can mint tokens with.
var JWTAlgorithms = []string{"HS256", "HS384", "HS512"}

func setJWTAlgorithm(c *Config, v string) error {
	v = strings.ToUpper(strings.TrimSpace(v))
	if !slices.Contains(JWTAlgorithms, v) {
		return fmt.Errorf("must be one of %s", strings.Join(JWTAlgorithms, ", "))
	}
	c.JWTAlgorithm = v
	return nil
}

func setWildcardMentionThreshold(c *Config, v string) error {
	return setCount(&c.WildcardMentionThreshold, v, "unknown")
}

// setCount stores a whole number of at least 0, where 0 means what zeroMeans says.
func setCount(n *int, v, zeroMeans string) error {
	parsed, err := strconv.Atoi(strings.TrimSpace(v))
	if err != nil {
		return errors.New("is not an integer")
	}
	if parsed < 0 {
		return fmt.Errorf("must be 0 (%s) or positive", zeroMeans)
	}
	*n = parsed
	return nil
}

func setReportDir(c *Config, v string) error {
	v = strings.TrimSpace(v)
	if v == "" {
		return errors.New("must not be empty")
	}
	c.ReportDir = v
	return nil
}

func setTimeout(c *Config, v string) error {
	d, err := time.ParseDuration(strings.TrimSpace(v))
	if err != nil {
		return errors.New("is not a duration such as 10s or 1m")
	}
	if d <= 0 {
		return errors.New("must be positive")
	}
	c.RequestTimeout = d
	return nil
}

// splitList splits a comma list, trimming, lower-casing and dropping empty
// and repeated items.
func splitList(v string) []string {
	var out []string
	for _, item := range strings.Split(v, ",") {
		item = strings.ToLower(strings.TrimSpace(item))
		if item != "" && !slices.Contains(out, item) {
			out = append(out, item)
		}
	}
	return out
}

func looksLikeEmail(s string) bool {
	at := strings.LastIndexByte(s, '@')
	return at > 0 && at < len(s)-1 && !strings.ContainsAny(s, " \t\r\n")
}

// SettingsMarkdown renders Settings as the Markdown table of docs/settings.md (setting, flag
// and its older spelling, environment variable, YAML key, default, meaning).
func SettingsMarkdown() string {
	cell := func(s string) string {
		if s == "" {
			return "—"
		}
		return "`" + s + "`"
	}
	var b strings.Builder
	b.WriteString("| Setting | Flag (older spelling) | Environment | YAML key | Default | Meaning |\n")
	b.WriteString("|---|---|---|---|---|---|\n")
	for _, s := range Settings {
		flagName := "—"
		if s.Flag != "" {
			flagName = fmt.Sprintf("`--%s` (`-%s`)", s.Name, s.Flag)
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s |\n",
			s.Name, flagName, cell(s.Env), cell(s.YAML), cell(s.Default),
			strings.ReplaceAll(s.Meaning, "|", `\|`))
	}
	return b.String()
}

func setCAFile(c *Config, v string) error {
	v = strings.TrimSpace(v)
	if v != "" {
		if _, err := caPool(v); err != nil {
			return err
		}
	}
	c.CAFile = v
	return nil
}

func setInsecureSkipVerify(c *Config, v string) error { return setBool(&c.InsecureSkipVerify, v) }

func setRecordExchanges(c *Config, v string) error { return setBool(&c.RecordExchanges, v) }

func setBool(b *bool, v string) error {
	parsed, err := strconv.ParseBool(strings.TrimSpace(v))
	if err != nil {
		return fmt.Errorf("is not true or false")
	}
	*b = parsed
	return nil
}
