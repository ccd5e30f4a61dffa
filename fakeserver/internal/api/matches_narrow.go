package api

import (
	"github.com/chatconform/chatconform/fakeserver/internal/apierr"
	"github.com/chatconform/chatconform/fakeserver/internal/handler"
	"github.com/chatconform/chatconform/fakeserver/internal/realm"
)

// narrowParam reads narrow: a JSON list of narrow terms.
func (s *Service) narrowParam(c *handler.Call, required bool) []realm.NarrowTerm {
	if required && !c.P.Has("narrow") {
		c.P.Fail(apierr.Missing("narrow"))
		return nil
	}
	list, ok := jsonOfKind[[]any](c, "narrow", "a list")
	if !ok {
		return nil
	}
	terms, err := realm.ParseNarrow(list, s.realm().Settings().FeatureLevel)
	if err != nil {
		c.P.Fail(err)
		return nil
	}
	return terms
}

// matchesNarrow: GET /messages/matches_narrow (operation 5).
func (s *Service) matchesNarrow(c *handler.Call) (handler.Fields, error) {
	ids := c.P.RequiredIntList("msg_ids")
	terms := s.narrowParam(c, true)
	if err := c.Done(); err != nil {
		return nil, err
	}
	msgIDs := make([]int, 0, len(ids))
	for _, id := range ids {
		if id > 0 && id <= 1<<31-1 {
			msgIDs = append(msgIDs, int(id))
		}
	}
	matches, err := s.realm().MatchesNarrow(c.User.ID, msgIDs, terms)
	if err != nil {
		return nil, err
	}
	return handler.Fields{"messages": matches}, nil
}
