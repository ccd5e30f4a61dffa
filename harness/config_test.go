package harness

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

// env returns a lookupEnv backed by a map.
func env(m map[string]string) func(string) (string, bool) {
	return func(k string) (string, bool) { v, ok := m[k]; return v, ok }
}

// flags returns a parsed flag set with the harness flags.
func flags(t *testing.T, args ...string) *flag.FlagSet {
	t.Helper()
	fs := flag.NewFlagSet("test", flag.ContinueOnError)
	BindFlags(fs)
	if err := fs.Parse(args); err != nil {
		t.Fatalf("parsing %v: %v", args, err)
	}
	return fs
}

// writeFile writes a config file in a temporary directory.
func writeFile(t *testing.T, body string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "chatconform.yaml")
	if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

const ownerKey = "abcdefghijklmnopqrstuvwxyz012345"

func TestConfigDefaults(t *testing.T) {
	cfg, err := LoadConfig(nil, env(nil))
	if err != nil {
		t.Fatal(err)
	}
	if cfg.URL != "" || !cfg.UsesFake() {
		t.Errorf("URL = %q, want empty (fake)", cfg.URL)
	}
	if cfg.ReportDir != "reports" || cfg.RequestTimeout != 10*time.Second || cfg.FeatureLevel != 0 || cfg.WildcardMentionThreshold != 0 {
		t.Errorf("defaults = %+v", cfg)
	}
	if cfg.CapabilitiesGiven() {
		t.Errorf("capabilities given by default: %v", cfg.Capabilities)
	}
}

func TestConfigPrecedence(t *testing.T) {
	file := writeFile(t, `
url: http://file.test
owner:
  email: file@example.test
  api_key: filekeyfilekeyfilekey
feature_level: 300
features: [push]
capabilities: clock, config
report_dir: file-reports
timeout: 3s
wildcard_mention_threshold: 20
users:
  member: {email: m@example.test, api_key: memberkeymemberkey}
`)
	tests := []struct {
		name  string
		args  []string
		env   map[string]string
		check func(t *testing.T, c Config)
	}{
		{"file only", []string{"-chatconform.config", file}, nil, func(t *testing.T, c Config) {
			want := Config{
				URL: "http://file.test", Owner: Credentials{"file@example.test", "filekeyfilekeyfilekey"},
				Users:        map[Role]Credentials{Member: {"m@example.test", "memberkeymemberkey"}},
				FeatureLevel: 300, Features: []string{"push"}, Capabilities: []string{"clock", "config"},
				ReportDir: "file-reports", RequestTimeout: 3 * time.Second, ConfigFile: file,
				WildcardMentionThreshold: 20,
				Sources:                  map[string]string{"config": "-chatconform.config", "users.member": "users.member in " + file},
			}
			for name, key := range map[string]string{"url": "url", "owner-email": "owner.email", "owner-api-key": "owner.api_key",
				"feature-level": "feature_level", "features": "features", "capabilities": "capabilities", "report-dir": "report_dir",
				"timeout": "timeout", "wildcard-mention-threshold": "wildcard_mention_threshold"} {
				want.Sources[name] = key + " in " + file
			}
			if !reflect.DeepEqual(c, want) {
				t.Errorf("got  %+v\nwant %+v", c, want)
			}
		}},
		{"file named by env", nil, map[string]string{"CHATCONFORM_CONFIG": file}, func(t *testing.T, c Config) {
			if c.URL != "http://file.test" || c.ConfigFile != file {
				t.Errorf("got %+v", c)
			}
		}},
		{"env over file", []string{"-chatconform.config", file}, map[string]string{
			"CHATCONFORM_URL": "https://env.test/", "CHATCONFORM_FEATURE_LEVEL": "400",
			"CHATCONFORM_FEATURES": "vcall, jwt", "CHATCONFORM_TIMEOUT": "5s", "CHATCONFORM_WILDCARD_MENTION_THRESHOLD": "30",
		}, func(t *testing.T, c Config) {
			if c.URL != "https://env.test" || c.FeatureLevel != 400 || c.RequestTimeout != 5*time.Second || c.WildcardMentionThreshold != 30 {
				t.Errorf("got %+v", c)
			}
			if !reflect.DeepEqual(c.Features, []string{"vcall", "jwt"}) {
				t.Errorf("features = %v", c.Features)
			}
			if c.ReportDir != "file-reports" || c.Owner.Email != "file@example.test" {
				t.Errorf("file values lost: %+v", c)
			}
		}},
		{"flags over env over file", []string{
			"-chatconform.config", file, "-chatconform.url", "http://flag.test:8080",
			"-chatconform.report-dir", "flag-reports", "-chatconform.capabilities", "none",
			"-chatconform.wildcard-mention-threshold", "15",
		}, map[string]string{"CHATCONFORM_URL": "https://env.test", "CHATCONFORM_REPORT_DIR": "env-reports",
			"CHATCONFORM_WILDCARD_MENTION_THRESHOLD": "30"},
			func(t *testing.T, c Config) {
				if c.URL != "http://flag.test:8080" || c.ReportDir != "flag-reports" || c.WildcardMentionThreshold != 15 {
					t.Errorf("got %+v", c)
				}
				if c.Capabilities == nil || len(c.Capabilities) != 0 {
					t.Errorf("capabilities = %#v, want empty and given", c.Capabilities)
				}
			}},
		{"flag file over env file", []string{"-chatconform.config", file},
			map[string]string{"CHATCONFORM_CONFIG": "/does/not/exist.yaml"}, func(t *testing.T, c Config) {
				if c.ConfigFile != file {
					t.Errorf("config file = %q", c.ConfigFile)
				}
			}},
		{"env none means no capabilities", nil, map[string]string{"CHATCONFORM_CAPABILITIES": "none"},
			func(t *testing.T, c Config) {
				if !c.CapabilitiesGiven() || len(c.Capabilities) != 0 {
					t.Errorf("capabilities = %#v", c.Capabilities)
				}
			}},
		{"empty env counts as unset", []string{"-chatconform.config", file}, map[string]string{
			"CHATCONFORM_CAPABILITIES": "", "CHATCONFORM_URL": " ", "CHATCONFORM_FEATURE_LEVEL": "",
		}, func(t *testing.T, c Config) {
			if c.URL != "http://file.test" || c.FeatureLevel != 300 || len(c.Capabilities) != 2 {
				t.Errorf("empty variables overrode the file: %+v", c)
			}
		}},
		{"empty flag is a value", []string{"-chatconform.config", file, "-chatconform.capabilities", "", "-chatconform.features", ""},
			nil, func(t *testing.T, c Config) {
				if !c.CapabilitiesGiven() || len(c.Capabilities) != 0 || len(c.Features) != 0 {
					t.Errorf("capabilities %#v, features %#v: want both empty", c.Capabilities, c.Features)
				}
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := LoadConfig(flags(t, tt.args...), env(tt.env))
			if err != nil {
				t.Fatal(err)
			}
			tt.check(t, c)
		})
	}
}

func TestConfigInvalid(t *testing.T) {
	owner := map[string]string{"CHATCONFORM_OWNER_EMAIL": "o@example.test", "CHATCONFORM_OWNER_API_KEY": ownerKey}
	with := func(extra map[string]string) map[string]string {
		m := map[string]string{}
		for k, v := range owner {
			m[k] = v
		}
		for k, v := range extra {
			m[k] = v
		}
		return m
	}
	tests := []struct {
		name    string
		args    []string
		env     map[string]string
		file    string
		wantErr []string // substrings of the error
	}{
		{"url scheme", []string{"-chatconform.url", "ftp://x"}, owner, "", []string{"-chatconform.url", "http or https"}},
		{"url with api prefix", nil, with(map[string]string{"CHATCONFORM_URL": "http://x/api/v1/"}), "", []string{"CHATCONFORM_URL", "without /api/v1"}},
		{"url without host", []string{"-chatconform.url", "http://"}, owner, "", []string{"-chatconform.url", "no host"}},
		{"feature level text", nil, map[string]string{"CHATCONFORM_FEATURE_LEVEL": "high"}, "", []string{"CHATCONFORM_FEATURE_LEVEL", `"high"`, "not an integer"}},
		{"feature level negative", []string{"-chatconform.feature-level", "-1"}, nil, "", []string{"-chatconform.feature-level"}},
		{"unknown feature", nil, map[string]string{"CHATCONFORM_FEATURES": "push,teleport"}, "", []string{"CHATCONFORM_FEATURES", "teleport", "push, vcall, jwt"}},
		{"bad capability", []string{"-chatconform.capabilities", "clock,Time Travel"}, nil, "", []string{"-chatconform.capabilities", "Time Travel"}},
		{"timeout", nil, map[string]string{"CHATCONFORM_TIMEOUT": "10"}, "", []string{"CHATCONFORM_TIMEOUT", "duration"}},
		{"threshold text", nil, map[string]string{"CHATCONFORM_WILDCARD_MENTION_THRESHOLD": "many"}, "", []string{"CHATCONFORM_WILDCARD_MENTION_THRESHOLD", "not an integer"}},
		{"threshold negative", []string{"-chatconform.wildcard-mention-threshold", "-3"}, nil, "", []string{"-chatconform.wildcard-mention-threshold", "positive"}},
		{"timeout zero", []string{"-chatconform.timeout", "0s"}, nil, "", []string{"-chatconform.timeout", "positive"}},
		{"empty report dir", []string{"-chatconform.report-dir", " "}, nil, "", []string{"-chatconform.report-dir"}},
		{"owner email", nil, map[string]string{"CHATCONFORM_OWNER_EMAIL": "nobody"}, "", []string{"CHATCONFORM_OWNER_EMAIL"}},
		{"secret not echoed", nil, map[string]string{"CHATCONFORM_OWNER_API_KEY": "sec ret"}, "", []string{"CHATCONFORM_OWNER_API_KEY", "white space"}},
		{"url without owner", []string{"-chatconform.url", "http://x"}, nil, "", []string{"-chatconform.owner-email", "required"}},
		{"url without key", []string{"-chatconform.url", "http://x"}, map[string]string{"CHATCONFORM_OWNER_EMAIL": "o@x.test"}, "", []string{"-chatconform.owner-api-key"}},
		{"missing file", []string{"-chatconform.config", "/no/such/file.yaml"}, nil, "", []string{"config file", "no such file"}},
		{"unknown yaml key", nil, nil, "url: http://x\nurll: http://y\n", []string{"urll", "unknown key", "did you mean url?"}},
		{"yaml bad value", nil, nil, "timeout: soon\n", []string{"timeout in", "duration"}},
		{"yaml unknown role", nil, nil, "users:\n  janitor: {email: j@x.test, api_key: k}\n", []string{"users.janitor", "unknown role"}},
		{"yaml owner in users", nil, nil, "users:\n  owner: {email: j@x.test, api_key: k}\n", []string{"users.owner"}},
		{"yaml user without key", nil, nil, "users:\n  guest: {email: g@x.test}\n", []string{"users.guest", "api_key"}},
		{"yaml unknown user field", nil, nil, "users:\n  guest: {email: g@x.test, apikey: k}\n", []string{"apikey"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := tt.args
			if tt.file != "" {
				args = append(args, "-chatconform.config", writeFile(t, tt.file))
			}
			_, err := LoadConfig(flags(t, args...), env(tt.env))
			if err == nil {
				t.Fatal("no error")
			}
			for _, want := range tt.wantErr {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("error %q does not mention %q", err, want)
				}
			}
			if strings.Contains(err.Error(), "sec ret") {
				t.Errorf("error %q echoes a secret", err)
			}
		})
	}
}

func TestResolveConfigNeedsParsedFlags(t *testing.T) {
	fs := flag.NewFlagSet("unparsed", flag.ContinueOnError)
	BindFlags(fs)
	t.Cleanup(func() { boundMu.Lock(); boundFlags = nil; boundMu.Unlock() })
	if _, err := ResolveConfig(); err == nil || !strings.Contains(err.Error(), "parsed") {
		t.Errorf("err = %v, want a complaint about unparsed flags", err)
	}
	if err := fs.Parse([]string{"-chatconform.report-dir", "out"}); err != nil {
		t.Fatal(err)
	}
	cfg, err := ResolveConfig()
	if err != nil || cfg.ReportDir != "out" {
		t.Errorf("ResolveConfig = %+v, %v", cfg, err)
	}
}

// TestSettingsTable keeps the documented table and the loaders in step.
func TestSettingsTable(t *testing.T) {
	fc := fileConfig{}
	s := "x"
	l := stringList{"x"}
	fc.URL, fc.FeatureLevel, fc.ReportDir, fc.Timeout, fc.WildcardMentionThreshold = &s, &s, &s, &s, &s
	fc.CAFile, fc.InsecureSkipVerify, fc.RecordExchanges = &s, &s, &s
	fc.Implementation = &Implementation{Name: "x", Version: "x", URL: "x", Contact: "x"}
	fc.Features, fc.Capabilities = &l, &l
	fc.Owner = &fileOwner{Email: "x", APIKey: "x", Permissions: &l}
	fromFile := fc.values()

	seen := map[string]bool{}
	for _, st := range Settings {
		if st.Name == "" || st.Meaning == "" {
			t.Errorf("setting %+v lacks a name or meaning", st)
		}
		if seen[st.Name] {
			t.Errorf("setting %s listed twice", st.Name)
		}
		seen[st.Name] = true
		if st.Flag != "" && st.Flag != FlagPrefix+st.Name {
			t.Errorf("setting %s: flag %q, want %q", st.Name, st.Flag, FlagPrefix+st.Name)
		}
		if st.Flag != "" && !strings.HasPrefix(st.Env, "CHATCONFORM_") {
			t.Errorf("setting %s: flag without a CHATCONFORM_ env var", st.Name)
		}
		if st.set == nil && st.Name != "users" {
			t.Errorf("setting %s has no setter", st.Name)
		}
		if st.YAML != "" && st.Name != "users" {
			if _, ok := fromFile[st.YAML]; !ok {
				t.Errorf("setting %s: YAML key %q is not read from the file", st.Name, st.YAML)
			}
		}
	}
	for key := range fromFile {
		found := false
		for _, st := range Settings {
			found = found || st.YAML == key
		}
		if !found {
			t.Errorf("file key %q has no setting", key)
		}
	}
}

func TestRedacted(t *testing.T) {
	c := Config{
		Owner: Credentials{"o@x.test", ownerKey},
		Users: map[Role]Credentials{Guest: {"g@x.test", "guestkeyguestkeyguestkey9876"}},
	}
	r := c.Redacted()
	if r.Owner.APIKey != "****" || r.Users[Guest].APIKey != "****" {
		t.Errorf("redacted = %+v", r)
	}
	if c.Owner.APIKey != ownerKey || c.Users[Guest].APIKey != "guestkeyguestkeyguestkey9876" {
		t.Error("Redacted changed the original")
	}
	b, _ := json.Marshal(r)
	if strings.Contains(string(b), ownerKey) {
		t.Errorf("redacted JSON holds the key: %s", b)
	}
}

func TestConfigJSONRoundTrip(t *testing.T) {
	c := Config{URL: "http://x", Owner: Credentials{"o@x", "k"}, RequestTimeout: 2500 * time.Millisecond,
		Capabilities: []string{}, Features: []string{"push"}, ReportDir: "r", WildcardMentionThreshold: 15}
	b, err := json.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `"request_timeout":"2.5s"`) {
		t.Errorf("JSON = %s", b)
	}
	var back Config
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back, c) {
		t.Errorf("round trip: %+v != %+v", back, c)
	}
}

func TestSettingsMarkdown(t *testing.T) {
	md := SettingsMarkdown()
	if got, want := strings.Count(md, "\n"), len(Settings)+2; got != want {
		t.Errorf("%d lines, want %d:\n%s", got, want, md)
	}
	for _, w := range []string{"| url | `--url` (`-chatconform.url`) | `CHATCONFORM_URL` | `url` | — |", "| `10s` |", "| users | — | — | `users` |"} {
		if !strings.Contains(md, w) {
			t.Errorf("table lacks %q:\n%s", w, md)
		}
	}
}

// TestConfigFileSyntaxLine: a YAML syntax error names the line a person finds it on.
func TestConfigFileSyntaxLine(t *testing.T) {
	for _, tc := range []struct {
		file string
		line string
	}{
		{"url: http://x\nowner: [email: a\n", "line 2:"},
		{"url: http://x\nreport_dir: a\ntimeout: [1\n", "line 3:"},
		{"url: http://x\nowner: {email: a\n", "line 2:"},
		{"- a\nurl: b\n", "line 2:"},
		{"url: http://x\n  timeout: 3s\n", "line 2:"},
		{"url: x\nowner:\n  email: \"unterminated\n", "line 3:"},
	} {
		path := filepath.Join(t.TempDir(), "c.yaml")
		if err := os.WriteFile(path, []byte(tc.file), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := LoadConfig(nil, env(map[string]string{"CHATCONFORM_CONFIG": path}))
		if err == nil || !strings.Contains(err.Error(), "yaml: "+tc.line) {
			t.Errorf("%q: error %v, want one naming %s", tc.file, err, tc.line)
		}
	}
}

// TestConfigFileKeys: a key the file does not have, or a value of the wrong shape, is named in
// the file's terms, with the nearest key; never by the harness's Go types.
func TestConfigFileKeys(t *testing.T) {
	for _, tc := range []struct{ file, want string }{
		{"url: http://x\nurll: http://y\n", "line 2: unknown key urll in the file's top level (did you mean url?)"},
		{"url: http://x\nowner:\n  emial: a@b\n", "line 3: unknown key emial in owner (did you mean email?)"},
		{"url: http://x\nusers:\n  member:\n    api_kye: k\n", "line 4: unknown key api_kye in an account under users (did you mean api_key?)"},
		{"url: http://x\nusers:\n  member: [1, 2]\n", "line 3: cannot unmarshal !!seq into an account under users"},
		{"url: http://x\nzzzzzzzz: 1\n", "line 2: unknown key zzzzzzzz in the file's top level"},
	} {
		path := filepath.Join(t.TempDir(), "c.yaml")
		if err := os.WriteFile(path, []byte(tc.file), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := LoadConfig(nil, env(map[string]string{"CHATCONFORM_CONFIG": path}))
		if err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "harness.") {
			t.Errorf("%q: error %v, want one saying %q and naming no Go type", tc.file, err, tc.want)
		}
	}
}

// TestShortFlags: with BindShortFlags, --url and -chatconform.url are one setting; the later
// on the command line wins, the source names the spelling given, and messages use the short
// style. Another flag named like a setting is not taken for it.
func TestShortFlags(t *testing.T) {
	t.Cleanup(func() { boundMu.Lock(); boundFlags, shortFlags = nil, false; boundMu.Unlock() })
	for _, tc := range []struct {
		name       string
		args       []string
		url        string
		source     string
		invalidMsg string
	}{
		{"old spelling", []string{"-chatconform.url", "http://old.test"}, "http://old.test", "-chatconform.url", ""},
		{"old spelling, two dashes", []string{"--chatconform.url", "http://old.test"}, "http://old.test", "-chatconform.url", ""},
		{"new spelling", []string{"--url", "http://new.test"}, "http://new.test", "--url", ""},
		{"new spelling, one dash", []string{"-url=http://new.test"}, "http://new.test", "--url", ""},
		{"the later wins", []string{"-chatconform.url", "http://old.test", "--url", "http://new.test"}, "http://new.test", "--url", ""},
		{"invalid, named as given", []string{"--feature-level", "abc"}, "", "", `invalid --feature-level "abc"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fs := flag.NewFlagSet("run", flag.ContinueOnError)
			BindFlags(fs)
			BindShortFlags(fs)
			if err := fs.Parse(tc.args); err != nil {
				t.Fatal(err)
			}
			cfg, err := LoadConfig(fs, env(map[string]string{"CHATCONFORM_OWNER_EMAIL": "o@example.test", "CHATCONFORM_OWNER_API_KEY": ownerKey}))
			if tc.invalidMsg != "" {
				if err == nil || !strings.Contains(err.Error(), tc.invalidMsg) {
					t.Fatalf("err = %v, want %q", err, tc.invalidMsg)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if cfg.URL != tc.url || cfg.Source("url") != tc.source || cfg.Source("owner-email") != "CHATCONFORM_OWNER_EMAIL" {
				t.Errorf("url %q from %q, owner from %q; want %q from %q", cfg.URL, cfg.Source("url"), cfg.Source("owner-email"), tc.url, tc.source)
			}
			if got := cfg.Source("timeout"); got != "--timeout, CHATCONFORM_TIMEOUT, timeout in the config file (default)" {
				t.Errorf("an unset setting's source = %q", got)
			}
		})
	}

	fs := flag.NewFlagSet("other", flag.ContinueOnError)
	BindFlags(fs)
	fs.String("url", "", "a flag of something else")
	if err := fs.Parse([]string{"-url", "http://else.test"}); err != nil {
		t.Fatal(err)
	}
	if cfg, err := LoadConfig(fs, env(nil)); err != nil || cfg.URL != "" {
		t.Errorf("a foreign -url flag set the target: %q, %v", cfg.URL, err)
	}
}
