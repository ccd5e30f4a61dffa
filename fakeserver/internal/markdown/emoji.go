package markdown

import (
	"regexp"
	"strings"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// Emoji resolves :name: syntax. The Users given to RenderMessage may implement it; without it
// emoji syntax stays text.
type Emoji interface {
	// Emoji finds the emoji a name stands for: an image (custom emoji, the extra emoji) by its
	// URL, or a unicode emoji by its code.
	Emoji(name string) (imageURL, code string, ok bool)
}

// emojiSyntax is the real server's :name: (word characters, dashes and pluses).
var emojiSyntax = regexp.MustCompile(`^:[\w\-+]+:`)

var kindEmoji = ast.NewNodeKind("Emoji")

// emojiNode is a resolved emoji: an image when imageURL is set, else a unicode emoji.
type emojiNode struct {
	ast.BaseInline
	name, imageURL, code string
}

// Kind implements ast.Node.
func (n *emojiNode) Kind() ast.NodeKind { return kindEmoji }

// Dump implements ast.Node, for debugging.
func (n *emojiNode) Dump(source []byte, level int) {
	ast.DumpHelper(n, source, level, map[string]string{"name": n.name, "code": n.code, "url": n.imageURL}, nil)
}

// emojiParser turns emoji syntax into emoji nodes; a name that stands for no emoji stays text.
type emojiParser struct{}

// Trigger implements parser.InlineParser: emoji start with a colon.
func (emojiParser) Trigger() []byte { return []byte{':'} }

// Parse implements parser.InlineParser.
func (emojiParser) Parse(_ ast.Node, block text.Reader, pc parser.Context) ast.Node {
	found, _ := pc.Get(mentionsKey).(*mentions)
	if found == nil {
		return nil
	}
	emoji, ok := found.users.(Emoji)
	if !ok {
		return nil
	}
	line, _ := block.PeekLine()
	m := emojiSyntax.Find(line)
	if m == nil {
		return nil
	}
	name := string(m[1 : len(m)-1])
	imageURL, code, ok := emoji.Emoji(name)
	if !ok {
		return nil
	}
	block.Advance(len(m))
	return &emojiNode{name: name, imageURL: imageURL, code: code}
}

// renderEmoji writes an emoji with the real server's markup, attributes in its (sorted) order.
func renderEmoji(w util.BufWriter, _ []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkContinue, nil
	}
	n := node.(*emojiNode)
	syntax := util.EscapeHTML([]byte(":" + n.name + ":"))
	title := util.EscapeHTML([]byte(strings.ReplaceAll(n.name, "_", " ")))
	if n.imageURL != "" {
		_, _ = w.WriteString(`<img alt="` + string(syntax) + `" class="emoji" src="` + string(util.EscapeHTML([]byte(n.imageURL))) + `" title="` + string(title) + `">`)
		return ast.WalkSkipChildren, nil
	}
	_, _ = w.WriteString(`<span aria-label="` + string(title) + `" class="emoji emoji-` + n.code + `" role="img" title="` + string(title) + `">` + string(syntax) + `</span>`)
	return ast.WalkSkipChildren, nil
}
