package main

// Entries are the mutants and benign variants, each named for its mutation point in the fake
// (mutation.On), grouped by operator. A mutant names the requirements it breaks: it is killed
// when at least one of them fails.
var Entries = []Entry{
	// Wrong value of the right type.
	sample(Entry{Name: "recipient-id-per-message", Operator: WrongValue, Requirements: reqs("MSG-19"), Does: "recipient_id is the message's own ID, a new value per message where it names the conversation"}),
	sample(Entry{Name: "sender-realm-per-sender", Operator: WrongValue, Requirements: reqs("MSG-13"), Does: "sender_realm_str is the sender's full name: a string per sender, not the realm's"}),
	sample(Entry{Name: "emoji-code-of-another-emoji", Operator: WrongValue, Requirements: reqs("MSG-46"), Does: "a unicode reaction's emoji_code in messages is the code of another emoji (1f600), of the right form"}),
	{Name: "reaction-user-is-sender", Operator: WrongValue, Requirements: reqs("MSG-44"), Does: "a reaction's user_id is the message's sender, not the reacting user"},
	{Name: "sender-email-real-always", Operator: Privacy, Requirements: reqs("MSG-12", "AUTH-19", "RES-08"), Does: "sender_email is the sender's real address even where the requester may only see the dummy one"},
	{Name: "is-me-message-never", Operator: WrongValue, Requirements: reqs("MSG-21"), Does: "is_me_message is false for a /me message"},
	{Name: "timestamp-milliseconds", Operator: WrongValue, Requirements: reqs("MSG-11"), Does: "a message's timestamp is in milliseconds"},
	{Name: "dm-recipients-without-sender", Operator: WrongValue, Requirements: reqs("MSG-18"), Does: "display_recipient of a direct message leaves the sender out"},
	{Name: "topic-max-id-of-first-message", Operator: WrongValue, Requirements: reqs("RES-17"), Does: "a topic entry's max_id is the ID of the topic's first message"},
	{Name: "in-home-view-not-inverted", Operator: WrongValue, Requirements: reqs("RES-34", "VER-13"), Does: "in_home_view=true mutes the channel, as if it were is_muted"},
	{Name: "ping-only-ignored", Operator: WrongValue, Requirements: reqs("OP04-05"), Does: "ping_only=true answers presences and server_timestamp as if it were false"},

	{Name: "apply-markdown-default-false", Operator: WrongValue, Requirements: reqs("OP06-01"), Does: "a fetched message's content is raw Markdown when apply_markdown is not sent"},
	{Name: "jwt-profile-by-default", Operator: WrongValue, Requirements: reqs("OP09-04"), Does: "the JWT fetch answers user when include_profile is not sent"},
	{Name: "matches-narrow-subject-unescaped", Operator: WrongValue, Requirements: reqs("OP05-03"), Does: "match_subject is the topic as it is, not HTML-escaped"},
	{Name: "reminder-note-dropped", Operator: WrongValue, Requirements: reqs("RES-31"), Does: "the reminder message leaves the note out"},

	{Name: "topics-empty-name-by-default", Operator: WrongValue, Requirements: reqs("OP12-01"), Does: "the topic list reports the empty topic as the empty string when allow_empty_topic_name is not sent"},
	{Name: "attachment-message-ids-own-only", Operator: WrongValue, Requirements: reqs("RES-04"), Does: "an attachment's message_ids lists only its owner's messages, not other users' that reference the file"},
	{Name: "ignored-parameters-never-listed", Operator: WrongValue, Requirements: reqs("CONV-10", "VER-04"), Does: "replies built as maps never carry ignored_parameters_unsupported (typed replies still do)"},

	{Name: "propagate-mode-default-change-all", Operator: WrongValue, Requirements: reqs("OP01-06"), Does: "a topic edit without propagate_mode moves the whole topic"},

	{Name: "create-user-id-of-next", Operator: WrongValue, Requirements: reqs("OP11-04"), Does: "create user answers the ID the next user will get, not the new user's"},
	{Name: "jwt-api-key-rotated", Operator: WrongValue, Requirements: reqs("AUTH-04", "OP09-03"), Does: "the JWT fetch answers a key of the right form that is not the user's"},

	{Name: "reminder-id-of-next", Operator: WrongValue, Requirements: reqs("OP15-04"), Does: "creating a reminder answers the ID the next reminder will get"},
	{Name: "reminder-timestamp-milliseconds", Operator: WrongValue, Requirements: reqs("RES-30", "OP15-02"), Does: "a reminder's scheduled_delivery_timestamp is shown in milliseconds"},

	// Exact boundary.
	sample(Entry{Name: "mute-topic-refused-at-limit", Operator: Boundary, Requirements: reqs("OP03-04", "LIMIT-02"), Does: "topic muting refuses a topic of exactly max_topic_length characters"}),
	{Name: "presence-update-id-below-passed", Operator: Boundary, Requirements: reqs("OP04-09", "OP04-10"), Does: "with no updates, presence_last_update_id is one less than the last_update_id passed"},
	{Name: "playground-extra-variable-accepted", Operator: Boundary, Requirements: reqs("OP14-04", "RES-29"), Does: "a playground url_template with code and a second variable is accepted"},

	{Name: "only-owner-demoted", Operator: Boundary, Requirements: reqs("OP02-07"), Does: "the only owner can lose the owner role"},

	{Name: "register-max-topic-length-plus-one", Operator: Boundary, Requirements: reqs("LIMIT-01", "LIMIT-02"), Does: "register gives max_topic_length one more than the bound the server enforces"},
	{Name: "prev-content-sha256-ignored", Operator: RefusedApplied, Requirements: reqs("OP01-15"), Does: "an edit whose prev_content_sha256 does not match the stored content succeeds"},

	{Name: "edit-content-one-over-limit", Operator: Boundary, Requirements: reqs("OP01-14", "LIMIT-04"), Does: "an edit stores content of max_message_length + 1 characters"},
	{Name: "color-any-string-accepted", Operator: Boundary, Requirements: reqs("OP10-03"), Does: "a subscription color that is not a hex color is accepted"},

	{Name: "reminder-delivered-a-minute-early", Operator: Boundary, Requirements: reqs("STATE-20"), Does: "a reminder is delivered up to a minute before its scheduled time"},

	// Refused, but applied.
	sample(Entry{Name: "playground-refused-but-stored", Operator: RefusedApplied, Requirements: reqs("OP14-03"), Does: "a playground without the code variable is refused, and stored anyway"}),
	sample(Entry{Name: "bot-storage-refused-but-removed", Operator: RefusedApplied, Requirements: reqs("OP20-04"), Does: "removing stored keys with one missing is refused, and the present ones are removed anyway"}),

	{Name: "bot-storage-empty-keys-removes-all", Operator: WrongValue, Requirements: reqs("OP20-02"), Does: "keys=[] removes all of the bot's storage, as if keys were omitted"},

	{Name: "refused-role-change-renames", Operator: RefusedApplied, Requirements: reqs("OP02-05", "OP02-06", "OP02-07", "OP02-14"), Does: "a refused role change still applies the full_name sent with it"},
	{Name: "create-user-duplicate-email-accepted", Operator: RefusedApplied, Requirements: reqs("OP11-05"), Does: "creating a user with an email in use succeeds"},
	{Name: "edit-typing-invisible-message-accepted", Operator: RefusedApplied, Requirements: reqs("OP13-03"), Does: "edit typing on a missing or invisible message succeeds"},
	{Name: "vcall-without-token-accepted", Operator: RefusedApplied, Requirements: reqs("OP21-03"), Does: "a user without a video-call token gets a meeting URL"},

	{Name: "direct-message-topic-edit-accepted", Operator: RefusedApplied, Requirements: reqs("OP01-27"), Does: "a topic edit of a direct message answers success (and changes nothing)"},

	{Name: "ping-only-status-not-recorded", Operator: StaleView, Requirements: reqs("STATE-09"), Does: "a ping_only report answers success and records no status"},

	// Applied, but one view stale.
	sample(Entry{Name: "attachment-file-still-served", Operator: StaleView, Requirements: reqs("STATE-18", "OP18-01"), Does: "a deleted attachment is gone from the list, but its file is still served"}),
	{Name: "attachment-delete-not-applied", Operator: StaleView, Requirements: reqs("OP18-03", "STATE-18"), Does: "deleting an attachment answers success and keeps it"},
	{Name: "first-message-id-stale", Operator: StaleView, Requirements: reqs("EVENT-02", "EVENT-03"), Does: "a channel's first_message_id never changes once set, when its oldest message is deleted or moved"},
	{Name: "notification-sets-every-notification", Operator: StaleView, Requirements: reqs("OP10-05"), Does: "setting one notification property of a subscription sets the other four too"},

	{Name: "full-name-not-applied", Operator: StaleView, Requirements: reqs("OP02-04"), Does: "a full_name change answers success and changes nothing"},
	{Name: "linkifier-reorder-not-applied", Operator: StaleView, Requirements: reqs("OP17-04"), Does: "reordering linkifiers answers success and keeps the old order"},
	{Name: "push-legacy-registration-kept", Operator: StaleView, Requirements: reqs("OP07-10", "VER-21"), Does: "an E2EE push registration leaves the matching legacy registration in place"},

	// One half of a pair.
	sample(Entry{Name: "unmute-ignored", Operator: HalfPair, Requirements: reqs("STATE-07", "OP03-07"), Does: "op=remove answers success and leaves the topic muted"}),
	sample(Entry{Name: "unresolve-refused", Operator: HalfPair, Requirements: reqs("STATE-03"), Does: "resolving works, unresolving is refused"}),

	{Name: "push-key-rotation-ignored", Operator: HalfPair, Requirements: reqs("OP07-08"), Does: "rotating only the push key answers success and keeps the old key (token rotation works)"},

	{Name: "vcall-token-never-revoked", Operator: HalfPair, Requirements: reqs("OP21-04", "EVENT-06"), Does: "a video-call token can be granted but not revoked: has_vcall_token stays true"},
	{Name: "channel-unmute-ignored", Operator: HalfPair, Requirements: reqs("OP10-05", "RES-34"), Does: "muting a channel works, unmuting answers success and leaves it muted"},

	// One kind of actor.
	sample(Entry{Name: "bot-any-key-accepted", Operator: ActorKind, Requirements: reqs("AUTH-06"), Does: "a bot's email authenticates with any well-formed API key"}),
	sample(Entry{Name: "deactivated-user-reported-member", Operator: ActorKind, Requirements: reqs("OP16-04"), Does: "a deactivated user is reported as a member of any group"}),
	{Name: "resolve-by-topic-movers", Operator: ActorKind, Requirements: reqs("AUTH-15", "VER-18", "STATE-01"), Does: "resolving is governed by can_move_messages_between_topics_group, not can_resolve_topics_group"},

	{Name: "admin-demotes-owners", Operator: ActorKind, Requirements: reqs("OP02-06", "AUTH-12"), Does: "an administrator may remove the owner role (not add it)"},

	// Combinations the document names.
	sample(Entry{Name: "subgroups-one-level-deep", Operator: Combination, Requirements: reqs("OP16-01"), Does: "membership through a subgroup counts one level deep only, not through a subgroup's subgroup"}),
	{Name: "change-later-moves-whole-topic", Operator: Combination, Requirements: reqs("OP01-07"), Does: "propagate_mode=change_later moves the earlier messages of the topic too"},
	{Name: "direct-member-only-ignored", Operator: Combination, Requirements: reqs("OP16-02"), Does: "direct_member_only=true still counts membership through subgroups"},
	{Name: "subgroup-membership-ignored", Operator: Combination, Requirements: reqs("OP16-01"), Does: "by default membership through subgroups does not count"},

	// Privacy on every surface.
	sample(Entry{Name: "delivery-email-event-to-everyone", Operator: Privacy, Requirements: reqs("RES-06"), Does: "a changed real email is announced in realm_user events to every user, not only those who may see it"}),

	sample(Entry{Name: "fetch-protected-history-shown", Operator: Privacy, Requirements: reqs("OP06-10"), Does: "fetching a message of a protected-history channel from before the requester subscribed succeeds"}),
	{Name: "topics-protected-history-shown", Operator: Privacy, Requirements: reqs("OP12-05", "OP12-06"), Does: "the topic list of a protected-history channel includes topics from before the requester subscribed"},

	{Name: "presence-keyed-by-real-email", Operator: Privacy, Requirements: reqs("AUTH-19", "RES-08"), Does: "the legacy presence format is keyed by the real address, also for viewers who may not see it"},
	{Name: "delivery-email-shown-to-all", Operator: Privacy, Requirements: reqs("RES-06", "AUTH-19"), Does: "every viewer is shown delivery_email, whatever the user's email visibility"},

	// Event isolation.
	sample(Entry{Name: "subscription-event-to-every-subscriber", Operator: Isolation, Requirements: reqs("EVENT-07"), Does: "a user's subscription settings events go to every subscriber of the channel"}),

	{Name: "edit-typing-to-everyone", Operator: Isolation, Requirements: reqs("EVENT-07"), Does: "edit typing events reach every user, not only the message's recipients"},

	{Name: "direct-typing-to-everyone", Operator: Isolation, Requirements: reqs("EVENT-07"), Does: "direct message typing events reach every user, not only the conversation's"},
	{Name: "reaction-event-to-everyone", Operator: Isolation, Requirements: reqs("EVENT-07"), Does: "reaction events reach every user, also those who cannot read the message"},

	// The documented error code.
	sample(Entry{Name: "code-unauthorized-principal-as-bad-request", Operator: ErrorCode, Requirements: reqs("ERR-11", "OP08-06"), Does: "UNAUTHORIZED_PRINCIPAL answered as BAD_REQUEST"}),
	{Name: "code-permission-denied-as-bad-request", Operator: ErrorCode, Requirements: reqs("ERR-13", "OP20-01"), Does: "PERMISSION_DENIED answered as BAD_REQUEST"},
	{Name: "code-push-not-configured-as-bad-request", Operator: ErrorCode, Requirements: reqs("ERR-10", "OP07-11"), Does: "PUSH_SERVICE_NOT_CONFIGURED answered as BAD_REQUEST"},
	{Name: "code-move-time-limit-as-bad-request", Operator: ErrorCode, Requirements: reqs("ERR-05", "OP01-20"), Does: "MOVE_MESSAGES_TIME_LIMIT_EXCEEDED answered as BAD_REQUEST"},
	{Name: "code-stream-wildcard-as-bad-request", Operator: ErrorCode, Requirements: reqs("ERR-08", "OP01-24", "LIMIT-13", "LIMIT-14"), Does: "STREAM_WILDCARD_MENTION_NOT_ALLOWED answered as BAD_REQUEST"},
	{Name: "code-topic-wildcard-as-bad-request", Operator: ErrorCode, Requirements: reqs("ERR-09", "OP01-25", "LIMIT-13", "LIMIT-14"), Does: "TOPIC_WILDCARD_MENTION_NOT_ALLOWED answered as BAD_REQUEST"},
	{Name: "code-unauthorized-as-bad-request", Operator: ErrorCode, Requirements: reqs("AUTH-05", "AUTH-06", "AUTH-07", "ERR-12"), Does: "UNAUTHORIZED answered as BAD_REQUEST with HTTP 400"},

	// Event data versus state.
	{Name: "mute-one-event", Operator: EventState, Requirements: reqs("STATE-11", "EVENT-01"), Does: "muting a channel sends one subscription update event, for the property sent, not two"},
	{Name: "resolve-sets-last-moved", Operator: EventState, Requirements: reqs("MSG-37"), Does: "resolving or unresolving a topic sets last_moved_timestamp"},
	{Name: "edit-history-without-prev-content", Operator: EventState, Requirements: reqs("MSG-41", "STATE-22"), Does: "a content edit's history entry lacks prev_content and prev_rendered_content"},

	sample(Entry{Name: "vcall-token-event-stale", Operator: EventState, Requirements: reqs("EVENT-06", "OP21-04"), Does: "the has_vcall_token event says the opposite of the state it announces"}),
	{Name: "presence-event-never-sent", Operator: EventState, Requirements: reqs("EVENT-05"), Does: "no presence event when a user comes online"},
	{Name: "matches-narrow-lists-non-matching", Operator: WrongValue, Requirements: reqs("OP05-04"), Does: "messages that do not match the narrow are listed too"},

	{Name: "group-setting-event-other-value", Operator: EventState, Requirements: reqs("EVENT-04"), Does: "the update_dict event of a realm group setting carries another value than the one set"},

	// Ordering and paging.
	sample(Entry{Name: "reactions-newest-first", Operator: Ordering, Requirements: reqs("MSG-28"), Does: "a message's reactions are listed newest first"}),
	{Name: "edit-history-oldest-first", Operator: Ordering, Requirements: reqs("MSG-31"), Does: "edit_history is ordered oldest edit first"},
	{Name: "topics-oldest-first", Operator: Ordering, Requirements: reqs("OP12-04"), Does: "topics are listed least recent first"},
	{Name: "batches-oldest-first", Operator: Ordering, Requirements: reqs("STATE-13", "STATE-15"), Does: "mark all as read and delete topic work oldest first"},

	// Repeat of the same request.
	sample(Entry{Name: "mute-repeat-refused", Operator: Repeat, Requirements: reqs("STATE-05"), Does: "muting an already muted topic is refused"}),
	{Name: "unmute-unmuted-refused", Operator: Repeat, Requirements: reqs("STATE-08"), Does: "unmuting a topic that is not muted is refused"},

	// complete of batch operations.
	sample(Entry{Name: "batch-stopped-reports-complete", Operator: Complete, Requirements: reqs("STATE-13", "STATE-15", "OP08-05", "OP19-03", "OP19-02", "OP08-04"), Does: "a batch run stopped by its bound answers complete=true"}),
	{Name: "delete-topic-stopped-reports-complete", Operator: Complete, Requirements: reqs("STATE-15", "OP08-05", "OP08-04"), Does: "delete topic stopped by its bound answers complete=true"},

	// Benign variants: another choice the document leaves open; each must pass.
	sample(Entry{Name: "variant-error-messages-reworded", Operator: Variant, Does: "every error's msg says the same in other words"}),
	sample(Entry{Name: "variant-extra-reply-field", Operator: Variant, Does: "every success reply carries a field the document does not list"}),
	sample(Entry{Name: "variant-one-event-per-poll", Operator: Variant, Does: "GET /events hands out one event per poll, the others in the polls after"}),
	sample(Entry{Name: "variant-extra-event-types", Operator: Variant, Does: "a queue registered for every event type also receives an event type the document does not name"}),
	sample(Entry{Name: "variant-small-batches", Operator: Variant, Does: "mark all as read and delete topic work one message per request and answer complete=false until done"}),
	{Name: "variant-bad-request-as-422", Operator: Variant, Does: "errors the fake answers with HTTP 400 are answered with HTTP 422 (the document shows no status)"},
	{Name: "variant-extra-event-fields", Operator: Variant, Does: "every event carries a field the document does not list"},
	{Name: "variant-flags-reversed", Operator: Variant, Does: "a message's flags are listed in the reverse order (a set)"},
}
