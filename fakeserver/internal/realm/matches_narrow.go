package realm

import (
	"html"
	"strconv"

	"github.com/chatconform/chatconform/fakeserver/internal/mutation"
)

// MatchesNarrow reports which of the given messages match the narrow
// (GET /messages/matches_narrow); only messages the user received are considered.
func (s *MessageState) MatchesNarrow(userID int, ids []int, terms []NarrowTerm) (map[string]NarrowMatch, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	u := s.accts.users[userID]
	f, err := s.compileNarrow(u, terms)
	if err != nil {
		return nil, err
	}
	out := map[string]NarrowMatch{}
	for _, id := range ids {
		m := s.messages.get(id)
		if m == nil || !s.canRead(u, m) {
			continue
		}
		if mutation.On("matches-narrow-lists-non-matching") {
			out[strconv.Itoa(id)] = NarrowMatch{MatchContent: m.Rendered, MatchSubject: html.EscapeString(m.Topic)}
			continue
		}
		if !m.Rows.has(u.ID) || !f.matches(m) {
			continue
		}
		out[strconv.Itoa(id)] = NarrowMatch{
			MatchContent: highlight(m.Rendered, f.search),
			MatchSubject: highlight(escapedTopic(m.Topic), f.search),
		}
		if mutation.On("search-highlight-dropped") {
			out[strconv.Itoa(id)] = NarrowMatch{MatchContent: m.Rendered, MatchSubject: html.EscapeString(m.Topic)}
		}
		if mutation.On("matches-narrow-subject-unescaped") {
			out[strconv.Itoa(id)] = NarrowMatch{MatchContent: out[strconv.Itoa(id)].MatchContent, MatchSubject: m.Topic}
		}
	}
	return out, nil
}
