package fakeserver

import (
	"errors"
	"strconv"
	"strings"

	"github.com/chatconform/chatconform/fakeserver/internal/apierr"
	"github.com/chatconform/chatconform/fakeserver/internal/realm"
)

// maxMessagesPerFetch is the real server's bound on num_before + num_after.
const maxMessagesPerFetch = 5000

// getMessages: GET /messages — a window of the messages of a narrow around an anchor.
func (s *Server) getMessages(c *call) (fields, error) {
	// The anchor is checked after the other parameters, as on the real server: it is needed
	// only without use_first_unread_anchor, the older way of saying anchor=first_unread.
	anchor, hasAnchor := c.p.String("anchor")
	var q realm.MessageQuery
	q.NumBefore = requiredCount(c, "num_before")
	q.NumAfter = requiredCount(c, "num_after")
	useFirstUnread := c.p.Bool("use_first_unread_anchor", false)
	q.IncludeAnchor = c.p.Bool("include_anchor", true)
	q.Narrow = s.narrowParam(c, false)
	q.View = realm.ViewOptions{
		ApplyMarkdown:       c.p.Bool("apply_markdown", true),
		ClientGravatar:      c.p.Bool("client_gravatar", true),
		AllowEmptyTopicName: c.p.Bool("allow_empty_topic_name", false),
	}
	if err := c.done(); err != nil {
		return nil, err
	}
	switch {
	case useFirstUnread:
		q.Anchor = realm.AnchorFirstUnread
	case !hasAnchor:
		return nil, apierr.BadRequest("Missing 'anchor' argument.")
	default:
		a, err := parseAnchor(anchor)
		if err != nil {
			return nil, err
		}
		q.Anchor = a
	}
	if q.NumBefore+q.NumAfter > maxMessagesPerFetch {
		return nil, apierr.BadRequest("Too many messages requested (maximum %d).", maxMessagesPerFetch)
	}
	w, err := s.realm().Messages(c.user.ID, q)
	if err != nil {
		return nil, err
	}
	return fields{
		"messages": w.Messages, "anchor": w.Anchor, "found_anchor": w.FoundAnchor, "found_oldest": w.FoundOldest,
		"found_newest": w.FoundNewest, "history_limited": w.HistoryLimited,
	}, nil
}

// anchorParam reads a required anchor: a message ID, or newest, oldest or first_unread.
func anchorParam(c *call) int {
	raw, given := c.p.String("anchor")
	if !given {
		c.p.Fail(apierr.Missing("anchor"))
		return 0
	}
	a, err := parseAnchor(raw)
	if err != nil {
		c.p.Fail(err)
	}
	return a
}

// parseAnchor reads an anchor as the real server does. Negative anchors, which older clients
// sent, mean the oldest message; anchors beyond any message ID the newest.
func parseAnchor(raw string) (int, error) {
	switch raw = strings.Trim(strings.TrimSpace(raw), `"`); raw {
	case "newest":
		return realm.AnchorNewest, nil
	case "oldest":
		return realm.AnchorOldest, nil
	case "first_unread":
		return realm.AnchorFirstUnread, nil
	}
	n, err := strconv.ParseInt(raw, 10, 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		return 0, apierr.BadRequest("Invalid anchor")
	}
	return int(max(min(n, realm.LargerThanMaxMessageID), 0)), nil
}

// requiredCount reads a required non-negative JSON integer count.
func requiredCount(c *call, name string) int {
	if !c.p.Has(name) {
		c.p.Fail(apierr.Missing(name))
		return 0
	}
	n, _ := nonNegativeInt(c, name)
	return n
}

// narrowParam reads narrow: a JSON list of narrow terms.
func (s *Server) narrowParam(c *call, required bool) []realm.NarrowTerm {
	if required && !c.p.Has("narrow") {
		c.p.Fail(apierr.Missing("narrow"))
		return nil
	}
	list, ok := jsonOfKind[[]any](c, "narrow", "a list")
	if !ok {
		return nil
	}
	terms, err := realm.ParseNarrow(list, s.realm().Settings().FeatureLevel)
	if err != nil {
		c.p.Fail(err)
		return nil
	}
	return terms
}

// matchesNarrow: GET /messages/matches_narrow (operation 5).
func (s *Server) matchesNarrow(c *call) (fields, error) {
	ids := c.p.RequiredIntList("msg_ids")
	terms := s.narrowParam(c, true)
	if err := c.done(); err != nil {
		return nil, err
	}
	msgIDs := make([]int, 0, len(ids))
	for _, id := range ids {
		if id > 0 && id <= 1<<31-1 {
			msgIDs = append(msgIDs, int(id))
		}
	}
	matches, err := s.realm().MatchesNarrow(c.user.ID, msgIDs, terms)
	if err != nil {
		return nil, err
	}
	return fields{"messages": matches}, nil
}

// updateFlags: POST /messages/flags — add or remove a personal flag on messages.
func (s *Server) updateFlags(c *call) (fields, error) {
	ids := c.p.RequiredIntList("messages")
	op := c.p.RequiredEnum("op", "add", "remove")
	flag := c.p.RequiredString("flag")
	if err := c.done(); err != nil {
		return nil, err
	}
	msgIDs := make([]int, 0, len(ids))
	for _, id := range ids {
		if id <= 0 || id > 1<<31-1 {
			return nil, apierr.InvalidMessage
		}
		msgIDs = append(msgIDs, int(id))
	}
	asked, ignored, err := s.realm().UpdateFlags(c.user.ID, msgIDs, op == "add", flag)
	if err != nil {
		return nil, err
	}
	f := fields{"messages": asked}
	if s.realm().ReportsIgnoredChannels(op == "add", flag) {
		f["ignored_because_not_subscribed_channels"] = ignored
	}
	return f, nil
}

// markAllAsRead: POST /mark_all_as_read (operation 19), batched like topic deletion.
func (s *Server) markAllAsRead(c *call) (fields, error) {
	return s.completion(s.realm().MarkAllAsRead(c.user.ID, s.batching())), nil
}
