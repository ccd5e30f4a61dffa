package main

// restEntries are the mutants of the requirements neither other part covers: the conventions
// and the error envelope, versioning, attachments' automatic deletion and level forms, the
// permission rules of delete topic and moves, and the user object's is_imported_stub
// (docs/mutation-rest.md has their table, with the cells no operator fills and why).
func init() { Entries = append(Entries, restEntries...) }

var restEntries = []Entry{
	// Wrong value of the right type.
	{Name: "success-msg-ok", Operator: WrongValue, Requirements: reqs("CONV-05"), Does: "a success reply built as a map says msg \"OK\", not the empty string"},
	{Name: "error-code-dropped", Operator: WrongValue, Requirements: reqs("CONV-07"), Does: "an error reply has result and msg but no code"},
	{Name: "ignored-parameters-as-string", Operator: WrongValue, Requirements: reqs("CONV-09"), Does: "ignored_parameters_unsupported is the names joined by commas, a string, not an array"},
	{Name: "feature-level-as-string", Operator: WrongValue, Requirements: reqs("VER-02"), Does: "/server_settings gives zulip_feature_level as a string of digits"},
	{Name: "version-without-minor", Operator: WrongValue, Requirements: reqs("VER-03"), Does: "/server_settings gives zulip_version as the major number alone"},
	{Name: "attachment-create-time-ms", Operator: WrongValue, Requirements: reqs("VER-25", "RES-03"), Does: "an attachment's create_time is in milliseconds at every level"},
	{Name: "attachment-messages-at-modern-level", Operator: WrongValue, Requirements: reqs("VER-26", "RES-04"), Does: "an attachment lists messages in place of message_ids at every level"},
	{Name: "push-old-form-at-modern-level", Operator: WrongValue, Requirements: reqs("VER-20"), Does: "push registration takes only its form of levels 406 to 467 (every field required, the registration named by push_account_id) at every level"},
	// At a level boundary: the fake runs at the boundary, or at the level below it.
	{Name: "bot-storage-bots-only-one-level-late", Operator: Boundary, Requirements: reqs("VER-23"), Level: 494, Does: "bot storage is refused to humans only from level 495, one level late"},
	{Name: "presence-protocol-one-level-late", Operator: Boundary, Requirements: reqs("VER-24"), Level: 263, Does: "update your presence reads last_update_id only from level 264, one level late"},
	{Name: "attachment-create-time-seconds-early", Operator: WrongValue, Requirements: reqs("VER-27"), Level: 442, Does: "at level 442 an attachment's create_time is already in seconds"},
	{Name: "attachment-message-ids-early", Operator: WrongValue, Requirements: reqs("VER-28"), Level: 471, Does: "at level 471 an attachment already lists message_ids in place of messages"},
	{Name: "every-user-imported-stub", Operator: WrongValue, Requirements: reqs("RES-36"), Does: "every user object says is_imported_stub=true, also for users who were never imported"},

	// Applied, but one view stale.
	{Name: "attachment-kept-after-last-reference", Operator: StaleView, Requirements: reqs("STATE-16"), Does: "deleting the last message that references an attachment leaves the attachment listed"},
	{Name: "unused-upload-never-expires", Operator: StaleView, Requirements: reqs("STATE-17", "LIMIT-12"), Does: "an upload no message references is never deleted automatically"},

	// Input the rule accepts refused.
	{Name: "slim-presence-refused", Operator: Boundary, Requirements: reqs("VER-07"), Does: "update your presence refuses the deprecated slim_presence parameter"},

	{Name: "push-key-refused", Operator: Boundary, Requirements: reqs("VER-22"), Does: "push registration refuses a request carrying push_key"},
	{Name: "push-registration-not-found", Operator: Boundary, Requirements: reqs("VER-19"), Does: "POST /mobile_push/register answers as for a route the server does not have (HTTP 404)"},

	// Refused, but applied.
	{Name: "delete-topic-refused-but-applied", Operator: RefusedApplied, Requirements: reqs("AUTH-09"), Does: "delete topic by a non-administrator is refused, and the topic's messages deleted anyway"},

	{Name: "refused-move-applied", Operator: RefusedApplied, Requirements: reqs("AUTH-16", "AUTH-17"), Does: "a move the group settings or time limits refuse is refused, and the messages moved anyway"},

	// One kind of actor.
	{Name: "linkifiers-without-credentials", Operator: ActorKind, Requirements: reqs("CONV-08", "AUTH-05"), Does: "GET /realm/linkifiers answers a request without credentials with the realm's linkifiers"},
	{Name: "delete-topic-by-moderators", Operator: ActorKind, Requirements: reqs("AUTH-09"), Does: "moderators may delete a topic, which is for administrators only"},
	{Name: "topic-move-group-ignored", Operator: ActorKind, Requirements: reqs("AUTH-16"), Does: "anyone may move messages between topics, whatever can_move_messages_between_topics_group says"},
	{Name: "channel-move-group-ignored", Operator: ActorKind, Requirements: reqs("AUTH-17"), Does: "anyone may move messages between channels, whatever can_move_messages_between_channels_group says"},
}
