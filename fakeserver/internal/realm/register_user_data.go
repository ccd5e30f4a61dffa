package realm

// Each user's own part of the POST /register state.

// register adds the user's topic visibility, alert words, statuses, muted users, drafts,
// saved snippets, scheduled messages, reminders, push devices and navigation views.
func (s *UserDataState) register(r RegisterRequest, f map[string]any) {
	uid := r.UserID
	userTopics := s.AtLeast(LevelUserTopicState)
	if r.want("user_topic") && userTopics {
		f["user_topics"] = s.UserTopics(uid)
	}
	// As on the real server, a client that names user_topic gets the legacy list only from
	// a server too old to have user_topics.
	if r.want("muted_topics") && (r.Wanted == nil || !r.want("user_topic") || !userTopics) {
		f["muted_topics"] = s.MutedTopics(uid)
	}
	if r.want("alert_words") {
		f["alert_words"] = s.AlertWords(uid)
	}
	if r.want("user_status") {
		f["user_status"] = s.Statuses()
	}
	if r.want("muted_users") {
		f["muted_users"] = s.MutedUsers(uid)
	}
	if r.want("drafts") {
		f["drafts"] = s.Drafts(uid)
	}
	if r.want("saved_snippets") && s.AtLeast(LevelSavedSnippets) {
		f["saved_snippets"] = s.SavedSnippets(uid)
	}
	if r.want("scheduled_messages") && s.AtLeast(LevelScheduleMessages) {
		f["scheduled_messages"] = s.ScheduledMessages(uid)
	}
	if r.want("reminders") && s.AtLeast(LevelReminderList) {
		f["reminders"] = s.Reminders(uid)
	}
	if r.want("device") && s.AtLeast(LevelPushRedesign) {
		f["devices"] = s.Devices(uid)
	}
	if r.want("push_device") && s.AtLeast(LevelPushRegistration) && !s.AtLeast(LevelPushRedesign) {
		f["push_devices"] = s.PushAccounts(uid)
	}
	if r.want("navigation_views") && s.AtLeast(LevelNavigationViews) {
		f["navigation_views"] = s.NavigationViews(uid)
	}
}
