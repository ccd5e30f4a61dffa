package realm

import (
	"maps"
	"slices"
	"unicode/utf8"

	"github.com/chatconform/chatconform/fakeserver/internal/apierr"
	"github.com/chatconform/chatconform/fakeserver/internal/mutation"
)

// Bot storage: a bot's own key-value store of strings (GET, PUT and DELETE /bot_storage).

// BotStorageLimit is the real server's bound on a bot's storage: keys and values together, in
// characters.
const BotStorageLimit = 10_000_000

// BotStorageQuota bounds what the bots store beyond each bot's own limit, so that a user's many
// bots cannot fill the fake's memory: PerOwner what all the bots of one owner store, active or
// deactivated (a deactivated bot keeps its storage, as on the real server, so it keeps
// counting), and Total what every bot of the realm stores. Both count what the storage costs
// the fake's memory: the bytes of keys and values (UTF-8), and BotStorageEntryCost more for
// each entry, whatever its size. Zero means no bound.
type BotStorageQuota struct{ PerOwner, Total int }

// BotStorageEntryCost is what one entry counts toward a BotStorageQuota beyond its bytes.
const BotStorageEntryCost = 64

// botStore is one bot's storage and its size.
type botStore struct {
	entries map[string]string
	chars   int // of the keys and values
	bytes   int // of the same
}

// cost is what the storage counts toward a BotStorageQuota.
func (b *botStore) cost() int { return b.bytes + BotStorageEntryCost*len(b.entries) }

var errNoSuchKey = apierr.BadRequest("Key does not exist.")

// BotStorage returns the named entries of the bot's storage, or all of them when keys is
// empty; a key that is not stored fails the whole request.
func (s *AccountState) BotStorage(botID int, keys []string) (map[string]string, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	var stored map[string]string
	if b := s.botStorage[botID]; b != nil {
		stored = b.entries
	}
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
// would take the storage over its limit, or its owner's bots or the realm's over the quota,
// changes nothing.
func (s *AccountState) PutBotStorage(botID int, entries map[string]string, quota BotStorageQuota) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	b := s.botStorage[botID]
	if b == nil {
		b = &botStore{entries: map[string]string{}}
	}
	chars, bytes, added := b.chars, b.bytes, 0
	for k, v := range entries {
		chars += charCount(k) + charCount(v)
		bytes += len(k) + len(v)
		if old, ok := b.entries[k]; ok {
			chars -= charCount(k) + charCount(old)
			bytes -= len(k) + len(old)
		} else {
			added++
		}
	}
	if chars > BotStorageLimit {
		return apierr.BadRequest("Request exceeds storage limit by %d characters. The limit is %d characters.", chars-BotStorageLimit, BotStorageLimit)
	}
	grows := bytes - b.bytes + BotStorageEntryCost*added
	if quota.PerOwner > 0 {
		if over := s.ownerBotStorage(botID) + grows - quota.PerOwner; over > 0 && grows > 0 {
			return apierr.BadRequest("Request exceeds the storage quota of this owner's bots by %d bytes. The quota is %d bytes.", over, quota.PerOwner)
		}
	}
	if quota.Total > 0 && grows > 0 && s.totalBotStorage()+grows > quota.Total {
		return apierr.BadRequest("Request exceeds the organization's bot storage quota.")
	}
	s.botStorage[botID] = b
	maps.Copy(b.entries, entries)
	b.chars, b.bytes = chars, bytes
	return nil
}

// ownerBotStorage is what the bots with the same owner as this bot (itself included) store, as
// counted toward a BotStorageQuota; a bot without an owner is its own group. The caller holds
// the lock.
func (s *AccountState) ownerBotStorage(botID int) int {
	if u := s.users[botID]; u != nil && u.BotOwnerID != 0 {
		return s.ownerStorage(u.BotOwnerID)
	}
	return s.botStorageCost(botID)
}

// ownerStorage is what the bots of one owner store, as counted toward a BotStorageQuota. The
// caller holds the lock.
func (s *AccountState) ownerStorage(ownerID int) int {
	n := 0
	for id, b := range s.botStorage {
		if u := s.users[id]; u != nil && u.BotOwnerID == ownerID {
			n += b.cost()
		}
	}
	return n
}

// botStorageCost is what one bot stores, as counted toward a BotStorageQuota. The caller holds
// the lock.
func (s *AccountState) botStorageCost(botID int) int {
	if b := s.botStorage[botID]; b != nil {
		return b.cost()
	}
	return 0
}

// totalBotStorage is what every bot of the realm stores, as counted toward a BotStorageQuota.
// The caller holds the lock.
func (s *AccountState) totalBotStorage() int {
	n := 0
	for _, b := range s.botStorage {
		n += b.cost()
	}
	return n
}

// RemoveBotStorage deletes the named entries of the bot's storage, or all of them when keys
// is nil (omitted: an empty list names no entry and removes none, as on the real server); a
// key that is not stored fails the whole request and nothing is removed.
func (s *AccountState) RemoveBotStorage(botID int, keys []string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	b := s.botStorage[botID]
	if mutation.On("bot-storage-empty-keys-removes-all") && keys != nil && len(keys) == 0 {
		keys = nil
	}
	if keys == nil && !mutation.On("bot-storage-omitted-keys-removes-nothing") {
		delete(s.botStorage, botID)
		return nil
	}
	if mutation.On("bot-storage-missing-key-among-stored-ignored") && b.storesAny(keys) {
		keys = b.storedOf(keys)
	}
	for _, k := range keys {
		if _, ok := b.lookup(k); !ok {
			if mutation.On("bot-storage-refused-but-removed") {
				b.remove(keys)
			}
			return errNoSuchKey
		}
	}
	b.remove(keys)
	if b != nil && len(b.entries) == 0 { // b is nil where nothing is stored and keys=[] names nothing
		delete(s.botStorage, botID)
	}
	return nil
}

// remove deletes the listed keys that are stored, keeping the counts.
func (b *botStore) remove(keys []string) {
	if b == nil {
		return
	}
	for _, k := range slices.Compact(slices.Sorted(slices.Values(keys))) {
		if v, ok := b.entries[k]; ok {
			b.chars -= charCount(k) + charCount(v)
			b.bytes -= len(k) + len(v)
			delete(b.entries, k)
		}
	}
}

// lookup is the value stored under key in a storage that may not exist.
func (b *botStore) lookup(key string) (string, bool) {
	if b == nil {
		return "", false
	}
	v, ok := b.entries[key]
	return v, ok
}

// charCount counts characters as the real server (Python's len) does: code points.
func charCount(s string) int { return utf8.RuneCountInString(s) }
