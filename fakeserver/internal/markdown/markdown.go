// Package markdown renders message content to HTML with goldmark, a CommonMark-compliant
// library, so the fake's HTML is real Markdown output rather than a hand-written imitation.
// Raw HTML in messages is escaped, as the real server escapes it.
package markdown

import (
	"bytes"
	"html"
	"strings"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
)

var renderer = goldmark.New(goldmark.WithExtensions(extension.Strikethrough, extension.Linkify, extension.Table))

// Render returns the HTML of Markdown source, without a trailing newline.
func Render(source string) string {
	var buf bytes.Buffer
	if err := renderer.Convert([]byte(source), &buf); err != nil {
		// goldmark fails only on writer errors, which a bytes.Buffer never returns.
		return "<p>" + html.EscapeString(strings.TrimSpace(source)) + "</p>"
	}
	return strings.TrimRight(buf.String(), "\n")
}
