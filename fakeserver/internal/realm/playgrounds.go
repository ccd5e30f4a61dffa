package realm

import (
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/chatconform/chatconform/fakeserver/internal/apierr"
	"github.com/chatconform/chatconform/fakeserver/internal/mutation"
)

// Playground is a code playground: a place to open a code block of a given language.
type Playground struct {
	ID               int    `json:"id"`
	Name             string `json:"name"`
	PygmentsLanguage string `json:"pygments_language"`
	URLTemplate      string `json:"url_template"`
}

var pygmentsLanguagePattern = regexp.MustCompile(`^[ a-zA-Z0-9_+\-./#]*$`)

// AddPlayground validates and stores a playground (POST /realm/playgrounds); the caller is
// an administrator. The template must be RFC 6570 with exactly one variable, named code.
func (s *OrganizationState) AddPlayground(name, language, template string) (int, error) {
	name, language, template = strings.TrimSpace(name), strings.TrimSpace(language), strings.TrimSpace(template)
	switch {
	case name == "" || language == "":
		return 0, apierr.BadRequest("This field cannot be blank.")
	case utf8.RuneCountInString(language) > 40:
		return 0, apierr.BadRequest("pygments_language is too long (limit: 40 characters)")
	case !pygmentsLanguagePattern.MatchString(language):
		return 0, apierr.BadRequest("Invalid characters in pygments language")
	}
	tmpl, err := parseTemplate(template)
	if err != nil {
		return 0, err
	}
	vars := tmpl.Varnames()
	if mutation.On("playground-refused-but-stored") && !slices.Contains(vars, "code") {
		s.storePlayground(name, language, template)
	}
	if mutation.On("playground-variable-any-name-accepted") && len(vars) == 1 {
		vars = []string{"code"}
	}
	if !slices.Contains(vars, "code") {
		return 0, apierr.BadRequest(`Missing the required variable "code" in the URL template`)
	}
	if mutation.On("playground-extra-variable-accepted") {
		vars = vars[:1]
	}
	if len(vars) != 1 {
		return 0, apierr.BadRequest(`"code" should be the only variable present in the URL template`)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if slices.ContainsFunc(s.playgrounds, func(p *Playground) bool { return p.Name == name && p.PygmentsLanguage == language }) {
		return 0, apierr.BadRequest("Realm playground with this Realm, Pygments language and Name already exists.")
	}
	p := &Playground{ID: nextID(&s.nextPlayground), Name: name, PygmentsLanguage: language, URLTemplate: template}
	if mutation.On("playground-language-of-name") {
		p.PygmentsLanguage = name
	}
	s.playgrounds = append(s.playgrounds, p)
	s.publishRealmList("realm_playgrounds", s.playgroundList())
	if mutation.On("playground-id-of-next") {
		return p.ID + 1, nil
	}
	return p.ID, nil
}

// RemovePlayground deletes a playground (DELETE /realm/playgrounds/{id}).
func (s *OrganizationState) RemovePlayground(id int) error {
	return removeFromRealmList(s, &s.playgrounds, func(p *Playground) bool { return p.ID == id },
		apierr.BadRequest("Invalid playground"), "realm_playgrounds", s.playgroundList)
}

// Playgrounds returns the realm's playgrounds in creation order.
func (s *OrganizationState) Playgrounds() []any {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.playgroundList()
}

// playgroundList gives the playgrounds in creation order, in the form of the realm's level
// (the real server's changelog): below 196 with a url_prefix, the URL before the code.
func (s *OrganizationState) playgroundList() []any {
	out := make([]any, len(s.playgrounds))
	for i, p := range s.playgrounds {
		if s.atLeast(LevelPlaygroundTemplate) {
			out[i] = *p
			continue
		}
		out[i] = map[string]any{"id": p.ID, "name": p.Name, "pygments_language": p.PygmentsLanguage,
			"url_prefix": strings.TrimSuffix(p.URLTemplate, "{code}")}
	}
	return out
}
