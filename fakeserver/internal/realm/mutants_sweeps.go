package realm

import (
	"html"
	"strings"

	"github.com/chatconform/chatconform/fakeserver/internal/mutation"
)

// Helpers of the class sweeps' mutation points (docs/mutation-sweeps.md).

// inlineHTML is rendered content without the paragraph around it: the HTML of a renderer
// that renders only inline markup.
func inlineHTML(rendered string) *string {
	inline := strings.TrimSuffix(strings.TrimPrefix(rendered, "<p>"), "</p>")
	return &inline
}

// otherReferences is the variant's serialization of HTML: every character reference the
// renderers write replaced by another one for the same character, and apostrophes written
// as one. The same HTML, other bytes.
var otherReferences = strings.NewReplacer(
	"&amp;", "&#38;", "&lt;", "&#x3c;", "&gt;", "&#62;", "&quot;", "&#34;", "&#34;", "&quot;",
	"&#39;", "&apos;", "'", "&#x27;",
)

// serializedHTML is rendered HTML as the fake writes it: as rendered, or under the variant
// with other character references.
func serializedHTML(rendered string) string {
	if mutation.On("variant-html-character-references") {
		return otherReferences.Replace(rendered)
	}
	return rendered
}

// escapedTopic is a topic as text in HTML (match_subject).
func escapedTopic(topic string) string { return serializedHTML(html.EscapeString(topic)) }

// avatarAlwaysGiven: the variant that gives a message's avatar_url even where the client
// could compute it (the document makes null only a possibility: "null only when").
func avatarAlwaysGiven() bool { return mutation.On("variant-message-avatar-always-given") }
