package api

import (
	"maps"
	"slices"

	"github.com/chatconform/chatconform/fakeserver/internal/apierr"
	"github.com/chatconform/chatconform/fakeserver/internal/handler"
)

// getBotStorage: GET /bot_storage — the named entries, or all of them.
func (s *Service) getBotStorage(c *handler.Call) (handler.Fields, error) {
	keys := stringList(c, "keys")
	if err := c.Done(); err != nil {
		return nil, err
	}
	storage, err := s.realm().BotStorage(c.User.ID, keys)
	if err != nil {
		return nil, err
	}
	return handler.Fields{"storage": storage}, nil
}

// putBotStorage: PUT /bot_storage — storage is a JSON object of string values.
func (s *Service) putBotStorage(c *handler.Call) (handler.Fields, error) {
	var entries map[string]string
	if !c.P.Has("storage") {
		c.P.Fail(apierr.Missing("storage"))
	} else if raw, ok := jsonOfKind[map[string]any](c, "storage", "a dict"); ok {
		entries = map[string]string{}
		for _, k := range slices.Sorted(maps.Keys(raw)) { // the same key named every time
			str, isStr := raw[k].(string)
			if !isStr {
				c.P.Fail(apierr.BadRequest("storage[%q] is not a string", k))
				break
			}
			entries[k] = str
		}
	}
	if err := c.Done(); err != nil {
		return nil, err
	}
	return handler.Fields{}, s.realm().PutBotStorage(c.User.ID, entries, s.Config().BotStorageQuota())
}

// removeBotStorage: DELETE /bot_storage (operation 20) — the named entries, or all of them
// when keys is omitted.
func (s *Service) removeBotStorage(c *handler.Call) (handler.Fields, error) {
	keys := stringList(c, "keys")
	if err := c.Done(); err != nil {
		return nil, err
	}
	return handler.Fields{}, s.realm().RemoveBotStorage(c.User.ID, keys)
}
