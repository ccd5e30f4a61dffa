package api

import "github.com/chatconform/chatconform/fakeserver/internal/handler"

// getRealmEmoji: GET /realm/emoji.
func (s *Service) getRealmEmoji(c *handler.Call) (handler.Fields, error) {
	if err := c.Done(); err != nil {
		return nil, err
	}
	return handler.Fields{"emoji": s.realm().RealmEmoji()}, nil
}
