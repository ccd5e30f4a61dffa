package realm

import (
	"encoding/json"
	"fmt"
	"html"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/chatconform/chatconform/fakeserver/internal/apierr"
)

// NarrowTerm is one term of a narrow: operator, operand and whether it is negated.
type NarrowTerm struct {
	Operator string
	Operand  any // string, json.Number or []any, as decoded
	Negated  bool
}

// narrowOperators are the operators the fake knows, with their aliases.
var narrowOperators = map[string]string{
	"channel": "channel", "stream": "channel", "channels": "channels", "streams": "channels",
	"topic": "topic", "subject": "topic", "sender": "sender", "search": "search", "is": "is", "has": "has",
	"dm": "dm", "pm-with": "dm", "dm-including": "dm-including", "group-pm-with": "dm-including",
	"id": "id", "near": "near", "with": "with",
}

// narrowOperatorLevels are the levels from which the real server knows an operator name, and
// narrowOperandLevels an is or has operand (its changelog); the others it has known since
// before the oldest level the fake serves.
var (
	narrowOperatorLevels = map[string]int{
		"channel": LevelChannelOperators, "channels": LevelChannelOperators,
		"dm": LevelDMOperators, "dm-including": LevelDMOperators, "with": LevelWithOperator,
	}
	narrowOperandLevels = map[string]int{"is:dm": LevelDMOperators, "has:reaction": LevelHasReaction}
)

// badNarrow is the real server's error for a narrow it cannot apply; desc, the reason,
// is also a field of its own, which typed clients read.
func badNarrow(format string, args ...any) error {
	desc := fmt.Sprintf(format, args...)
	return apierr.Of(apierr.KindInvalid, "BAD_NARROW", "Invalid narrow operator: %s", desc).With("desc", desc)
}

// ParseNarrow decodes a narrow (a decoded JSON list): each term an object with operator,
// operand and optional negated, or the legacy [operator, operand] pair, as a server of the
// given feature level reads it.
func ParseNarrow(raw []any, level int) ([]NarrowTerm, error) {
	terms := make([]NarrowTerm, 0, len(raw))
	for i, item := range raw {
		var t NarrowTerm
		switch v := item.(type) {
		case map[string]any:
			op, ok := v["operator"].(string)
			if !ok {
				return nil, apierr.BadRequest(`narrow[%d]["operator"] is not a string`, i)
			}
			operand, given := v["operand"]
			if !given {
				return nil, apierr.BadRequest(`narrow[%d]["operand"] is missing`, i)
			}
			t = NarrowTerm{Operator: op, Operand: operand}
			if neg, given := v["negated"]; given {
				b, ok := neg.(bool)
				if !ok {
					return nil, apierr.BadRequest(`narrow[%d]["negated"] is not a boolean`, i)
				}
				t.Negated = b
			}
		case []any:
			if len(v) != 2 {
				return nil, apierr.BadRequest("narrow[%d] is not a valid narrow term", i)
			}
			op, ok := v[0].(string)
			if !ok {
				return nil, apierr.BadRequest("narrow[%d][0] is not a string", i)
			}
			t = NarrowTerm{Operator: op, Operand: v[1]}
		default:
			return nil, apierr.BadRequest("narrow[%d] is not a dict", i)
		}
		name := strings.ToLower(t.Operator)
		canonical, known := narrowOperators[name]
		if !known || level < narrowOperatorLevels[name] {
			return nil, badNarrow("unknown operator")
		}
		t.Operator = canonical
		switch t.Operand.(type) {
		case json.Number:
			if t.Operator == "id" && level < LevelIntegerMessageOperand {
				return nil, apierr.BadRequest(`narrow[%d]["operand"] is not a string`, i)
			}
		case string:
		case []any:
			if t.Operator != "dm" {
				return nil, apierr.BadRequest(`narrow[%d]["operand"] is not a string`, i)
			}
		default:
			return nil, apierr.BadRequest(`narrow[%d]["operand"] is not a string`, i)
		}
		terms = append(terms, t)
	}
	return terms, nil
}

// narrowFilter is a narrow resolved against the realm for one user.
type narrowFilter struct {
	s       *MessageState
	viewer  *User
	checks  []func(*Message) bool
	search  []string // lower-cased search words
	inChans bool     // a positive channel term: history beyond the user's rows counts
	// Positive channel, topic, dm, sender and is:unread terms choose the smallest list of the
	// message index that holds every message that can match (narrowSource).
	channelID int
	topic     *string
	senderID  int
	unread    bool
	direct    *string // the participants of a positive dm term (joinInts)
}

func operandString(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case json.Number:
		return x.String()
	}
	return ""
}

// compileNarrow resolves a narrow's names and IDs (under the lock).
func (s *MessageState) compileNarrow(viewer *User, terms []NarrowTerm) (*narrowFilter, error) {
	f := &narrowFilter{s: s, viewer: viewer}
	for _, t := range terms {
		check, err := s.narrowCheck(f, viewer, t)
		if err != nil {
			return nil, err
		}
		if check == nil {
			continue
		}
		if t.Negated {
			positive := check
			check = func(m *Message) bool { return !positive(m) }
		}
		f.checks = append(f.checks, check)
	}
	return f, nil
}

func (s *MessageState) narrowCheck(f *narrowFilter, viewer *User, t NarrowTerm) (func(*Message) bool, error) {
	operand := strings.TrimSpace(operandString(t.Operand))
	if !s.atLeast(narrowOperandLevels[t.Operator+":"+operand]) {
		return nil, badNarrow("unknown '%s' operand %s", t.Operator, operand)
	}
	switch t.Operator {
	case "channel":
		ch := s.chans.channelsByName[strings.ToLower(operand)]
		if id, ok := atoi(operand); ok {
			ch = s.chans.channels[id]
		}
		if ch == nil || !ch.canAccess(viewer) {
			return nil, badNarrow("unknown channel %s", operand)
		}
		if !t.Negated {
			f.inChans = true
			f.channelID = ch.ID
		}
		return func(m *Message) bool { return !m.IsDirect && m.ChannelID == ch.ID }, nil
	case "channels":
		if operand != "public" && operand != "web-public" {
			return nil, badNarrow("unknown 'channels' operand %s", operand)
		}
		return func(m *Message) bool {
			ch := s.chans.channels[m.ChannelID]
			return !m.IsDirect && ch != nil && !ch.InviteOnly
		}, nil
	case "topic":
		topic := operand
		if topic == s.settings.EmptyTopicDisplayName {
			topic = ""
		}
		if !t.Negated {
			f.topic = &topic
		}
		return func(m *Message) bool { return !m.IsDirect && strings.EqualFold(m.Topic, topic) }, nil
	case "sender":
		id, ok := s.userRef(viewer, operand)
		if !ok {
			return nil, badNarrow("unknown user %s", operand)
		}
		if !t.Negated {
			f.senderID = id
		}
		return func(m *Message) bool { return m.SenderID == id }, nil
	case "search":
		f.search = append(f.search, searchWords(operand)...)
		words := searchWords(operand)
		return func(m *Message) bool { return matchesWords(m, words) }, nil
	case "is":
		if operand == "unread" && !t.Negated {
			f.unread = true
		}
		return s.isCheck(viewer, operand)
	case "has":
		return hasCheck(operand)
	case "dm":
		ids, err := s.userRefs(viewer, t.Operand)
		if err != nil {
			return nil, err
		}
		want := append(ids, viewer.ID)
		slices.Sort(want)
		want = slices.Compact(want)
		if !t.Negated {
			key := joinInts(want)
			f.direct = &key
		}
		return func(m *Message) bool { return m.IsDirect && slices.Equal(m.Participants, want) }, nil
	case "dm-including":
		id, ok := s.userRef(viewer, operand)
		if !ok {
			return nil, badNarrow("unknown user %s", operand)
		}
		return func(m *Message) bool { return m.IsDirect && slices.Contains(m.Participants, id) }, nil
	case "id":
		id, err := strconv.Atoi(operand)
		if err != nil {
			return nil, badNarrow("invalid message ID %s", operand)
		}
		return func(m *Message) bool { return m.ID == id }, nil
	}
	// near and with choose where a view starts, not what matches.
	return nil, nil
}

// userRef resolves a user by ID or by an email the viewer may know (userByEmail).
func (s *MessageState) userRef(viewer *User, operand string) (int, bool) {
	if id, err := strconv.Atoi(operand); err == nil {
		u := s.accts.users[id]
		return id, u != nil
	}
	if u := s.accts.userByEmail(viewer, operand); u != nil {
		return u.ID, true
	}
	return 0, false
}

// userRefs resolves a dm operand: a list of IDs, or emails separated by commas.
func (s *MessageState) userRefs(viewer *User, operand any) ([]int, error) {
	var refs []string
	switch v := operand.(type) {
	case []any:
		for _, item := range v {
			refs = append(refs, operandString(item))
		}
	default:
		for _, part := range strings.Split(operandString(v), ",") {
			refs = append(refs, strings.TrimSpace(part))
		}
	}
	ids := []int{}
	for _, ref := range refs {
		id, ok := s.userRef(viewer, ref)
		if !ok {
			return nil, badNarrow("unknown user in %v", operand)
		}
		ids = append(ids, id)
	}
	return ids, nil
}

func (s *MessageState) isCheck(viewer *User, operand string) (func(*Message) bool, error) {
	flag := func(name string) func(*Message) bool {
		return func(m *Message) bool { return flagsOf(m, viewer.ID).has(name) }
	}
	switch operand {
	case "dm", "private":
		return func(m *Message) bool { return m.IsDirect }, nil
	case "starred":
		return flag("starred"), nil
	case "mentioned":
		return func(m *Message) bool {
			fl := flagsOf(m, viewer.ID)
			return fl.has("mentioned") || fl.has("wildcard_mentioned")
		}, nil
	case "alerted":
		return flag("has_alert_word"), nil
	case "unread":
		return func(m *Message) bool { return !flagsOf(m, viewer.ID).has("read") }, nil
	case "resolved":
		return func(m *Message) bool { return !m.IsDirect && strings.HasPrefix(m.Topic, ResolvedTopicPrefix) }, nil
	case "followed", "muted":
		policy := map[string]int{"followed": VisibilityFollowed, "muted": VisibilityMuted}[operand]
		return func(m *Message) bool {
			return !m.IsDirect && slices.ContainsFunc(s.userData.userTopics[viewer.ID], func(t *userTopic) bool {
				return t.ChannelID == m.ChannelID && strings.EqualFold(t.Topic, m.Topic) && t.Policy == policy
			})
		}, nil
	}
	return nil, badNarrow("unknown 'is' operand %s", operand)
}

var (
	linkInHTML  = regexp.MustCompile(`<a [^>]*href=`)
	imageInHTML = regexp.MustCompile(`<img `)
)

func hasCheck(operand string) (func(*Message) bool, error) {
	switch operand {
	case "link":
		return func(m *Message) bool { return linkInHTML.MatchString(m.Rendered) }, nil
	case "image":
		return func(m *Message) bool { return imageInHTML.MatchString(m.Rendered) }, nil
	case "attachment":
		return func(m *Message) bool { return strings.Contains(m.Content, "/user_uploads/") }, nil
	case "reaction":
		return func(m *Message) bool { return len(m.Reactions) > 0 }, nil
	}
	return nil, badNarrow("unknown 'has' operand %s", operand)
}

// searchWords splits a search into lower-cased words.
func searchWords(q string) []string {
	return strings.FieldsFunc(strings.ToLower(q), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
}

// matchesWords is full-text search in miniature: every word begins a word of the content or
// the topic (so "edit" finds "edits" and "editing", as stemming would).
func matchesWords(m *Message, words []string) bool {
	text := searchWords(html.UnescapeString(tagPattern.ReplaceAllString(m.Rendered, " ")) + " " + m.Topic)
	for _, w := range words {
		if !slices.ContainsFunc(text, func(t string) bool { return strings.HasPrefix(t, w) }) {
			return false
		}
	}
	return true
}

func (f *narrowFilter) matches(m *Message) bool {
	for _, c := range f.checks {
		if !c(m) {
			return false
		}
	}
	return true
}

// candidate reports whether a message is one the narrow looks at for the viewer: messages
// the viewer received, and, in a channel narrow, the channel's history the viewer can read.
func (f *narrowFilter) candidate(m *Message) bool {
	if !f.s.canRead(f.viewer, m) {
		return false
	}
	return f.inChans || m.Rows.has(f.viewer.ID)
}

var tagPattern = regexp.MustCompile(`<[^>]*>`)

// highlight wraps every word of text that begins with a search word in
// <span class="highlight">, leaving HTML tags alone (text is HTML).
func highlight(text string, words []string) string {
	if len(words) == 0 {
		return text
	}
	var b strings.Builder
	last := 0
	for _, loc := range tagPattern.FindAllStringIndex(text, -1) {
		b.WriteString(highlightText(text[last:loc[0]], words))
		b.WriteString(text[loc[0]:loc[1]])
		last = loc[1]
	}
	b.WriteString(highlightText(text[last:], words))
	return b.String()
}

// wordPattern finds words in escaped HTML text (entities are not words).
var wordPattern = regexp.MustCompile(`&[#a-zA-Z0-9]+;|[\p{L}\p{N}]+`)

func highlightText(text string, words []string) string {
	return wordPattern.ReplaceAllStringFunc(text, func(w string) string {
		if strings.HasPrefix(w, "&") {
			return w
		}
		lower := strings.ToLower(w)
		for _, s := range words {
			if strings.HasPrefix(lower, s) {
				return `<span class="highlight">` + w + `</span>`
			}
		}
		return w
	})
}

// NarrowMatch is an entry of matches_narrow: the content and topic as HTML, with search
// matches highlighted.
type NarrowMatch struct {
	MatchContent string `json:"match_content"`
	MatchSubject string `json:"match_subject"`
}

// String describes a term for logs.
func (t NarrowTerm) String() string {
	neg := ""
	if t.Negated {
		neg = "-"
	}
	return fmt.Sprintf("%s%s:%v", neg, t.Operator, t.Operand)
}

// atoi is strconv.Atoi's number and whether it gave one, without the error it allocates for
// a name, which cannot start as a number does.
func atoi(s string) (int, bool) {
	if s == "" || s[0] != '+' && s[0] != '-' && (s[0] < '0' || s[0] > '9') {
		return 0, false
	}
	n, err := strconv.Atoi(s)
	return n, err == nil
}
