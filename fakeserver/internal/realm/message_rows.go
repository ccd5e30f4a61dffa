package realm

import (
	"slices"
)

// A message's rows: one per user who received it (or who gained it by acting on a message of
// public history), with that user's flags. A realm may hold a million messages, so the rows
// are a slice sorted by user id with one bit per flag: 8 bytes a row, where a map of string
// slices took a few hundred bytes a message.
//
// The rows of a stored message change only through putRow, dropRow and setFlag, which keep
// each user's unread index (message_index.go) in step.

// flagSet holds one bit per flag, in flagOrder's order.
type flagSet uint16

// flagBit is the bit of a flag name (0 for a name that is no flag).
func flagBit(name string) flagSet {
	if i := slices.Index(flagOrder, name); i >= 0 {
		return 1 << i
	}
	return 0
}

func (f flagSet) has(name string) bool { return f&flagBit(name) != 0 }

// names lists the flags in the real server's order (never nil: views show [] for none). The
// list is shared by every view of the same flags and must not be changed (a narrowed fetch
// makes one per message): copy it first.
func (f flagSet) names() []string {
	if int(f) < len(flagNames) {
		return flagNames[f]
	}
	return f.listNames()
}

// flagNames are the names of every set of flags, listed once.
var flagNames = func() [][]string {
	all := make([][]string, 1<<len(flagOrder))
	for f := range all {
		all[f] = slices.Clip(flagSet(f).listNames())
	}
	return all
}()

func (f flagSet) listNames() []string {
	out := make([]string, 0, 2)
	for i, name := range flagOrder {
		if f&(1<<i) != 0 {
			out = append(out, name)
		}
	}
	return out
}

var (
	flagRead       = flagBit("read")
	flagHistorical = flagBit("historical")
	flagsMentioned = flagBit("mentioned") | flagBit("wildcard_mentioned") |
		flagBit("stream_wildcard_mentioned") | flagBit("topic_wildcard_mentioned")
)

// messageRow is one user's row of a message.
type messageRow struct {
	userID int32
	flags  flagSet
}

// messageRows are a message's rows, sorted by user id.
type messageRows []messageRow

// newRows builds the rows of a message about to be stored: one for each user (duplicates
// allowed), read for those read says.
func newRows(userIDs []int, read func(id int) bool) messageRows {
	rows := make(messageRows, 0, len(userIDs))
	for _, id := range userIDs {
		var f flagSet
		if read(id) {
			f = flagRead
		}
		rows = append(rows, messageRow{userID: int32(id), flags: f})
	}
	slices.SortFunc(rows, func(a, b messageRow) int { return int(a.userID) - int(b.userID) })
	return slices.CompactFunc(rows, func(a, b messageRow) bool { return a.userID == b.userID })
}

func (r messageRows) find(userID int) (int, bool) {
	return slices.BinarySearchFunc(r, userID, func(row messageRow, id int) int { return int(row.userID) - id })
}

// get returns the user's flags and whether the user has a row.
func (r messageRows) get(userID int) (flagSet, bool) {
	if i, ok := r.find(userID); ok {
		return r[i].flags, true
	}
	return 0, false
}

func (r messageRows) has(userID int) bool {
	_, ok := r.find(userID)
	return ok
}

// userIDs lists the users with a row, ascending.
func (r messageRows) userIDs() []int {
	ids := make([]int, len(r))
	for i, row := range r {
		ids[i] = int(row.userID)
	}
	return ids
}

// unreadFor reports whether the user has a row without the read flag.
func (r messageRows) unreadFor(userID int) bool {
	f, ok := r.get(userID)
	return ok && f&flagRead == 0
}

// putRow gives the user a row with the given flags, or sets the flags of the row they have.
func (s *MessageState) putRow(m *Message, userID int, flags flagSet) {
	wasUnread := m.Rows.unreadFor(userID)
	if i, ok := m.Rows.find(userID); ok {
		m.Rows[i].flags = flags
	} else {
		m.Rows = slices.Insert(m.Rows, i, messageRow{userID: int32(userID), flags: flags})
		s.index.newest[userID] = max(s.index.newest[userID], m.ID)
	}
	s.reindexUnread(m, userID, wasUnread)
}

// dropRow removes the user's row, if any.
func (s *MessageState) dropRow(m *Message, userID int) {
	if i, ok := m.Rows.find(userID); ok {
		wasUnread := m.Rows[i].flags&flagRead == 0
		m.Rows = slices.Delete(m.Rows, i, i+1)
		s.reindexUnread(m, userID, wasUnread)
		s.forgetRow(userID, m.ID)
	}
}

// setFlag sets or clears one flag of the user's row; a user without a row is left alone.
func (s *MessageState) setFlag(m *Message, userID int, flag string, on bool) {
	f, ok := m.Rows.get(userID)
	if !ok {
		return
	}
	if on {
		f |= flagBit(flag)
	} else {
		f &^= flagBit(flag)
	}
	s.putRow(m, userID, f)
}

// hasFlag reports whether the user's row has the flag.
func hasFlag(m *Message, userID int, flag string) bool {
	f, _ := m.Rows.get(userID)
	return f.has(flag)
}

// flagsOf is the user's flags for a message: their row's, or for a message they can read but
// never received (public history), read and historical, as on the real server.
func flagsOf(m *Message, userID int) flagSet {
	if f, ok := m.Rows.get(userID); ok {
		return f
	}
	return flagRead | flagHistorical
}

// viewFlags is flagsOf by name, as views show them.
func viewFlags(m *Message, userID int) []string { return flagsOf(m, userID).names() }
