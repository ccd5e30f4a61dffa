package realm

// ReadReceipts lists, in ID order, the users who have read a message the requester can read
// (GET /messages/{id}/read_receipts), as the real server counts them: active users with a
// read row, not the sender, neither a user the requester muted nor one who muted the
// requester. Every user of the fake shares read receipts (send_read_receipts is on). A rule
// of messages, it reads muting from each user's data.
func (s *MessageState) ReadReceipts(requesterID, messageID int) ([]int, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	m, err := s.accessibleMessage(s.accts.users[requesterID], messageID)
	if err != nil {
		return nil, err
	}
	out := []int{}
	for _, id := range m.Rows.userIDs() {
		flags, _ := m.Rows.get(id)
		u := s.accts.users[id]
		if u == nil || !u.IsActive || id == m.SenderID || !flags.has("read") || s.userData.hasMuted(requesterID, id) || s.userData.hasMuted(id, requesterID) {
			continue
		}
		out = append(out, id)
	}
	return out, nil
}
