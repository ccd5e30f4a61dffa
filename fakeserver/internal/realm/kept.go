package realm

import (
	"maps"
	"slices"

	"github.com/chatconform/chatconform/fakeserver/internal/apierr"
)

// What a user keeps for themselves, how much the fake keeps of it, and whose bounds a bot's
// things count toward.

// The fake's bounds on what one user and their bots keep (the real server has none: its
// database grows for as long as a client saves): beyond them a request changes nothing.
const (
	MaxDraftsPerUser            = 1000
	MaxSavedSnippetsPerUser     = 1000
	MaxScheduledMessagesPerUser = 1000
	MaxRemindersPerUser         = 1000
)

// MaxUserGroups bounds an organization's user groups, system and deactivated ones included
// (the real server has no bound; deactivated groups stay).
const MaxUserGroups = 5000

// holder is the account whose bounds an account's things count toward: a bot's owner, so that
// the bots a member may own do not multiply every per-user bound; anyone else holds their own.
// The caller holds the lock.
func (s *AccountState) holder(userID int) int {
	if u := s.users[userID]; u != nil && u.IsBot && u.BotOwnerID != 0 {
		return u.BotOwnerID
	}
	return userID
}

// Holder is the account whose bounds the user's things count toward (holder), for the event
// queues, which the realm does not keep.
func (s *AccountState) Holder(userID int) int {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.holder(userID)
}

// roomFor refuses n more of a kind of item when the accounts of the user's holder would keep
// more than limit of them; owner is an item's account. The caller holds the lock.
func roomFor[V any](s *AccountState, items map[int]V, owner func(V) int, userID, n, limit int, what string) error {
	holder, have := s.holder(userID), 0
	for _, v := range items {
		if s.holder(owner(v)) == holder {
			have++
		}
	}
	if have+n > limit {
		return apierr.BadRequest("A user and their bots can keep at most %d %s.", limit, what)
	}
	return nil
}

// uploadRoom refuses size more bytes of uploads when the realm's, or those of the uploader's
// holder's accounts, would pass the quota. Files and custom emoji images count alike: the fake
// keeps both in memory (an emoji's even once deactivated, as it stays listed). The caller
// holds the lock.
func (s *UploadState) uploadRoom(userID int, size int64, quota UploadQuota) error {
	holder := s.accts.holder(userID)
	if s.heldBytes(func(int) bool { return true })+size > quota.Total {
		return apierr.BadRequest("Upload would exceed your organization's upload quota.")
	}
	if s.heldBytes(func(id int) bool { return s.accts.holder(id) == holder })+size > quota.PerUser {
		return apierr.BadRequest("Upload would exceed your upload quota of %d bytes.", quota.PerUser)
	}
	return nil
}

// heldBytes is what the uploaded files and custom emoji images of the matching accounts
// weigh. The caller holds the lock.
func (s *UploadState) heldBytes(match func(userID int) bool) int64 {
	var n int64
	for _, a := range s.attachments {
		if match(a.OwnerID) {
			n += int64(len(a.Content))
		}
	}
	for _, e := range s.org.emoji {
		if match(e.authorID) {
			n += int64(len(e.content) + len(e.still))
		}
	}
	return n
}

// keptItems is one kind of item a user keeps: its name, its bound, and the account of each.
type keptItems struct {
	what   string
	limit  int
	owners []int
}

// kept lists the kinds of item the fake bounds per holder. The caller holds the lock.
func (s *UserDataState) kept() []keptItems {
	return []keptItems{
		{"drafts", MaxDraftsPerUser, ownersOf(s.drafts, draftOwner)},
		{"saved snippets", MaxSavedSnippetsPerUser, ownersOf(s.snippets, snippetOwner)},
		{"scheduled messages", MaxScheduledMessagesPerUser, ownersOf(s.scheduled, scheduledOwner)},
		{"reminders", MaxRemindersPerUser, ownersOf(s.reminders, reminderOwner)},
	}
}

// own is the user's item of a kind by its ID, or the kind's error when there is none or it is
// another user's (the real server answers both alike).
func own[V any](items map[int]*V, owner func(*V) int, userID, id int, missing func() error) (*V, error) {
	if v := items[id]; v != nil && owner(v) == userID {
		return v, nil
	}
	return nil, missing()
}

// deleteOwn removes the user's item of a kind by its ID with remove, or answers the kind's
// error (own). The caller holds the lock.
func deleteOwn[V any](items map[int]*V, owner func(*V) int, userID, id int, missing func() error, remove func(*V)) error {
	v, err := own(items, owner, userID, id, missing)
	if err != nil {
		return err
	}
	remove(v)
	return nil
}

// ownList is the user's items among all, in the order of all, each as view shows it (an
// empty list, not nil, when the user has none).
func ownList[V, T any](all []*V, owner func(*V) int, userID int, view func(*V) T) []T {
	out := []T{}
	for _, v := range all {
		if owner(v) == userID {
			out = append(out, view(v))
		}
	}
	return out
}

// inIDOrder is every item of a kind, by ID.
func inIDOrder[V any](items map[int]*V) []*V {
	out := make([]*V, 0, len(items))
	for _, id := range slices.Sorted(maps.Keys(items)) {
		out = append(out, items[id])
	}
	return out
}

// The account of each kind of item.
func draftOwner(d *userDraft) int             { return d.userID }
func snippetOwner(sn *userSnippet) int        { return sn.userID }
func scheduledOwner(sm *scheduledMessage) int { return sm.userID }
func reminderOwner(r *Reminder) int           { return r.UserID }

func ownersOf[V any](items map[int]V, owner func(V) int) []int {
	out := make([]int, 0, len(items))
	for _, v := range items {
		out = append(out, owner(v))
	}
	return out
}

// roomForBot refuses to give a bot to a new owner when what the bot keeps would take the new
// owner's accounts over a bound: each bound counts what a holder's accounts keep now, so a
// bot that changed hands with its things would free its old owner's room and fill the new
// one's beyond it. The caller holds the lock.
func (s *AccountState) roomForBot(bot *User, owner int, b HolderBounds) error {
	fail := func(format string, args ...any) error {
		return apierr.BadRequest("Failed to change owner: "+format, args...)
	}
	ownBots := 0
	for _, u := range s.users {
		if u.IsBot && u.IsActive && u.BotOwnerID == owner {
			ownBots++
		}
	}
	if bot.IsActive && b.MaxBots > 0 && ownBots+1 > b.MaxBots {
		return fail("the new owner may own at most %d active bots on this server.", b.MaxBots)
	}
	if cost := s.botStorageCost(bot.ID); b.BotStorage.PerOwner > 0 && cost > 0 && s.ownerStorage(owner)+cost > b.BotStorage.PerOwner {
		return fail("the new owner's bots would exceed their storage quota of %d bytes.", b.BotStorage.PerOwner)
	}
	if size := s.uploads.heldBytes(func(id int) bool { return id == bot.ID }); b.Uploads.PerUser > 0 && size > 0 &&
		s.uploads.heldBytes(func(id int) bool { return s.holder(id) == owner })+size > b.Uploads.PerUser {
		return fail("the new owner would exceed their upload quota of %d bytes.", b.Uploads.PerUser)
	}
	for _, k := range s.userData.kept() {
		mine, theirs := 0, 0
		for _, id := range k.owners {
			switch {
			case id == bot.ID:
				mine++
			case s.holder(id) == owner:
				theirs++
			}
		}
		if mine > 0 && mine+theirs > k.limit {
			return fail("the new owner and their bots would keep more than %d %s.", k.limit, k.what)
		}
	}
	return nil
}

// HolderBounds are the server configuration's bounds on what one holder's accounts keep, which
// a change of a bot's owner must respect.
type HolderBounds struct {
	MaxBots    int
	Uploads    UploadQuota
	BotStorage BotStorageQuota
}
