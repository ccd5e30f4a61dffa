package realm

// RealmEmoji implements GET /realm/emoji: the realm's custom emoji by ID. The fake has none
// (no fixture or route adds any, and reactions of type realm_emoji are refused), so the map
// is empty, as on a real realm without custom emoji.
func (s *State) RealmEmoji() map[string]any { return map[string]any{} }
