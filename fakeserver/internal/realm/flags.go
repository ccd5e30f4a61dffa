package realm

import (
	"slices"

	"github.com/chatconform/chatconform/fakeserver/internal/apierr"
	"github.com/chatconform/chatconform/fakeserver/internal/events"
	"github.com/chatconform/chatconform/fakeserver/internal/mutation"
)

// flagOrder is the order flags appear in, the real server's bit order. wildcard_mentioned is
// derived: the OR of the two newer wildcard flags.
var flagOrder = []string{
	"read", "starred", "collapsed", "mentioned", "stream_wildcard_mentioned", "topic_wildcard_mentioned",
	"wildcard_mentioned", "has_alert_word", "historical",
}

// EditableFlags are the flags a user may set or clear with POST /messages/flags.
var EditableFlags = []string{"read", "starred", "collapsed"}

// UpdateFlags adds or removes a flag on messages the user can read (POST /messages/flags) and
// returns the IDs it was asked to change. A message read through public history gains a row.
// Unread messages are only ever in subscribed channels, as on the real server: marking
// unread skips the others, whose channel IDs come back in ignored.
func (s *MessageState) UpdateFlags(userID int, ids []int, add bool, flag string) (asked, ignored []int, _ error) {
	_, ignored, err := s.changeFlags(userID, ids, add, flag)
	if err != nil {
		return nil, nil, err
	}
	return ids, ignored, nil
}

// checkEditableFlag refuses flags a user may not set or clear, with the real server's words.
func checkEditableFlag(flag string) error {
	if !slices.Contains(EditableFlags, flag) {
		if slices.Contains(flagOrder, flag) {
			return apierr.BadRequest("Flag not editable: '%s'", flag)
		}
		return apierr.BadRequest("Invalid flag: '%s'", flag)
	}
	return nil
}

// changeFlags is UpdateFlags returning the IDs whose flag actually changed, in order, and the
// channels skipped when marking unread.
func (s *MessageState) changeFlags(userID int, ids []int, add bool, flag string) (changed, ignored []int, _ error) {
	if err := checkEditableFlag(flag); err != nil {
		return nil, nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	u := s.accts.users[userID]
	var ms []*Message
	for _, id := range ids {
		m, err := s.accessibleMessage(u, id)
		if err != nil {
			return nil, nil, err
		}
		ms = append(ms, m)
	}
	changed, ignored = []int{}, []int{}
	for _, m := range ms {
		if !add && flag == "read" && !m.IsDirect && !s.chans.channels[m.ChannelID].subscribed(u) {
			if !slices.Contains(ignored, m.ChannelID) {
				ignored = append(ignored, m.ChannelID)
			}
			continue
		}
		if !m.Rows.has(userID) {
			if !add {
				continue
			}
			s.putRow(m, userID, flagRead|flagHistorical)
		}
		if hasFlag(m, userID, flag) != add {
			s.setFlag(m, userID, flag, add)
			changed = append(changed, m.ID)
		}
	}
	slices.Sort(changed)
	slices.Sort(ignored)
	if len(changed) > 0 {
		s.publishFlagChange(userID, add, flag, changed)
	}
	return changed, ignored, nil
}

// ReportsIgnoredChannels tells whether a flag change's reply lists the channels skipped when
// marking unread: for op remove of the read flag, from feature level 355.
func (s *MessageState) ReportsIgnoredChannels(add bool, flag string) bool {
	return !add && flag == "read" && s.AtLeast(LevelIgnoredNotSubscribed)
}

func (s *MessageState) publishFlagChange(userID int, add bool, flag string, ids []int) {
	op := "remove"
	if add {
		op = "add"
	}
	audience := []int{userID}
	if mutation.On("flag-events-to-everyone") {
		audience = s.accts.activeUserIDs()
	}
	s.publish(events.Event{
		"type": "update_message_flags", "op": op, "operation": op, "flag": flag, "messages": ids, "all": false,
	}, audience...)
}
