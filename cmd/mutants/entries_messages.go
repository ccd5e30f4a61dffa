package main

// messageEntries are the mutants of the message side of the catalogue: the Message resource,
// reactions and edit history, editing, matches narrow, fetching a single message, delete
// topic, the topic list, edit typing, mark all as read and reminders, with the events,
// errors, limits and versioning rules of those operations (docs/mutation-messages.md has their
// table, with the cells no operator fills and why).
var messageEntries = []Entry{
	// The Message resource.
	{Name: "dm-type-stream", Operator: WrongValue, Requirements: reqs("MSG-02"), Does: "a direct message's type is stream"},
	{Name: "dm-stream-id-present", Operator: WrongValue, Requirements: reqs("MSG-03"), Does: "a direct message carries stream_id (its recipient_id)"},
	{Name: "dm-subject-display-name", Operator: WrongValue, Requirements: reqs("MSG-05"), Does: "a direct message's subject is realm_empty_topic_display_name, not the empty string"},
	{Name: "subject-of-first-topic", Operator: StaleView, Requirements: reqs("MSG-04", "OP01-01"), Does: "after a topic edit, a message's subject is still the topic it had first"},
	{Name: "empty-topic-shown-empty-by-default", Operator: WrongValue, Requirements: reqs("MSG-06", "OP06-03"), Does: "a message in the empty topic reports subject \"\" to clients that did not ask for empty topic names"},
	{Name: "topic-links-empty", Operator: WrongValue, Requirements: reqs("MSG-08"), Does: "topic_links is always empty, also when a linkifier matches the topic"},
	{Name: "subject-links-at-modern-level", Operator: WrongValue, Requirements: reqs("VER-10", "MSG-07"), Does: "messages carry subject_links in place of topic_links at every level"},
	{Name: "content-type-always-html", Operator: WrongValue, Requirements: reqs("MSG-10", "OP06-02"), Does: "content_type is text/html also for raw Markdown content"},
	{Name: "avatar-null-for-hidden-email", Operator: Privacy, Requirements: reqs("MSG-15"), Does: "with client_gravatar, avatar_url is null also for senders whose real email the requester may not see"},
	{Name: "read-flag-per-message", Operator: WrongValue, Requirements: reqs("MSG-23"), Does: "a message's flags have read once any user has read it: per message, not per user"},
	{Name: "wildcard-flag-dropped", Operator: WrongValue, Requirements: reqs("MSG-26", "VER-12"), Does: "the deprecated wildcard_mentioned flag is never set"},
	{Name: "topic-wildcard-flagged-as-channel", Operator: WrongValue, Requirements: reqs("MSG-25", "MSG-24"), Does: "a topic wildcard mention is flagged stream_wildcard_mentioned"},
	{Name: "raw-content-rendered", Operator: WrongValue, Requirements: reqs("MSG-39", "OP06-08", "VER-11"), Does: "the fetch's raw_content is the rendered HTML"},
	{Name: "reaction-type-always-unicode", Operator: WrongValue, Requirements: reqs("MSG-45"), Does: "every reaction's reaction_type is unicode_emoji, also a custom emoji's"},

	// Edit history and the edit timestamps.
	{Name: "edit-history-present-unedited", Operator: WrongValue, Requirements: reqs("MSG-30"), Does: "a message never edited or moved has an edit_history of one entry"},
	{Name: "edit-history-shown-when-hidden", Operator: Privacy, Requirements: reqs("MSG-32"), Does: "edit_history is shown when the organization does not allow viewing it"},
	{Name: "last-edit-set-by-move", Operator: WrongValue, Requirements: reqs("MSG-33"), Does: "a move sets last_edit_timestamp, also when the content was never edited"},
	{Name: "last-moved-set-by-content-edit", Operator: WrongValue, Requirements: reqs("MSG-35", "VER-17"), Does: "a content edit sets last_moved_timestamp"},
	{Name: "edit-history-user-is-sender", Operator: WrongValue, Requirements: reqs("MSG-40"), Does: "an edit history entry's user_id is the message's sender, not the editor"},
	{Name: "edit-history-timestamp-of-message", Operator: WrongValue, Requirements: reqs("MSG-40"), Does: "an edit history entry's timestamp is when the message was sent, not when it was edited"},
	{Name: "edit-history-streams-swapped", Operator: WrongValue, Requirements: reqs("MSG-42"), Does: "prev_stream and stream of a channel move are swapped"},
	{Name: "edit-history-stream-on-every-entry", Operator: WrongValue, Requirements: reqs("MSG-42"), Does: "every edit history entry carries prev_stream and stream, also when the channel did not change"},
	{Name: "edit-history-prev-rendered-is-markdown", Operator: WrongValue, Requirements: reqs("MSG-41"), Does: "prev_rendered_content is the raw Markdown, not its HTML"},
	{Name: "edit-history-prev-content-on-moves", Operator: WrongValue, Requirements: reqs("MSG-41"), Does: "entries of moves carry prev_content and prev_rendered_content too"},
	{Name: "edit-history-prev-topic-is-new", Operator: WrongValue, Requirements: reqs("MSG-43"), Does: "a topic change's prev_topic is the new topic"},
	{Name: "prev-subject-at-modern-level", Operator: WrongValue, Requirements: reqs("VER-09", "MSG-43"), Does: "the edit history records prev_subject in place of prev_topic at every level"},
}

func init() { Entries = append(Entries, messageEntries...) }
