package harness

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

	"gopkg.in/yaml.v3"
)

// boundFlags remembers the flag set BindFlags registered on, so that
// ResolveConfig can read it without the caller passing it again; shortFlags says whether
// BindShortFlags gave that set the short spellings, which messages then use.
var (
	boundMu    sync.Mutex
	boundFlags *flag.FlagSet
	shortFlags bool
)

// BindFlags registers one flag per setting (-chatconform.url, …) on fs.
// Call it once per flag set, before fs is parsed; flag.CommandLine is the
// usual choice, next to the flags of go test and Ginkgo.
func BindFlags(fs *flag.FlagSet) {
	for _, s := range Settings {
		if s.Flag == "" {
			continue
		}
		usage := s.Meaning
		if s.Env != "" {
			usage += " (env " + s.Env + ")"
		}
		// String flags for every setting: parsing and validation happen in
		// one place (the setting's setter), with errors naming the setting,
		// and fs.Visit tells which flags were actually given.
		fs.String(s.Flag, s.Default, usage)
	}
	boundMu.Lock()
	boundFlags, shortFlags = fs, false
	boundMu.Unlock()
}

// BindShortFlags gives every setting flag BindFlags registered on fs a second name without
// the prefix (--url beside -chatconform.url), sharing its value: the runner's style, where no
// go test flag competes for the short names. Messages then name settings that way.
func BindShortFlags(fs *flag.FlagSet) {
	for _, s := range Settings {
		if f := fs.Lookup(s.Flag); s.Flag != "" && f != nil {
			fs.Var(f.Value, s.Name, f.Usage)
		}
	}
	boundMu.Lock()
	if boundFlags == fs {
		shortFlags = true
	}
	boundMu.Unlock()
}

// ResolveConfig builds the configuration from the flags bound by BindFlags
// (if any), the process environment, the YAML file named by -chatconform.config
// or CHATCONFORM_CONFIG, and the defaults, in that order of precedence.
func ResolveConfig() (Config, error) {
	boundMu.Lock()
	fs := boundFlags
	boundMu.Unlock()
	if fs != nil && !fs.Parsed() {
		return Config{}, errors.New("harness: ResolveConfig called before the flags were parsed")
	}
	return LoadConfig(fs, os.LookupEnv)
}

// LoadConfig is ResolveConfig with explicit inputs: fs may be nil (no flags)
// and lookupEnv replaces os.LookupEnv, which makes precedence testable.
func LoadConfig(fs *flag.FlagSet, lookupEnv func(string) (string, bool)) (Config, error) {
	cfg := defaultConfig()
	cfg.Sources = map[string]string{}
	flags := givenFlags(fs)

	// The file's path itself comes from a flag or the environment only.
	cs := setting("config")
	path, source := "", ""
	if f, ok := flags[cs.Flag]; ok {
		path, source = f.value, f.spelling
	} else if v, ok := lookupEnv(cs.Env); ok {
		path, source = v, cs.Env // empty = no file, like any empty variable
	}
	if path = strings.TrimSpace(path); path != "" {
		if err := applyFile(&cfg, path); err != nil {
			return Config{}, err
		}
		cfg.ConfigFile = path
		cfg.Sources[cs.Name] = source
	}

	for _, s := range Settings {
		if s.set == nil || s.Env == "" || s.Name == "config" {
			continue
		}
		// An empty variable counts as unset: CI systems often define
		// variables they have no value for. ("none" turns capabilities off.)
		if v, ok := lookupEnv(s.Env); ok && strings.TrimSpace(v) != "" {
			if err := s.set(&cfg, v); err != nil {
				return Config{}, settingError(s, s.Env, v, err)
			}
			cfg.Sources[s.Name] = s.Env
		}
	}
	for _, s := range Settings {
		if s.set == nil || s.Flag == "" || s.Name == "config" {
			continue
		}
		if f, ok := flags[s.Flag]; ok {
			if err := s.set(&cfg, f.value); err != nil {
				return Config{}, settingError(s, f.spelling, f.value, err)
			}
			cfg.Sources[s.Name] = f.spelling
		}
	}
	if err := cfg.validate(); err != nil {
		return Config{}, err
	}
	return cfg, nil
}

// givenFlag is a setting flag as given: its value and the name it was given by.
type givenFlag struct{ value, spelling string }

// givenFlags returns the harness flags that were set on fs, keyed by their prefixed name
// whichever of their names was given.
func givenFlags(fs *flag.FlagSet) map[string]givenFlag {
	out := map[string]givenFlag{}
	if fs == nil {
		return out
	}
	fs.Visit(func(f *flag.Flag) {
		name := f.Name
		if !strings.HasPrefix(name, FlagPrefix) {
			// A short name is the setting's only when it shares the prefixed flag's value.
			long := fs.Lookup(FlagPrefix + name)
			if long == nil || long.Value != f.Value {
				return
			}
			name = long.Name
		}
		out[name] = givenFlag{f.Value.String(), flagSpelling(f.Name)}
	})
	return out
}

// flagSpelling is how messages write a flag: the prefixed names with one dash, as go test
// takes them, the short names with two.
func flagSpelling(name string) string {
	if strings.HasPrefix(name, FlagPrefix) {
		return "-" + name
	}
	return "--" + name
}

// settingError names the setting and where it came from; secret values are
// never repeated.
func settingError(s Setting, source, value string, err error) error {
	if s.Secret {
		return fmt.Errorf("invalid %s: %w", source, err)
	}
	return fmt.Errorf("invalid %s %q: %w", source, value, err)
}

// stringList accepts a YAML sequence or a comma-separated scalar.
type stringList []string

// UnmarshalYAML implements yaml.Unmarshaler.
func (l *stringList) UnmarshalYAML(n *yaml.Node) error {
	switch n.Kind {
	case yaml.ScalarNode:
		*l = stringList{n.Value}
		return nil
	case yaml.SequenceNode:
		var items []string
		if err := n.Decode(&items); err != nil {
			return err
		}
		*l = items
		return nil
	}
	return fmt.Errorf("line %d: expected a list or a comma-separated string", n.Line)
}

// fileConfig is the YAML file's shape. Scalars are read as text and go
// through the same setters as flags and environment variables.
type fileConfig struct {
	URL                      *string                `yaml:"url"`
	Owner                    *fileOwner             `yaml:"owner"`
	Users                    map[string]Credentials `yaml:"users"`
	FeatureLevel             *string                `yaml:"feature_level"`
	Features                 *stringList            `yaml:"features"`
	Capabilities             *stringList            `yaml:"capabilities"`
	WildcardMentionThreshold *string                `yaml:"wildcard_mention_threshold"`
	Implementation           *Implementation        `yaml:"implementation"`
	CAFile                   *string                `yaml:"ca_file"`
	InsecureSkipVerify       *string                `yaml:"insecure_skip_verify"`
	ReportDir                *string                `yaml:"report_dir"`
	RecordExchanges          *string                `yaml:"record_exchanges"`
	Timeout                  *string                `yaml:"timeout"`
}

// fileOwner is the owner's entry of the YAML file: credentials and declared permissions.
type fileOwner struct {
	Email       string      `yaml:"email"`
	APIKey      string      `yaml:"api_key"`
	Permissions *stringList `yaml:"permissions"`
}

// values returns the file's settings keyed by their YAML key in Settings.
func (f fileConfig) values() map[string]string {
	out := map[string]string{}
	put := func(key string, v *string) {
		if v != nil {
			out[key] = *v
		}
	}
	putList := func(key string, v *stringList) {
		if v != nil {
			out[key] = strings.Join(*v, ",")
		}
	}
	put("url", f.URL)
	if f.Owner != nil {
		if f.Owner.Email != "" {
			out["owner.email"] = f.Owner.Email
		}
		if f.Owner.APIKey != "" {
			out["owner.api_key"] = f.Owner.APIKey
		}
		putList("owner.permissions", f.Owner.Permissions)
	}
	put("feature_level", f.FeatureLevel)
	putList("features", f.Features)
	putList("capabilities", f.Capabilities)
	put("wildcard_mention_threshold", f.WildcardMentionThreshold)
	if i := f.Implementation; i != nil {
		for key, v := range map[string]string{"name": i.Name, "version": i.Version, "url": i.URL, "contact": i.Contact} {
			if v != "" {
				out["implementation."+key] = v
			}
		}
	}
	put("ca_file", f.CAFile)
	put("insecure_skip_verify", f.InsecureSkipVerify)
	put("report_dir", f.ReportDir)
	put("record_exchanges", f.RecordExchanges)
	put("timeout", f.Timeout)
	return out
}

// applyFile reads the YAML file at path into cfg; unknown keys are errors,
// so a typo never silently falls back to a default.
func applyFile(cfg *Config, path string) error {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("config file (%s): %w", settingFlag("config"), err)
	}
	defer f.Close()
	dec := yaml.NewDecoder(f)
	dec.KnownFields(true)
	var fc fileConfig
	if err := dec.Decode(&fc); err != nil && !errors.Is(err, io.EOF) {
		return fmt.Errorf("config file %s: %s", path, fileTerms(yamlLine(err)))
	}
	vals := fc.values()
	for _, s := range Settings {
		v, ok := vals[s.YAML]
		if !ok || s.set == nil {
			continue
		}
		if err := s.set(cfg, v); err != nil {
			return settingError(s, fmt.Sprintf("%s in %s", s.YAML, path), v, err)
		}
		cfg.Sources[s.Name] = fmt.Sprintf("%s in %s", s.YAML, path)
	}
	if len(fc.Users) > 0 {
		cfg.Users = map[Role]Credentials{}
		for name, cr := range fc.Users {
			r := Role(name)
			if !r.valid() || r == Owner {
				return fmt.Errorf("config file %s: users.%s: unknown role (use %s)", path, name, strings.Join(configurableRoles(), ", "))
			}
			cr.Email, cr.APIKey = strings.TrimSpace(cr.Email), strings.TrimSpace(cr.APIKey)
			cfg.Users[r] = cr
			cfg.Sources[userSetting(r)] = fmt.Sprintf("users.%s in %s", r, path)
		}
	}
	return nil
}

// configurableRoles are the roles the users: section may give; the owner
// has settings of its own.
func configurableRoles() []string {
	var out []string
	for _, r := range Roles {
		if r != Owner {
			out = append(out, string(r))
		}
	}
	return slices.Clip(out)
}

// parserLine is the line a yaml.v3 parser error names. The parser (unlike the scanner, whose
// lines are right) counts lines from 0 there: "line 1: did not find expected ',' or ']'" is
// about the second line.
var parserLine = regexp.MustCompile(`^yaml: line ([0-9]+): (did not find expected .*)$`)

// yamlLine is a YAML error's text with the line a person finds the problem on.
func yamlLine(err error) string {
	m := parserLine.FindStringSubmatch(err.Error())
	if m == nil {
		return err.Error()
	}
	n, _ := strconv.Atoi(m[1])
	return fmt.Sprintf("yaml: line %d: %s", n+1, m[2])
}

// fileSections are the Go types the YAML file decodes into, by name, with what a user calls
// them: yaml.v3's errors name the types ("field urll not found in type harness.fileConfig").
var fileSections = map[string]struct {
	name string
	typ  reflect.Type
}{
	"fileConfig":     {"the file's top level", reflect.TypeFor[fileConfig]()},
	"fileOwner":      {"owner", reflect.TypeFor[fileOwner]()},
	"Credentials":    {"an account under users", reflect.TypeFor[Credentials]()},
	"Implementation": {"implementation", reflect.TypeFor[Implementation]()},
}

var (
	unknownField = regexp.MustCompile(`field (\S+) not found in type harness\.([A-Za-z]+)`)
	goType       = regexp.MustCompile(`(?:type )?harness\.([A-Za-z]+)`)
)

// fileTerms says a YAML decoding error in the file's terms: an unknown key is named with the
// section it is in and the nearest key there, and no Go type of the harness is named.
func fileTerms(msg string) string {
	msg = unknownField.ReplaceAllStringFunc(msg, func(m string) string {
		sub := unknownField.FindStringSubmatch(m)
		section, ok := fileSections[sub[2]]
		if !ok {
			return "unknown key " + sub[1]
		}
		out := fmt.Sprintf("unknown key %s in %s", sub[1], section.name)
		if near := nearestKey(sub[1], section.typ); near != "" {
			out += fmt.Sprintf(" (did you mean %s?)", near)
		}
		return out
	})
	return goType.ReplaceAllStringFunc(msg, func(m string) string {
		if section, ok := fileSections[goType.FindStringSubmatch(m)[1]]; ok {
			return section.name
		}
		return "a value"
	})
}

// nearestKey is the YAML key of typ closest to key, within two edits; "" when none is.
func nearestKey(key string, typ reflect.Type) string {
	best, bestDistance := "", 3
	for i := range typ.NumField() {
		name, _, _ := strings.Cut(typ.Field(i).Tag.Get("yaml"), ",")
		if d := EditDistance(key, name); name != "" && d < bestDistance {
			best, bestDistance = name, d
		}
	}
	return best
}

// EditDistance is the Levenshtein distance between a and b, for near matches of a typo.
func EditDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur := make([]int, len(b)+1)
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev = cur
	}
	return prev[len(b)]
}
