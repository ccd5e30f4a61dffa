package realm

import (
	"regexp"
	"regexp/syntax"
	"slices"
	"strings"

	"github.com/yosida95/uritemplate/v3"

	"github.com/chatconform/chatconform/fakeserver/internal/apierr"
	"github.com/chatconform/chatconform/fakeserver/internal/mutation"
)

// Linkifier turns text matching a pattern into a link built from an RFC 6570 template.
type Linkifier struct {
	ID                      int      `json:"id"`
	Pattern                 string   `json:"pattern"`
	URLTemplate             string   `json:"url_template"`
	ExampleInput            *string  `json:"example_input"`
	ReverseTemplate         *string  `json:"reverse_template"`
	AlternativeURLTemplates []string `json:"alternative_url_templates"`

	re   *regexp.Regexp
	tmpl *uritemplate.Template
}

// LinkifierInput is what an administrator sends to add a linkifier.
type LinkifierInput struct {
	Pattern                 string
	URLTemplate             string
	ExampleInput            *string
	ReverseTemplate         *string
	AlternativeURLTemplates []string
}

// parseTemplate validates an RFC 6570 template with a real URI-template parser.
func parseTemplate(raw string) (*uritemplate.Template, error) {
	t, err := uritemplate.New(raw)
	if err != nil || raw == "" {
		return nil, apierr.BadRequest("Invalid URL template.")
	}
	return t, nil
}

// maxPatternInsts bounds a linkifier pattern's compiled program as the real server's RE2 does
// by default (8 MiB of memory, two thirds for the program, a quarter of that in 8-byte
// instructions: about 175,000), so that a 1 MiB pattern is refused at once, as there, rather
// than compiled for seconds.
const maxPatternInsts = (8 << 20) * 2 / 3 / 4 / 8

// compilePattern compiles a linkifier pattern, refusing one whose program outgrows
// maxPatternInsts before the costly part of compiling it (parsing and the program are linear
// in the pattern's size).
func compilePattern(pattern string) (*regexp.Regexp, error) {
	if pattern == "" {
		return nil, apierr.BadRequest("Bad regular expression: empty pattern")
	}
	parsed, err := syntax.Parse(pattern, syntax.Perl)
	if err != nil {
		return nil, apierr.BadRequest("Bad regular expression: %s", err)
	}
	if programSize(parsed) > maxPatternInsts {
		return nil, apierr.BadRequest("Bad regular expression: pattern too large - compile failed")
	}
	re, err := regexp.Compile(pattern)
	if err != nil {
		return nil, apierr.BadRequest("Bad regular expression: %s", err)
	}
	return re, nil
}

// programSize estimates the instructions a parsed pattern compiles to: one per literal
// character, a counted repeat's body as often as it repeats, and two for every other node (a
// class, an empty-width test, a group, an alternative, a loop) besides its parts. It stops
// counting past maxPatternInsts.
func programSize(re *syntax.Regexp) int {
	switch re.Op {
	case syntax.OpLiteral:
		return len(re.Rune)
	case syntax.OpRepeat:
		times := re.Max
		if times < 0 {
			times = re.Min + 1
		}
		return min(times*programSize(re.Sub[0]), maxPatternInsts+1) + 1
	}
	n := 2
	for _, sub := range re.Sub {
		if n += programSize(sub); n > maxPatternInsts {
			break
		}
	}
	return n
}

func validateLinkifier(in LinkifierInput) (*Linkifier, error) {
	re, err := compilePattern(in.Pattern)
	if err != nil {
		return nil, err
	}
	tmpl, err := parseTemplate(in.URLTemplate)
	if err != nil {
		return nil, err
	}
	// Sets, not lists: a pattern may have tens of thousands of groups within its bound, and a
	// search of one list for each name of the other took seconds (TestCostPerByte's groups).
	groups := make(map[string]bool, len(re.SubexpNames()))
	for _, g := range re.SubexpNames() {
		groups[g] = g != ""
	}
	vars := tmpl.Varnames()
	inTemplate := make(map[string]bool, len(vars))
	for _, v := range vars {
		if !groups[v] {
			return nil, apierr.BadRequest("Group '%s' in URL template is not present in linkifier pattern.", v)
		}
		inTemplate[v] = true
	}
	for _, g := range re.SubexpNames() {
		if g != "" && !inTemplate[g] {
			return nil, apierr.BadRequest("Group '%s' in linkifier pattern is not present in URL template.", g)
		}
	}
	for _, alt := range in.AlternativeURLTemplates {
		if _, err := parseTemplate(alt); err != nil {
			return nil, err
		}
	}
	if in.ExampleInput != nil && !re.MatchString(*in.ExampleInput) {
		return nil, apierr.BadRequest("Example input does not match the linkifier pattern.")
	}
	if in.ReverseTemplate != nil && in.ExampleInput == nil && !mutation.On("linkifier-reverse-without-example-accepted") {
		return nil, apierr.BadRequest("Reverse template requires an example input.")
	}
	if mutation.On("linkifier-reverse-template-braces-collapsed") && in.ReverseTemplate != nil {
		in.ReverseTemplate = new(strings.NewReplacer("{{", "{", "}}", "}").Replace(*in.ReverseTemplate))
	}
	if mutation.On("linkifier-reverse-template-dropped") {
		in.ReverseTemplate = nil
	}
	if mutation.On("linkifier-example-input-dropped") {
		in.ExampleInput = nil
	}
	alts := in.AlternativeURLTemplates
	if alts == nil && !mutation.On("alternative-url-templates-default") || mutation.On("linkifier-alternatives-dropped") {
		alts = []string{}
	}
	return &Linkifier{
		Pattern: in.Pattern, URLTemplate: in.URLTemplate, ExampleInput: in.ExampleInput,
		ReverseTemplate: in.ReverseTemplate, AlternativeURLTemplates: alts, re: re, tmpl: tmpl,
	}, nil
}

// AddLinkifier appends a linkifier (POST /realm/filters); the caller is an administrator.
func (s *OrganizationState) AddLinkifier(in LinkifierInput) (int, error) {
	in.Pattern, in.URLTemplate = strings.TrimSpace(in.Pattern), strings.TrimSpace(in.URLTemplate)
	l, err := validateLinkifier(in)
	if err != nil {
		return 0, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if slices.ContainsFunc(s.linkifiers, func(o *Linkifier) bool { return o.Pattern == l.Pattern }) {
		return 0, apierr.BadRequest("Linkifier with this Pattern and Realm already exists.")
	}
	l.ID = nextID(&s.nextLinkifier)
	s.linkifiers = append(s.linkifiers, l)
	s.publishRealmList("realm_linkifiers", s.linkifierList())
	if mutation.On("linkifier-id-of-next") {
		return l.ID + 1, nil
	}
	return l.ID, nil
}

// RemoveLinkifier deletes a linkifier (DELETE /realm/filters/{id}).
func (s *OrganizationState) RemoveLinkifier(id int) error {
	return removeFromRealmList(s, &s.linkifiers, func(l *Linkifier) bool { return l.ID == id },
		apierr.BadRequest("Linkifier not found."), "realm_linkifiers", s.linkifierList)
}

// UpdateLinkifier replaces a linkifier's definition in place, keeping its ID and position
// (PATCH /realm/filters/{id}); the caller is an administrator.
func (s *OrganizationState) UpdateLinkifier(id int, in LinkifierInput) error {
	in.Pattern, in.URLTemplate = strings.TrimSpace(in.Pattern), strings.TrimSpace(in.URLTemplate)
	// Compiled before the lock, as AddLinkifier does: no request waits on another's pattern.
	l, err := validateLinkifier(in)
	s.mu.Lock()
	defer s.mu.Unlock()
	i := slices.IndexFunc(s.linkifiers, func(l *Linkifier) bool { return l.ID == id })
	if i < 0 {
		return apierr.BadRequest("Linkifier not found.")
	}
	if err != nil {
		return err
	}
	if slices.ContainsFunc(s.linkifiers, func(o *Linkifier) bool { return o.ID != id && o.Pattern == l.Pattern }) {
		return apierr.BadRequest("Linkifier with this Pattern and Realm already exists.")
	}
	l.ID = id
	s.linkifiers[i] = l
	s.publishRealmList("realm_linkifiers", s.linkifierList())
	return nil
}

// ReorderLinkifiers sets the order clients apply the linkifiers in (PATCH /realm/linkifiers):
// ids must name every linkifier exactly once.
func (s *OrganizationState) ReorderLinkifiers(ids []int64) error {
	seen := map[int64]bool{}
	for _, id := range ids {
		if seen[id] {
			return apierr.BadRequest("The ordered list must not contain duplicated linkifiers")
		}
		seen[id] = true
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	byID := map[int64]*Linkifier{}
	for _, l := range s.linkifiers {
		byID[int64(l.ID)] = l
	}
	if len(ids) != len(byID) {
		return apierr.BadRequest("The ordered list must enumerate all existing linkifiers exactly once")
	}
	ordered := make([]*Linkifier, 0, len(ids))
	for _, id := range ids {
		l := byID[id]
		if l == nil {
			return apierr.BadRequest("The ordered list must enumerate all existing linkifiers exactly once")
		}
		ordered = append(ordered, l)
	}
	if mutation.On("linkifier-reorder-not-applied") {
		ordered = s.linkifiers
	}
	s.linkifiers = ordered
	s.publishRealmList("realm_linkifiers", s.linkifierList())
	return nil
}

// Linkifiers returns the linkifiers in the order clients must apply them.
func (s *OrganizationState) Linkifiers() []any {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.linkifierList()
}

// linkifierList gives the linkifiers in order, in the form of the realm's level (the real
// server's changelog): a url_format_string below 176, example_input and reverse_template
// from 471, alternative_url_templates from 478.
func (s *OrganizationState) linkifierList() []any {
	level := s.settings.FeatureLevel
	out := make([]any, len(s.linkifiers))
	for i, l := range s.linkifiers {
		if level >= LevelLinkifierAlternatives {
			out[i] = *l
			continue
		}
		v := map[string]any{"id": l.ID, "pattern": l.Pattern}
		if level >= LevelLinkifierURLTemplate {
			v["url_template"] = l.URLTemplate
		} else {
			v["url_format_string"] = formatStringOf(l.URLTemplate)
		}
		if level >= LevelLinkifierReverse {
			v["example_input"], v["reverse_template"] = l.ExampleInput, l.ReverseTemplate
		}
		out[i] = v
	}
	if mutation.On("linkifiers-listed-newest-first") {
		slices.Reverse(out)
	}
	return out
}

// The variables of a linkifier's URL: {name} in a URL template, %(name)s in the Python format
// string of older servers (where a literal % is written %%).
var (
	templateVariable = regexp.MustCompile(`\{([A-Za-z0-9_]+)\}`)
	formatVariable   = regexp.MustCompile(`%\(([A-Za-z0-9_]+)\)s`)
)

// TemplateOfFormatString is the URL template of an older server's url_format_string.
func TemplateOfFormatString(format string) string {
	parts := strings.Split(format, "%%")
	for i, part := range parts {
		parts[i] = formatVariable.ReplaceAllString(part, "{$1}")
	}
	return strings.Join(parts, "%")
}

// formatStringOf is the url_format_string an older server shows for a URL template.
func formatStringOf(template string) string {
	return templateVariable.ReplaceAllString(strings.ReplaceAll(template, "%", "%%"), "%($1)s")
}

// topicLinks applies the linkifiers, in order, to a topic; the first linkifier to claim a
// stretch of text wins it.
func (s *OrganizationState) topicLinks(topic string) []TopicLink {
	type span struct {
		start, end int
		link       TopicLink
	}
	var spans []span
	for _, l := range s.linkifiers {
		for _, loc := range l.re.FindAllStringSubmatchIndex(topic, -1) {
			if slices.ContainsFunc(spans, func(o span) bool { return loc[0] < o.end && o.start < loc[1] }) {
				continue
			}
			vals := uritemplate.Values{}
			for i, name := range l.re.SubexpNames() {
				if name != "" && loc[2*i] >= 0 {
					vals.Set(name, uritemplate.String(topic[loc[2*i]:loc[2*i+1]]))
				}
			}
			url, err := l.tmpl.Expand(vals)
			if err != nil {
				continue
			}
			spans = append(spans, span{loc[0], loc[1], TopicLink{Text: topic[loc[0]:loc[1]], URL: url}})
		}
	}
	slices.SortFunc(spans, func(a, b span) int { return a.start - b.start })
	links := make([]TopicLink, len(spans))
	for i, sp := range spans {
		links[i] = sp.link
	}
	return links
}
