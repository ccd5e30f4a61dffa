package realm

// SetSubscriptionProperty changes one setting of the user's subscription. Changing is_muted
// or in_home_view publishes two events, one per property, as the document says.
func (s *ChannelState) SetSubscriptionProperty(userID, channelID int, property string, value any) error {
	return s.SetSubscriptionProperties(userID, []SubscriptionChange{{ChannelID: channelID, Property: property, Value: value}})
}
