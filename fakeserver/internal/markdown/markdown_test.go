package markdown

import (
	"bytes"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// fakeUsers knows Max Member (4 and, with the same name, 7) and Ada (9).
type fakeUsers struct{}

func (fakeUsers) MentionUser(name string, id int) (int, string, bool) {
	users := map[int]string{4: "Max Member", 7: "Max Member", 9: "Ada <Lovelace>"}
	if id > 0 {
		full, ok := users[id]
		return id, full, ok && strings.EqualFold(full, name)
	}
	for _, uid := range []int{4, 9} {
		if strings.EqualFold(users[uid], name) {
			return uid, users[uid], true
		}
	}
	return 0, "", false
}

// Emoji knows the custom emoji party_time and the unicode emoji tada.
func (fakeUsers) Emoji(name string) (string, string, bool) {
	switch name {
	case "party_time":
		return "/emoji/1.png", "", true
	case "tada":
		return "", "1f389", true
	}
	return "", "", false
}

func TestRenderMessage(t *testing.T) {
	for _, tc := range []struct {
		name, source string
		html         []string // substrings the HTML must hold
		notHTML      []string
		ids          []int
		stream       bool
		topic        bool
	}{
		{name: "plain Markdown", source: "**bold**", html: []string{"<p><strong>bold</strong></p>"}},
		{name: "inline raw HTML shown as text", source: "a <b>raw</b> tag", html: []string{"<p>a &lt;b&gt;raw&lt;/b&gt; tag</p>"}, notHTML: []string{"<b>", "omitted"}},
		{name: "an HTML block shown as text", source: "<div>\n<script>alert(1)</script>\n</div>", html: []string{"&lt;script&gt;alert(1)&lt;/script&gt;"}, notHTML: []string{"<script>", "<div>", "omitted"}},
		{name: "autolinks still links", source: "<https://example.test/a>", html: []string{`<a href="https://example.test/a">`}},
		{name: "user mention", source: "hi @**Max Member**", html: []string{`<span class="user-mention" data-user-id="4">@Max Member</span>`}, ids: []int{4}},
		{name: "mention by name and id", source: "@**Max Member|7**", html: []string{`data-user-id="7"`}, ids: []int{7}},
		{name: "case-insensitive name", source: "@**max member**", html: []string{`>@Max Member<`}, ids: []int{4}},
		{name: "silent mention notifies nobody", source: "@_**Max Member**", html: []string{`<span class="user-mention silent" data-user-id="4">Max Member</span>`}},
		{name: "unknown user stays text", source: "@**Nobody Here**", notHTML: []string{"user-mention"}},
		{name: "bad id stays text", source: "@**Max Member|x**", notHTML: []string{"user-mention"}},
		{name: "name is escaped", source: "@**Ada <Lovelace>**", html: []string{"@Ada &lt;Lovelace&gt;</span>"}, ids: []int{9}},
		{name: "all", source: "@**all** look", html: []string{`<span class="user-mention channel-wildcard-mention" data-user-id="*">@all</span>`}, stream: true},
		{name: "everyone", source: "@**everyone**", stream: true},
		{name: "channel", source: "@**channel**", stream: true},
		{name: "stream", source: "@**stream**", stream: true},
		{name: "topic", source: "@**topic**", html: []string{`<span class="topic-mention">@topic</span>`}, topic: true},
		{name: "silent wildcard", source: "@_**all**", html: []string{"channel-wildcard-mention silent"}},
		{name: "in code span it is text", source: "`@**all**`", html: []string{"<code>@**all**</code>"}},
		{name: "in a code block it is text", source: "```\n@**topic**\n```", notHTML: []string{"topic-mention"}},
		{name: "custom emoji", source: "a:party_time:b", html: []string{`<p>a<img alt=":party_time:" class="emoji" src="/emoji/1.png" title="party time">b</p>`}},
		{name: "unicode emoji", source: ":tada:", html: []string{`<p><span aria-label="tada" class="emoji emoji-1f389" role="img" title="tada">:tada:</span></p>`}},
		{name: "unknown emoji stays text", source: ":nope: :tada", html: []string{"<p>:nope: :tada</p>"}},
		{name: "emoji in code span is text", source: "`:tada:`", html: []string{"<code>:tada:</code>"}},
		{name: "two emoji in a row", source: ":tada::tada:", html: []string{`:tada:</span><span aria-label="tada"`}},
		{name: "two mentions, one repeated", source: "@**Max Member** and @**Max Member** and @**topic**", ids: []int{4}, topic: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := RenderMessage(tc.source, fakeUsers{})
			for _, want := range tc.html {
				if !strings.Contains(got.HTML, want) {
					t.Errorf("HTML %q lacks %q", got.HTML, want)
				}
			}
			for _, bad := range tc.notHTML {
				if strings.Contains(got.HTML, bad) {
					t.Errorf("HTML %q holds %q", got.HTML, bad)
				}
			}
			if !slices.Equal(got.MentionedUserIDs, tc.ids) && (len(got.MentionedUserIDs) > 0 || len(tc.ids) > 0) {
				t.Errorf("mentioned %v, want %v", got.MentionedUserIDs, tc.ids)
			}
			if got.StreamWildcard != tc.stream || got.TopicWildcard != tc.topic {
				t.Errorf("wildcards stream=%v topic=%v, want %v %v", got.StreamWildcard, got.TopicWildcard, tc.stream, tc.topic)
			}
		})
	}
}

func TestRenderWithoutUsers(t *testing.T) {
	if got := Render("@**Max Member** @**all**"); strings.Contains(got, `data-user-id="4"`) || !strings.Contains(got, "channel-wildcard-mention") {
		t.Errorf("Render without users: %q", got)
	}
	if got := Render("a\n\n"); got != "<p>a</p>" {
		t.Errorf("trailing newline kept: %q", got)
	}
}

// TestPlainTextRendersAsTheParserDoes: text that skips the parser (isPlainText) gets the HTML the
// parser gives it, and text one character away from plain still goes through the parser.
func TestPlainTextRendersAsTheParserDoes(t *testing.T) {
	parsed := func(source string) string {
		t.Helper()
		var buf bytes.Buffer
		if err := mdRenderer.Convert([]byte(source), &buf); err != nil {
			t.Fatal(err)
		}
		return strings.TrimRight(buf.String(), "\n")
	}
	alphabet := "abcxyzABCXYZ0189,? "
	rng := rand.New(rand.NewPCG(1, 2))
	plain := []string{"x", "hello", strings.Repeat("x", 100), "1", "1, 2, 3", "why?", "a,b", "WWW", "http", "Hello world 42"}
	for range 2000 {
		b := make([]byte, 1+rng.IntN(40))
		for i := range b {
			b[i] = alphabet[rng.IntN(len(alphabet))]
		}
		plain = append(plain, string(b))
	}
	fast := 0
	for _, source := range plain {
		if !isPlainText(source) {
			continue
		}
		fast++
		if got, want := RenderMessage(source, nil).HTML, parsed(source); got != want {
			t.Errorf("%q: fast path %q, parser %q", source, got, want)
		}
	}
	if fast < 1000 {
		t.Errorf("only %d of %d sources took the fast path", fast, len(plain))
	}
	for _, source := range []string{"", " x", "x ", "a  b", "a\nb", "1. x", "1) x", "- x", "# x", "> x", "x*", "_x_", "~x~",
		"`x`", "a|b", "a&b", "a<b", "@x", ":smile:", "www.x", "http://x", "a.b", "a\tb", "é", "x!", "[x]", "a\\b", `"x"`} {
		if isPlainText(source) {
			t.Errorf("%q skips the parser", source)
		}
	}
}
