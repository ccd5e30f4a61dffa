// Package catalog loads and validates the requirements catalog of the conformance
// suite: one entry per checkable statement of the chat API document, each with a
// stable ID that specs name through harness.Req.
//
// The data lives next to this file in requirements.yaml and is embedded, so the
// suite binary carries its catalog and cannot drift from the one it was built with.
package catalog

import (
	"bytes"
	"crypto/sha256"
	_ "embed"
	"errors"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"
)

// embedded is the catalog data; it sits in this package because go:embed cannot
// reach files in a parent folder.
//
//go:embed requirements.yaml
var embedded []byte

// idPattern is the requirement ID format: an area and a two-digit number.
// Operations are numbered 01..21 as in the API document.
var idPattern = regexp.MustCompile(`^(CONV|MSG|RES|STATE|OP(0[1-9]|1[0-9]|2[01])|AUTH|EVENT|ERR|LIMIT|VER)-[0-9]{2}$`)

// features are the values allowed for Requirement.Feature; the harness gates
// requirements on the target's declared feature set using these names.
var features = []string{
	"core", "messages", "topics", "users", "auth", "jwt", "presence", "subscriptions",
	"push", "attachments", "reminders", "groups", "linkifiers", "playgrounds",
	"bot_storage", "vcall", "events", "typing",
}

// pendingIssues are the values allowed for Requirement.Pending: the issues that
// will write the specs still missing.
var pendingIssues = []string{"issue-3", "issue-4", "issue-5", "issue-6"}

// knownKeys are the YAML keys of an entry; anything else is a typo that would
// otherwise be dropped silently.
var knownKeys = map[string]bool{
	"id": true, "section": true, "text": true, "feature": true, "min_level": true, "below_level": true, "pending": true,
}

// Requirement is one checkable statement of the API document.
type Requirement struct {
	// ID is the stable requirement ID, for example "OP06-01".
	ID string `yaml:"id"`
	// Section names where the statement is in the document.
	Section string `yaml:"section"`
	// Text is a one-line paraphrase of the statement.
	Text string `yaml:"text"`
	// Feature is the feature the requirement belongs to (see Features).
	Feature string `yaml:"feature"`
	// MinLevel is the feature level the document states for the statement, or 0
	// when it gives none.
	MinLevel int `yaml:"min_level"`
	// BelowLevel, when not 0, is the level from which the statement no longer holds: a form
	// the document names as replaced there, checked only on servers below it.
	BelowLevel int `yaml:"below_level"`
	// Pending names the piece of work that will write the spec (one of pendingIssues),
	// or is empty when the suite covers the requirement now.
	Pending string `yaml:"pending"`

	// line is the YAML line of the entry, used to locate entries that lack an ID.
	line int
}

// Area returns the area part of the ID ("OP06" for "OP06-01"), or "" when the ID
// has no dash.
func (r Requirement) Area() string {
	area, _, ok := strings.Cut(r.ID, "-")
	if !ok {
		return ""
	}
	return area
}

// IsPending reports whether the requirement still waits for its spec.
func (r Requirement) IsPending() bool { return r.Pending != "" }

// UnmarshalYAML decodes one entry and rejects unknown keys itself, because
// yaml.v3 does not apply the decoder's KnownFields to custom unmarshalers and
// because the error can then name the entry's ID.
func (r *Requirement) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind != yaml.MappingNode {
		return fmt.Errorf("line %d: requirement entry is not a mapping", n.Line)
	}
	name := entryName(n)
	for i := 0; i+1 < len(n.Content); i += 2 {
		if k := n.Content[i].Value; !knownKeys[k] {
			return fmt.Errorf("%s: unknown field %q (line %d)", name, k, n.Content[i].Line)
		}
	}
	type plain Requirement // no methods, so Decode does not recurse into UnmarshalYAML
	var p plain
	if err := n.Decode(&p); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	*r = Requirement(p)
	r.line = n.Line
	return nil
}

// entryName names an entry for error messages: its ID when it has one,
// otherwise its line.
func entryName(n *yaml.Node) string {
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == "id" && n.Content[i+1].Value != "" {
			return n.Content[i+1].Value
		}
	}
	return fmt.Sprintf("entry at line %d", n.Line)
}

// Catalog is the validated list of requirements, in file order.
type Catalog struct {
	// Requirements holds every entry in file (document) order.
	Requirements []Requirement `yaml:"requirements"`

	byID map[string]int
}

// Version names the embedded catalog's content by a digest of the file, so two reports name
// the same catalog exactly when they were checked against the same rules.
func Version() string {
	sum := sha256.Sum256(embedded)
	return fmt.Sprintf("sha256:%x", sum[:6])
}

// Load parses and validates the embedded catalog.
func Load() (*Catalog, error) {
	return Parse(embedded)
}

// MustLoad is Load for package initialisation and tests: the embedded catalog is
// checked by this package's tests, so an error here is a programming error.
func MustLoad() *Catalog {
	c, err := Load()
	if err != nil {
		panic(fmt.Sprintf("catalog: %v", err))
	}
	return c
}

// Parse decodes a catalog document and validates every entry. All problems are
// reported together (joined), each naming the offending ID.
func Parse(data []byte) (*Catalog, error) {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true) // top-level typos such as "requirement:" must not pass as empty
	var c Catalog
	if err := dec.Decode(&c); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, errors.New("catalog: empty document")
		}
		return nil, fmt.Errorf("catalog: %w", err)
	}
	if len(c.Requirements) == 0 {
		return nil, errors.New("catalog: no requirements")
	}
	if err := c.validate(); err != nil {
		return nil, err
	}
	return &c, nil
}

// validate checks every entry and builds the ID index.
func (c *Catalog) validate() error {
	var errs []error
	c.byID = make(map[string]int, len(c.Requirements))
	for i, r := range c.Requirements {
		name := r.ID
		if name == "" {
			name = fmt.Sprintf("entry at line %d", r.line)
		}
		fail := func(format string, args ...any) {
			errs = append(errs, fmt.Errorf("catalog: %s: "+format, append([]any{name}, args...)...))
		}
		switch {
		case r.ID == "":
			fail("missing id")
		case !idPattern.MatchString(r.ID):
			fail("id does not match %s", idPattern)
		default:
			if j, dup := c.byID[r.ID]; dup {
				fail("duplicate id (also at line %d)", c.Requirements[j].line)
			} else {
				c.byID[r.ID] = i
			}
		}
		if strings.TrimSpace(r.Section) == "" {
			fail("empty section")
		}
		if strings.TrimSpace(r.Text) == "" {
			fail("empty text")
		}
		if !slices.Contains(features, r.Feature) {
			fail("unknown feature %q", r.Feature)
		}
		if r.BelowLevel < 0 || (r.BelowLevel > 0 && r.BelowLevel <= r.MinLevel) {
			fail("below_level %d must be above min_level %d", r.BelowLevel, r.MinLevel)
		}
		if r.MinLevel < 0 {
			fail("negative min_level %d", r.MinLevel)
		}
		if r.Pending != "" && !slices.Contains(pendingIssues, r.Pending) {
			fail("unknown pending %q (want one of %s)", r.Pending, strings.Join(pendingIssues, ", "))
		}
	}
	return errors.Join(errs...)
}

// Get returns the requirement with the given ID.
func (c *Catalog) Get(id string) (Requirement, bool) {
	if c.byID != nil {
		i, ok := c.byID[id]
		if !ok {
			return Requirement{}, false
		}
		return c.Requirements[i], true
	}
	// A Catalog built as a literal has no index; fall back to a scan.
	for _, r := range c.Requirements {
		if r.ID == id {
			return r, true
		}
	}
	return Requirement{}, false
}

// Has reports whether the catalog holds the ID; specs use it to reject unknown IDs.
func (c *Catalog) Has(id string) bool {
	_, ok := c.Get(id)
	return ok
}

// IDs returns every ID in file order.
func (c *Catalog) IDs() []string {
	ids := make([]string, len(c.Requirements))
	for i, r := range c.Requirements {
		ids[i] = r.ID
	}
	return ids
}

// Pending returns the requirements still waiting for their spec, in file order.
func (c *Catalog) Pending() []Requirement {
	return c.filter(Requirement.IsPending)
}

// Covered returns the requirements the suite covers now (not pending), in file
// order; the coverage check demands a spec for each of them.
func (c *Catalog) Covered() []Requirement {
	return c.filter(func(r Requirement) bool { return !r.IsPending() })
}

// InArea returns the requirements of one area ("OP06", "MSG", ...), in file order.
func (c *Catalog) InArea(area string) []Requirement {
	return c.filter(func(r Requirement) bool { return r.Area() == area })
}

// filter returns the requirements for which keep is true, in file order.
func (c *Catalog) filter(keep func(Requirement) bool) []Requirement {
	var out []Requirement
	for _, r := range c.Requirements {
		if keep(r) {
			out = append(out, r)
		}
	}
	return out
}

// Features returns the allowed feature names.
func Features() []string { return slices.Clone(features) }

// PendingIssues returns the allowed values of Requirement.Pending.
func PendingIssues() []string { return slices.Clone(pendingIssues) }
