package realm

// NarrowFlagsResult is the answer of POST /messages/flags/narrow.
type NarrowFlagsResult struct {
	ProcessedCount   int  `json:"processed_count"`
	UpdatedCount     int  `json:"updated_count"`
	FirstProcessedID *int `json:"first_processed_id"`
	LastProcessedID  *int `json:"last_processed_id"`
	FoundOldest      bool `json:"found_oldest"`
	FoundNewest      bool `json:"found_newest"`
	// IgnoredChannels are the channels skipped when marking unread (see UpdateFlags).
	IgnoredChannels []int `json:"ignored_because_not_subscribed_channels"`
}

// UpdateFlagsForNarrow implements POST /messages/flags/narrow: the flag is added to or removed
// from the window of a narrow that GET /messages would return for the same anchor and counts.
func (s *MessageState) UpdateFlagsForNarrow(userID int, q MessageQuery, add bool, flag string) (NarrowFlagsResult, error) {
	if err := checkEditableFlag(flag); err != nil {
		return NarrowFlagsResult{}, err
	}
	w, err := s.Messages(userID, q)
	if err != nil {
		return NarrowFlagsResult{}, err
	}
	ids := make([]int, 0, len(w.Messages))
	for _, m := range w.Messages {
		ids = append(ids, m.ID)
	}
	changed, ignored, err := s.changeFlags(userID, ids, add, flag)
	if err != nil {
		return NarrowFlagsResult{}, err
	}
	res := NarrowFlagsResult{
		ProcessedCount: len(ids), UpdatedCount: len(changed), FoundOldest: w.FoundOldest, FoundNewest: w.FoundNewest,
		IgnoredChannels: ignored,
	}
	if len(ids) > 0 {
		res.FirstProcessedID, res.LastProcessedID = &ids[0], &ids[len(ids)-1]
	}
	return res, nil
}
