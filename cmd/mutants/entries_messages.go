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
	// Operation 1: edit a message.
	{Name: "subject-alias-ignored", Operator: WrongValue, Requirements: reqs("OP01-02", "VER-08"), Does: "subject is not read as the alias of topic"},
	{Name: "edit-topic-display-name-literal", Operator: WrongValue, Requirements: reqs("OP01-03"), Does: "a topic equal to realm_empty_topic_display_name is stored as that text, not as the empty topic"},
	{Name: "required-topic-not-enforced-on-move", Operator: RefusedApplied, Requirements: reqs("OP01-04"), Does: "where topics are required, a move to the empty topic or (no topic) is accepted"},
	{Name: "empty-topic-resolvable", Operator: RefusedApplied, Requirements: reqs("OP01-05"), Does: "the empty topic can be resolved"},
	{Name: "content-edit-propagate-mode-accepted", Operator: RefusedApplied, Requirements: reqs("OP01-10"), Does: "a content-only edit with propagate_mode other than change_one is accepted and applied"},
	{Name: "old-thread-notified-by-default", Operator: WrongValue, Requirements: reqs("OP01-11"), Does: "send_notification_to_old_thread defaults to true"},
	{Name: "new-thread-silent-by-default", Operator: WrongValue, Requirements: reqs("OP01-12"), Does: "send_notification_to_new_thread defaults to false"},
	{Name: "content-edit-rendered-stale", Operator: StaleView, Requirements: reqs("OP01-13", "STATE-21"), Does: "a content edit stores the new raw content and keeps the old HTML"},
	{Name: "prev-content-sha256-of-rendered", Operator: WrongValue, Requirements: reqs("OP01-16", "VER-16"), Does: "prev_content_sha256 is compared with the hash of the rendered HTML, not of the raw content"},
	{Name: "content-and-stream-accepted", Operator: RefusedApplied, Requirements: reqs("OP01-18"), Does: "content and stream_id together are accepted and both applied"},
	{Name: "edit-others-content-code", Operator: ErrorCode, Requirements: reqs("OP01-19", "ERR-04"), Does: "editing another user's content answers UNAUTHORIZED_PRINCIPAL, not BAD_REQUEST"},
	{Name: "admins-edit-any-content", Operator: ActorKind, Requirements: reqs("OP01-19"), Does: "administrators may edit the content of other users' messages"},
	{Name: "whole-topic-limit-binds-moderators", Operator: ActorKind, Requirements: reqs("OP01-21"), Does: "moderators and administrators get MOVE_MESSAGES_TIME_LIMIT_EXCEEDED too"},
	{Name: "first-movable-id-newest", Operator: WrongValue, Requirements: reqs("OP01-22", "ERR-06"), Does: "first_message_id_allowed_to_move is the newest movable message, not the oldest"},
	{Name: "movable-count-off-by-one", Operator: Boundary, Requirements: reqs("ERR-07"), Does: "total_messages_allowed_to_move is one more than the messages that may be moved"},
	{Name: "detached-uploads-never-listed", Operator: StaleView, Requirements: reqs("OP01-26", "STATE-23"), Does: "detached_uploads is always empty, also when the edit removed a file's last reference"},
	{Name: "resolve-notifies-new-thread", Operator: Combination, Requirements: reqs("STATE-02"), Does: "resolving a topic also sends the moved-here notification of send_notification_to_new_thread"},
	{Name: "content-edit-limit-ignored", Operator: RefusedApplied, Requirements: reqs("LIMIT-05"), Does: "message_content_edit_limit_seconds is not enforced"},
	{Name: "move-limits-swapped", Operator: Combination, Requirements: reqs("LIMIT-06", "LIMIT-07"), Does: "a topic move is bounded by move_messages_between_streams_limit_seconds and a channel move by the within-channel limit"},

	// Operation 5: matches narrow; operation 6: fetch a single message.
	{Name: "search-highlight-dropped", Operator: WrongValue, Requirements: reqs("OP05-05"), Does: "search matches are not wrapped in highlight spans"},
	{Name: "fetch-allow-empty-topic-ignored", Operator: WrongValue, Requirements: reqs("OP06-05"), Does: "allow_empty_topic_name=true still shows the empty topic as realm_empty_topic_display_name"},
	{Name: "edit-history-empty-topic-shown-empty", Operator: WrongValue, Requirements: reqs("OP06-04"), Does: "the edit history shows the empty topic as \"\" to clients that did not ask for empty topic names"},
	{Name: "fetch-others-direct-message", Operator: Privacy, Requirements: reqs("OP06-10"), Does: "a direct message between two other users can be fetched"},
	{Name: "fetch-missing-message-code", Operator: ErrorCode, Requirements: reqs("OP06-09", "ERR-04"), Does: "a missing message answers NOT_FOUND, not BAD_REQUEST"},

	// Operation 8: delete a topic; operation 12: get topics.
	{Name: "delete-topic-display-name-literal", Operator: WrongValue, Requirements: reqs("OP08-03"), Does: "topic_name equal to realm_empty_topic_display_name names that text, not the empty topic"},
	{Name: "delete-topic-in-every-channel", Operator: WrongValue, Requirements: reqs("OP08-01", "STATE-14"), Does: "deleting a topic deletes the topic of that name in every channel"},
	{Name: "partially-completed-at-every-level", Operator: Complete, Requirements: reqs("ERR-02", "ERR-03"), Does: "a batch run that stopped early answers result partially_completed at every level"},
	{Name: "topics-missing-channel-empty", Operator: ErrorCode, Requirements: reqs("OP12-07"), Does: "the topics of a channel that does not exist are an empty list"},
	{Name: "topics-private-channel-listed", Operator: Privacy, Requirements: reqs("OP12-08"), Does: "the topics of a private channel the requester cannot access are listed"},
	{Name: "topics-allowed-empty-name-shown-display", Operator: WrongValue, Requirements: reqs("OP12-02"), Does: "allow_empty_topic_name=true still lists the empty topic as realm_empty_topic_display_name"},

	// Operation 19: mark all as read; operation 15: reminders.
	{Name: "mark-all-read-skips-direct", Operator: StaleView, Requirements: reqs("OP19-02", "STATE-12", "VER-06"), Does: "mark all as read leaves direct messages unread"},
	{Name: "mark-all-read-for-everyone", Operator: WrongValue, Requirements: reqs("OP19-02", "STATE-12"), Does: "mark all as read marks the messages read for every user who has them"},
	{Name: "reminder-unreadable-message-accepted", Operator: Privacy, Requirements: reqs("OP15-01"), Does: "a reminder of a message the requester cannot read is created"},
	{Name: "reminder-note-required", Operator: WrongValue, Requirements: reqs("OP15-03"), Does: "a reminder without note is refused"},
	// Added with the table: the cells the first two rounds left open.
	{Name: "raw-markdown-content-rendered", Operator: WrongValue, Requirements: reqs("MSG-09", "OP06-02"), Does: "apply_markdown=false still answers HTML content"},
	{Name: "display-recipient-first-channel", Operator: StaleView, Requirements: reqs("MSG-17", "OP01-17"), Does: "after a channel move, display_recipient still names the channel the message was sent to"},
	{Name: "change-all-spares-earlier", Operator: Combination, Requirements: reqs("OP01-08"), Does: "propagate_mode=change_all moves only the message and the later ones"},
	{Name: "propagate-mode-any-value", Operator: RefusedApplied, Requirements: reqs("OP01-09"), Does: "a propagate_mode other than the three is accepted"},
	{Name: "whole-topic-limit-counts-inaccessible", Operator: Privacy, Requirements: reqs("OP01-23", "ERR-07"), Does: "the whole-topic time limit counts messages of a protected-history channel the mover cannot read"},
	{Name: "empty-topic-refused-in-edits", Operator: RefusedApplied, Requirements: reqs("VER-14"), Does: "moving a message to the empty topic is refused at every level"},
	{Name: "register-max-message-length-plus-one", Operator: Boundary, Requirements: reqs("LIMIT-03", "LIMIT-04"), Does: "register gives max_message_length one more than the bound edits enforce"},
	{Name: "edit-typing-op-any-value", Operator: RefusedApplied, Requirements: reqs("OP13-01"), Does: "edit typing accepts an op other than start and stop (as stop)"},
	{Name: "last-edit-timestamp-milliseconds", Operator: WrongValue, Requirements: reqs("MSG-34"), Does: "last_edit_timestamp is in milliseconds"},
	{Name: "last-moved-timestamp-milliseconds", Operator: WrongValue, Requirements: reqs("MSG-36"), Does: "last_moved_timestamp is in milliseconds"},
	{Name: "reminder-not-listed", Operator: StaleView, Requirements: reqs("STATE-19"), Does: "a created reminder is answered with its ID and never listed"},
	{Name: "topics-of-every-channel", Operator: WrongValue, Requirements: reqs("OP12-03"), Does: "the topic list of a channel holds the topics of every channel the requester can access"},
	{Name: "flag-events-to-everyone", Operator: Isolation, Requirements: reqs("EVENT-07"), Does: "a user's update_message_flags events (mark all as read, starring) reach every user's queue"},
	{Name: "deletion-events-to-everyone", Operator: Isolation, Requirements: reqs("EVENT-07"), Does: "delete_message events of a deleted topic reach every user, also those who could not read it"},
	{Name: "direct-edit-event-to-everyone", Operator: Isolation, Requirements: reqs("EVENT-07"), Does: "the update_message event of a direct message's edit reaches every user"},
	// The cells left open after the table: a second submitter, a second store, events.
	{Name: "submessage-sender-of-message", Operator: WrongValue, Requirements: reqs("MSG-47"), Does: "a submessage's sender_id is the message's sender, whoever added it: per message, not per submessage"},
	{Name: "emptied-topic-still-listed", Operator: StaleView, Requirements: reqs("RES-18"), Does: "a topic whose messages were all deleted stays in the topic list"},
	{Name: "mark-all-read-event-says-unread", Operator: EventState, Requirements: reqs("STATE-12"), Does: "the update_message_flags event of mark all as read says op remove: the messages made read announced as made unread"},
	{Name: "move-event-to-users-losing-access", Operator: Isolation, Requirements: reqs("EVENT-07"), Does: "users a channel move takes a message away from get the update_message event with its new channel and topic, besides the deletion"},
	{Name: "reminder-events-to-everyone", Operator: Isolation, Requirements: reqs("EVENT-07"), Does: "a user's reminders events (a reminder set, cancelled) reach every user's queue"},
}

func init() { Entries = append(Entries, messageEntries...) }
