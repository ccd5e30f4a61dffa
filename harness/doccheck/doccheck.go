// Package doccheck reads the repository's Markdown documents for the tests that keep them
// true: the code blocks the tests run, and the links and commands they check.
package doccheck

import (
	"fmt"
	"os"
	"regexp"
)

// Snippet returns the code block of a document between <!-- snippet:<name>:begin --> and
// <!-- snippet:<name>:end -->, without its fence.
func Snippet(document, name string) (string, error) {
	text, err := os.ReadFile(document)
	if err != nil {
		return "", err
	}
	m := regexp.MustCompile("(?s)<!-- snippet:" + regexp.QuoteMeta(name) + ":begin -->\\n```[a-z]*\\n(.*?)```\\n<!-- snippet:" + regexp.QuoteMeta(name) + ":end -->").FindSubmatch(text)
	if m == nil {
		return "", fmt.Errorf("%s has no %s snippet", document, name)
	}
	return string(m[1]), nil
}

// linkPattern matches a Markdown link's target: [text](target).
var linkPattern = regexp.MustCompile(`\]\(([^)\s]+)\)`)

// Links returns the targets of a document's Markdown links, in order.
func Links(text string) []string {
	var out []string
	for _, m := range linkPattern.FindAllStringSubmatch(text, -1) {
		out = append(out, m[1])
	}
	return out
}

// CodeBlocks returns the fenced code blocks of a document, without their fences.
func CodeBlocks(text string) []string {
	var out []string
	for _, m := range regexp.MustCompile("(?s)```[a-z]*\\n(.*?)```").FindAllStringSubmatch(text, -1) {
		out = append(out, m[1])
	}
	return out
}
