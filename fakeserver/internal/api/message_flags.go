package api

import (
	"github.com/chatconform/chatconform/fakeserver/internal/apierr"
	"github.com/chatconform/chatconform/fakeserver/internal/handler"
	"github.com/chatconform/chatconform/fakeserver/internal/realm"
)

// updateFlagsForNarrow: POST /messages/flags/narrow — add or remove a flag on a window of a
// narrow, chosen as GET /messages chooses it. The counts are clamped to the real server's
// 5000 messages per request instead of refused.
func (s *Service) updateFlagsForNarrow(c *handler.Call) (handler.Fields, error) {
	q := realm.MessageQuery{Anchor: anchorParam(c)}
	q.IncludeAnchor = c.P.Bool("include_anchor", true)
	q.NumBefore = requiredCount(c, "num_before")
	q.NumAfter = requiredCount(c, "num_after")
	q.Narrow = s.narrowParam(c, true)
	op := c.P.RequiredEnum("op", "add", "remove")
	flag := c.P.RequiredString("flag")
	if err := c.Done(); err != nil {
		return nil, err
	}
	if q.NumBefore > 0 && q.NumAfter > 0 && !q.IncludeAnchor {
		return nil, apierr.BadRequest("The anchor can only be excluded at an end of the range")
	}
	q.NumBefore = min(q.NumBefore, max(maxMessagesPerFetch-q.NumAfter, maxMessagesPerFetch/2))
	q.NumAfter = min(q.NumAfter, maxMessagesPerFetch-q.NumBefore)
	res, err := s.realm().UpdateFlagsForNarrow(c.User.ID, q, op == "add", flag)
	if err != nil {
		return nil, err
	}
	f := handler.Fields{
		"processed_count": res.ProcessedCount, "updated_count": res.UpdatedCount,
		"first_processed_id": res.FirstProcessedID, "last_processed_id": res.LastProcessedID,
		"found_oldest": res.FoundOldest, "found_newest": res.FoundNewest,
	}
	if s.realm().ReportsIgnoredChannels(op == "add", flag) {
		f["ignored_because_not_subscribed_channels"] = res.IgnoredChannels
	}
	return f, nil
}

// updateFlags: POST /messages/flags — add or remove a personal flag on messages.
func (s *Service) updateFlags(c *handler.Call) (handler.Fields, error) {
	ids := c.P.RequiredIntList("messages")
	op := c.P.RequiredEnum("op", "add", "remove")
	flag := c.P.RequiredString("flag")
	if err := c.Done(); err != nil {
		return nil, err
	}
	msgIDs := make([]int, 0, len(ids))
	for _, id := range ids {
		if id <= 0 || id > 1<<31-1 {
			return nil, apierr.InvalidMessage
		}
		msgIDs = append(msgIDs, int(id))
	}
	asked, ignored, err := s.realm().UpdateFlags(c.User.ID, msgIDs, op == "add", flag)
	if err != nil {
		return nil, err
	}
	f := handler.Fields{"messages": asked}
	if s.realm().ReportsIgnoredChannels(op == "add", flag) {
		f["ignored_because_not_subscribed_channels"] = ignored
	}
	return f, nil
}
