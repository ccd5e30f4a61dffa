package realm

// UserDataState is the aggregate of what each user keeps for themselves: alert words, status,
// muted users, presence, topic visibility (muting), drafts, scheduled messages, reminders,
// saved snippets, navigation views and push devices. Each map is by user ID or by an ID
// of the user's own item.
//
// Files: alert_words.go, user_status.go, muted_users.go, presence.go, topic_muting.go,
// user_topics.go, drafts.go, scheduled_messages.go, reminders.go, saved_snippets.go,
// navigation_views.go, push_*.go, register_user_data.go and this file.
type UserDataState struct {
	*core
	alertWords map[int][]string
	status     map[int]UserStatus
	// muted maps a user to the users they muted and when (UNIX seconds).
	muted        map[int]map[int]int64
	presence     map[int]*presence
	nextPresence int
	// userTopics holds each user's topic visibility settings (muting).
	userTopics map[int][]*userTopic

	drafts        map[int]*userDraft
	nextDraft     int
	scheduled     map[int]*scheduledMessage
	nextScheduled int
	reminders     map[int]*Reminder
	nextReminder  int
	snippets      map[int]*userSnippet
	nextSnippet   int
	// views are each user's navigation views, in the order they were added.
	views map[int][]*NavigationView

	devices      map[int]*Device
	nextDevice   int
	pushAccounts map[pushAccountKey]bool // registrations before LevelPushRedesign
	legacyTokens []legacyToken
}

func (s *UserDataState) reset() {
	*s = UserDataState{core: s.core, alertWords: map[int][]string{}, status: map[int]UserStatus{}, muted: map[int]map[int]int64{},
		presence: map[int]*presence{}, userTopics: map[int][]*userTopic{}, drafts: map[int]*userDraft{},
		scheduled: map[int]*scheduledMessage{}, reminders: map[int]*Reminder{}, snippets: map[int]*userSnippet{},
		views: map[int][]*NavigationView{}, devices: map[int]*Device{}, pushAccounts: map[pushAccountKey]bool{}}
}
