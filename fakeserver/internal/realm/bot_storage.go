package realm

import (
	"maps"
	"slices"

	"github.com/chatconform/chatconform/fakeserver/internal/apierr"
	"github.com/chatconform/chatconform/fakeserver/internal/mutation"
)

// Bot storage: a bot's own key-value store of strings (GET, PUT and DELETE /bot_storage).

// BotStorageLimit is the real server's bound on a bot's storage: keys and values together, in
// characters.
const BotStorageLimit = 10_000_000

var errNoSuchKey = apierr.BadRequest("Key does not exist.")

// BotStorage returns the named entries of the bot's storage, or all of them when keys is
// empty; a key that is not stored fails the whole request.
func (s *State) BotStorage(botID int, keys []string) (map[string]string, *apierr.Error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	stored := s.integrations.botStorage[botID]
	out := map[string]string{}
	if len(keys) == 0 {
		maps.Copy(out, stored)
		return out, nil
	}
	for _, k := range keys {
		v, ok := stored[k]
		if !ok {
			return nil, errNoSuchKey
		}
		out[k] = v
	}
	return out, nil
}

// PutBotStorage adds or replaces entries of the bot's storage, all or none: a change that
// would take the storage over its limit changes nothing.
func (s *State) PutBotStorage(botID int, entries map[string]string) *apierr.Error {
	s.mu.Lock()
	defer s.mu.Unlock()
	stored := s.integrations.botStorage[botID]
	size := storageSize(stored)
	for k, v := range entries {
		size += charCount(k) + charCount(v)
		if old, ok := stored[k]; ok {
			size -= charCount(k) + charCount(old)
		}
	}
	if size > BotStorageLimit {
		return apierr.BadRequest("Request exceeds storage limit by %d characters. The limit is %d characters.", size-BotStorageLimit, BotStorageLimit)
	}
	if stored == nil {
		stored = map[string]string{}
		s.integrations.botStorage[botID] = stored
	}
	maps.Copy(stored, entries)
	return nil
}

// RemoveBotStorage deletes the named entries of the bot's storage, or all of them when keys
// is nil (omitted: an empty list names no entry and removes none, as on the real server); a
// key that is not stored fails the whole request and nothing is removed.
func (s *State) RemoveBotStorage(botID int, keys []string) *apierr.Error {
	s.mu.Lock()
	defer s.mu.Unlock()
	stored := s.integrations.botStorage[botID]
	if mutation.On("bot-storage-empty-keys-removes-all") && keys != nil && len(keys) == 0 {
		keys = nil
	}
	if keys == nil {
		delete(s.integrations.botStorage, botID)
		return nil
	}
	for _, k := range keys {
		if _, ok := stored[k]; !ok {
			if mutation.On("bot-storage-refused-but-removed") {
				removeKeys(stored, keys)
			}
			return errNoSuchKey
		}
	}
	for _, k := range slices.Compact(slices.Sorted(slices.Values(keys))) {
		delete(stored, k)
	}
	return nil
}

func storageSize(stored map[string]string) int {
	n := 0
	for k, v := range stored {
		n += charCount(k) + charCount(v)
	}
	return n
}

// charCount counts characters as the real server (Python's len) does: code points.
func charCount(s string) int { return len([]rune(s)) }
