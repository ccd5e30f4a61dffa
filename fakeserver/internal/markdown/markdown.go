// Package markdown renders message content to HTML with goldmark, a CommonMark-compliant
// library, so the fake's HTML is real Markdown output rather than a hand-written imitation.
// Raw HTML in messages is escaped, as the real server escapes it.
//
// On top of CommonMark it knows the chat syntax the API's rules depend on: user mentions
// (@**Full Name**, @**Full Name|id**, silent @_**Full Name**) and wildcard mentions
// (@**all**, @**everyone**, @**channel**, @**stream** for the whole channel, @**topic** for
// the topic's participants), rendered with the real server's markup and reported in Result
// so that the domain can set the mention flags, and emoji (:name:) where the caller resolves
// their names (Emoji).
package markdown

import (
	"bytes"
	"html"
	"reflect"
	"slices"
	"strings"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/util"
)

var mdRenderer = goldmark.New(
	goldmark.WithParser(parserWithoutRawHTML()),
	goldmark.WithExtensions(extension.Strikethrough, extension.Linkify, extension.Table),
	goldmark.WithParserOptions(parser.WithInlineParsers(util.Prioritized(mentionParser{}, 50), util.Prioritized(emojiParser{}, 50))),
	goldmark.WithRendererOptions(renderer.WithNodeRenderers(util.Prioritized(chatRenderer{}, 50))),
)

// parserWithoutRawHTML is goldmark's CommonMark parser without its raw HTML parsers: an HTML
// tag or block in a message is then plain text, which the renderer escapes, so a message
// shows "<b>" as the real server does, where CommonMark would pass it through or (goldmark's
// safe default) drop it.
func parserWithoutRawHTML() parser.Parser {
	htmlBlock, rawHTML := reflect.TypeOf(parser.NewHTMLBlockParser()), reflect.TypeOf(parser.NewRawHTMLParser())
	blocks := slices.DeleteFunc(parser.DefaultBlockParsers(), func(p util.PrioritizedValue) bool {
		return reflect.TypeOf(p.Value) == htmlBlock
	})
	inlines := slices.DeleteFunc(parser.DefaultInlineParsers(), func(p util.PrioritizedValue) bool {
		return reflect.TypeOf(p.Value) == rawHTML
	})
	return parser.NewParser(parser.WithBlockParsers(blocks...), parser.WithInlineParsers(inlines...),
		parser.WithParagraphTransformers(parser.DefaultParagraphTransformers()...))
}

// Users resolves the names of user mentions to active users of the realm.
type Users interface {
	// MentionUser finds the user a mention names: by ID when id > 0 (the name must then
	// match too, case-insensitively), else by full name. It returns the user's ID and name.
	MentionUser(name string, id int) (userID int, fullName string, ok bool)
}

// Result is rendered content and the mentions it holds. Silent mentions are rendered but
// not reported: they notify nobody.
type Result struct {
	HTML string
	// MentionedUserIDs are the users mentioned by name, sorted, without repeats.
	MentionedUserIDs []int
	// StreamWildcard is set by @**all**, @**everyone**, @**channel** or @**stream**.
	StreamWildcard bool
	// TopicWildcard is set by @**topic**.
	TopicWildcard bool
}

// Render returns the HTML of Markdown source, without a trailing newline. User mentions are
// left as text (there is no one to resolve them against); wildcard mentions are rendered.
func Render(source string) string { return RenderMessage(source, nil).HTML }

// RenderMessage renders message content, resolving user mentions with users (nil: none).
func RenderMessage(source string, users Users) Result {
	if isPlainText(source) {
		return Result{HTML: "<p>" + source + "</p>"}
	}
	found := &mentions{users: users}
	ctx := parser.NewContext()
	ctx.Set(mentionsKey, found)
	var buf bytes.Buffer
	if err := mdRenderer.Convert([]byte(source), &buf, parser.WithContext(ctx)); err != nil {
		// goldmark fails only on writer errors, which a bytes.Buffer never returns.
		return Result{HTML: "<p>" + html.EscapeString(strings.TrimSpace(source)) + "</p>"}
	}
	ids := slices.Clone(found.userIDs)
	slices.Sort(ids)
	return Result{
		HTML: strings.TrimRight(buf.String(), "\n"), MentionedUserIDs: slices.Compact(ids),
		StreamWildcard: found.stream, TopicWildcard: found.topic,
	}
}

// isPlainText reports whether source is one line of words that no Markdown, chat or linkify
// syntax can touch: ASCII letters and digits, single spaces between them, commas and question
// marks. Its HTML is then the paragraph around it, with nothing to escape; such messages skip
// the parser, which costs a sending request as much as the rest of it.
func isPlainText(source string) bool {
	if source == "" || source[0] == ' ' || source[len(source)-1] == ' ' {
		return false
	}
	for i := 0; i < len(source); i++ {
		switch c := source[i]; {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9', c == ',', c == '?':
		case c == ' ' && source[i-1] != ' ':
		default:
			return false
		}
	}
	return true
}
