package realm

import (
	"regexp"
	"slices"
	"strings"

	"github.com/chatconform/chatconform/fakeserver/internal/apierr"
)

// HistoryEntry is one version of a message in GET /messages/{id}/history: the original first,
// then one per edit or move, each with the content and topic the message had after it.
type HistoryEntry struct {
	UserID              int     `json:"user_id"`
	Timestamp           int64   `json:"timestamp"`
	Topic               string  `json:"topic"`
	Content             string  `json:"content"`
	RenderedContent     string  `json:"rendered_content"`
	PrevTopic           *string `json:"prev_topic,omitempty"`
	PrevContent         *string `json:"prev_content,omitempty"`
	PrevRenderedContent *string `json:"prev_rendered_content,omitempty"`
	ContentHTMLDiff     *string `json:"content_html_diff,omitempty"`
	PrevStream          int     `json:"prev_stream,omitempty"`
	Stream              int     `json:"stream,omitempty"`
}

// MessageHistory implements GET /messages/{id}/history, as the real server rebuilds it from
// the stored edits, newest back to the original. Under the "moves" visibility policy content
// edits are left out and every version shows the current content.
func (s *MessageState) MessageHistory(userID, messageID int, allowEmptyTopic bool) ([]HistoryEntry, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	policy := s.org.editing.EditHistoryVisibility
	if policy == "none" {
		return nil, apierr.BadRequest("Message edit history is disabled in this organization")
	}
	m, err := s.accessibleMessage(s.accts.users[userID], messageID)
	if err != nil {
		return nil, err
	}
	// Direct messages have no topic: theirs stays empty.
	opts := ViewOptions{AllowEmptyTopicName: allowEmptyTopic || m.IsDirect}
	content, rendered, topic := m.Content, m.Rendered, m.Topic
	var out []HistoryEntry
	for _, e := range slices.Backward(m.EditHistory) {
		if policy == "moves" && !e.isMove() {
			continue
		}
		entry := HistoryEntry{UserID: e.UserID, Timestamp: e.Timestamp, Topic: s.shownTopic(topic, opts), Content: content, RenderedContent: rendered}
		if e.PrevTopic != nil {
			topic = *e.PrevTopic
			prev := s.shownTopic(topic, opts)
			entry.PrevTopic = &prev
		}
		if e.PrevContent != nil && policy == "all" {
			diff := htmlDiff(*e.PrevRendered, rendered)
			entry.PrevContent, entry.PrevRenderedContent, entry.ContentHTMLDiff = e.PrevContent, e.PrevRendered, &diff
			content, rendered = *e.PrevContent, *e.PrevRendered
		}
		if e.PrevStream != 0 {
			entry.PrevStream, entry.Stream = e.PrevStream, e.Stream
		}
		out = append(out, entry)
	}
	out = append(out, HistoryEntry{UserID: m.SenderID, Timestamp: m.Timestamp, Topic: s.shownTopic(topic, opts), Content: content, RenderedContent: rendered})
	slices.Reverse(out)
	return out, nil
}

var htmlToken = regexp.MustCompile(`<[^>]*>|[^<]+`)

// htmlDiff marks what changed from old to new HTML the way the real server's diff does:
// removed text in a highlight_text_deleted span, added text in a highlight_text_inserted
// span, tags left whole. Text is compared chunk by chunk between tags when both versions have
// the same tags, else the new version's text is all marked inserted after the old text
// marked deleted.
func htmlDiff(old, new string) string {
	a, b := htmlToken.FindAllString(old, -1), htmlToken.FindAllString(new, -1)
	isTag := func(t string) bool { return strings.HasPrefix(t, "<") }
	sameTags := len(a) == len(b)
	for i := 0; sameTags && i < len(a); i++ {
		sameTags = isTag(a[i]) == isTag(b[i]) && (!isTag(a[i]) || a[i] == b[i])
	}
	var out strings.Builder
	if !sameTags {
		out.WriteString(`<span class="highlight_text_deleted">` + textOf(a) + `</span>`)
		for _, t := range b {
			if isTag(t) {
				out.WriteString(t)
			} else {
				out.WriteString(`<span class="highlight_text_inserted">` + t + `</span>`)
			}
		}
		return out.String()
	}
	for i := range b {
		if isTag(b[i]) || a[i] == b[i] {
			out.WriteString(b[i])
			continue
		}
		x, y := []rune(a[i]), []rune(b[i])
		p := 0
		for p < len(x) && p < len(y) && x[p] == y[p] {
			p++
		}
		q := 0
		for q < len(x)-p && q < len(y)-p && x[len(x)-1-q] == y[len(y)-1-q] {
			q++
		}
		out.WriteString(string(y[:p]))
		if removed := string(x[p : len(x)-q]); removed != "" {
			out.WriteString(`<span class="highlight_text_deleted">` + removed + `</span>`)
		}
		if added := string(y[p : len(y)-q]); added != "" {
			out.WriteString(`<span class="highlight_text_inserted">` + added + `</span>`)
		}
		out.WriteString(string(y[len(y)-q:]))
	}
	return out.String()
}

// textOf joins the text chunks of a tokenised HTML fragment.
func textOf(tokens []string) string {
	var b strings.Builder
	for _, t := range tokens {
		if !strings.HasPrefix(t, "<") {
			b.WriteString(t)
		}
	}
	return b.String()
}
