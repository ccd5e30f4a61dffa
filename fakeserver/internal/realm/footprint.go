package realm

// Footprint counts what a realm holds, for measuring how much a client run leaves behind.
type Footprint struct {
	ActiveHumans     int `json:"active_humans"`
	ActiveBots       int `json:"active_bots"`
	DeactivatedUsers int `json:"deactivated_users"`
	ActiveChannels   int `json:"active_channels"`
	ArchivedChannels int `json:"archived_channels"`
	Messages         int `json:"messages"`
	// ActiveUserGroups counts the groups that are neither system groups nor deactivated.
	ActiveUserGroups int `json:"active_user_groups"`
	ProfileFields    int `json:"profile_fields"`
	Linkifiers       int `json:"linkifiers"`
	Playgrounds      int `json:"playgrounds"`
	// Subscriptions counts each user's subscriptions to active channels, by user ID.
	Subscriptions map[int]int `json:"subscriptions"`
}

// Footprint counts the realm's users, channels, messages and subscriptions now. It is State's
// because it counts in every aggregate.
func (s *State) Footprint() Footprint {
	s.mu.RLock()
	defer s.mu.RUnlock()
	f := Footprint{
		Messages: s.messages.len(), Subscriptions: map[int]int{}, ProfileFields: len(s.profileFields),
		Linkifiers: len(s.linkifiers), Playgrounds: len(s.playgrounds),
	}
	for _, g := range s.groups {
		if !g.IsSystem && !g.Deactivated {
			f.ActiveUserGroups++
		}
	}
	for _, u := range s.users {
		switch {
		case !u.IsActive:
			f.DeactivatedUsers++
		case u.IsBot:
			f.ActiveBots++
		default:
			f.ActiveHumans++
		}
	}
	for _, ch := range s.channels {
		if ch.Archived {
			f.ArchivedChannels++
			continue
		}
		f.ActiveChannels++
		for id := range ch.Subscribers {
			f.Subscriptions[id]++
		}
	}
	return f
}
