package ops

import (
	"regexp"
	"slices"
	"strings"

	"github.com/onsi/gomega"
	"github.com/onsi/gomega/types"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// The document says content is HTML and shows no serialization of it: a character may be
// written as itself or as any of its character references (', &#39;, &apos;), attributes in
// any order and quoting. Specs that look at rendered content therefore read it parsed, so that
// a right server's serialization never fails them and a server with other markup still does.

// parseHTML parses s as the contents of a <div>, as the HTML of a message is.
func parseHTML(s string) []*html.Node {
	context := &html.Node{Type: html.ElementNode, Data: "div", DataAtom: atom.Div}
	nodes, err := html.ParseFragment(strings.NewReader(s), context)
	if err != nil { // the parser reports only reader errors, which a strings.Reader never has
		panic(err)
	}
	return nodes
}

// CanonicalHTML is s parsed and written back in one form: text with only &, < and >
// escaped, adjacent text joined, attributes sorted by name and double-quoted, comments left
// out. Two serializations of the same HTML have the same canonical form.
func CanonicalHTML(s string) string {
	var b strings.Builder
	var write func(n *html.Node)
	write = func(n *html.Node) {
		switch n.Type {
		case html.TextNode:
			b.WriteString(escapeText(n.Data))
		case html.ElementNode:
			b.WriteString("<" + n.Data)
			attrs := slices.Clone(n.Attr)
			slices.SortFunc(attrs, func(a, b html.Attribute) int { return strings.Compare(a.Key, b.Key) })
			for _, a := range attrs {
				b.WriteString(" " + a.Key + `="` + strings.ReplaceAll(escapeText(a.Val), `"`, "&quot;") + `"`)
			}
			b.WriteString(">")
			for c := n.FirstChild; c != nil; c = c.NextSibling {
				write(c)
			}
			b.WriteString("</" + n.Data + ">")
		}
	}
	for _, n := range parseHTML(s) {
		write(n)
	}
	return b.String()
}

func escapeText(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;").Replace(s)
}

// EqualHTML matches HTML that is the same HTML as want: the same elements with the same
// attributes and the same text, however each is serialized.
func EqualHTML(want string) types.GomegaMatcher {
	return gomega.WithTransform(CanonicalHTML, gomega.Equal(CanonicalHTML(want)))
}

// HTMLText is the text of s parsed as HTML, character references decoded.
func HTMLText(s string) string {
	var b strings.Builder
	for _, n := range parseHTML(s) {
		writeText(&b, n)
	}
	return b.String()
}

// writeText writes the text of n and its descendants to b.
func writeText(b *strings.Builder, n *html.Node) {
	if n.Type == html.TextNode {
		b.WriteString(n.Data)
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		writeText(b, c)
	}
}

// HTMLElement is one element of parsed HTML: its name, attributes (values decoded) and text.
type HTMLElement struct {
	Tag   string
	Attrs map[string]string
	Text  string
}

// HTMLElements are the elements named tag in s ("" for every element), in document order.
func HTMLElements(s, tag string) []HTMLElement {
	var found []HTMLElement
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode && (tag == "" || n.Data == tag) {
			e := HTMLElement{Tag: n.Data, Attrs: map[string]string{}}
			for _, a := range n.Attr {
				e.Attrs[a.Key] = a.Val
			}
			var text strings.Builder
			writeText(&text, n)
			e.Text = text.String()
			found = append(found, e)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	for _, n := range parseHTML(s) {
		walk(n)
	}
	return found
}

// HTMLElementsWith are the elements named tag in s ("" for every element) whose attribute attr is value.
func HTMLElementsWith(s, tag, attr, value string) []HTMLElement {
	return slices.DeleteFunc(HTMLElements(s, tag), func(e HTMLElement) bool { return e.Attrs[attr] != value })
}

// HTMLElementTexts are the texts of the elements named tag in s, in document order.
func HTMLElementTexts(s, tag string) []string {
	var texts []string
	for _, e := range HTMLElements(s, tag) {
		texts = append(texts, e.Text)
	}
	return texts
}

// characterReference is one character reference, named, decimal or hexadecimal.
var characterReference = regexp.MustCompile(`^&(?:[A-Za-z][A-Za-z0-9]*|#[0-9]+|#[xX][0-9A-Fa-f]+);`)

// AmpersandsEscaped reports whether every & of s begins a character reference: an & of the
// text is written as one (&amp;, &#38;, &#x26;), never bare.
func AmpersandsEscaped(s string) bool {
	for i := strings.IndexByte(s, '&'); i >= 0; i = strings.IndexByte(s, '&') {
		if !characterReference.MatchString(s[i:]) {
			return false
		}
		s = s[i+1:]
	}
	return true
}
