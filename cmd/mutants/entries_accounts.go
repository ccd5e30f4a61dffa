package main

// The mutants and variants of users, accounts and integrations (operations 2, 3, 4, 7, 9, 10,
// 11, 14, 16, 17, 18, 20 and 21, the user, presence, linkifier, playground and subscription
// resources, authentication and email visibility), kept apart from entries.go so that the
// two halves of the catalogue grow without touching each other.
func init() { Entries = append(Entries, accountEntries...) }

var accountEntries = []Entry{
	// Wrong value of the right type.
	{Name: "deactivated-shown-active", Operator: WrongValue, Requirements: reqs("RES-09"), Does: "a deactivated user's object says is_active=true"},
	{Name: "owner-not-admin", Operator: WrongValue, Requirements: reqs("RES-10"), Does: "an owner's object says is_admin=false"},
	{Name: "bot-type-always-generic", Operator: WrongValue, Requirements: reqs("RES-11"), Does: "every bot's object says bot_type=1, whatever its type"},
	{Name: "bot-owner-id-of-bot", Operator: WrongValue, Requirements: reqs("RES-12"), Does: "a bot's bot_owner_id is the bot's own ID"},
	{Name: "moderator-role-shown-member", Operator: WrongValue, Requirements: reqs("RES-13"), Does: "a moderator's object says role=400"},
	{Name: "presence-server-timestamp-ms", Operator: WrongValue, Requirements: reqs("OP04-12"), Does: "server_timestamp of a presence update is in milliseconds"},
	{Name: "presence-modern-timestamps-ms", Operator: WrongValue, Requirements: reqs("RES-19"), Does: "the modern format's active_timestamp and idle_timestamp are in milliseconds"},
	{Name: "presence-legacy-always-active", Operator: WrongValue, Requirements: reqs("RES-21"), Does: "every legacy presence entry says status active, also for an idle user"},
	{Name: "presence-update-id-zero-when-none", Operator: WrongValue, Requirements: reqs("OP04-11"), Does: "presence_last_update_id is 0, not -1, when none was passed and no data was returned"},
	{Name: "ping-only-update-id-zero", Operator: WrongValue, Requirements: reqs("OP04-11"), Does: "a ping_only answer without last_update_id gives presence_last_update_id 0, not -1"},
	{Name: "presence-legacy-with-update-id", Operator: WrongValue, Requirements: reqs("OP04-03"), Does: "presences is in the legacy format when last_update_id is passed (without slim_presence)"},
	{Name: "presence-legacy-when-slim", Operator: WrongValue, Requirements: reqs("OP04-07"), Does: "slim_presence=true without last_update_id answers the legacy format"},
	{Name: "presence-modern-by-default", Operator: WrongValue, Requirements: reqs("OP04-08"), Does: "without last_update_id and slim_presence, presences is in the modern format"},
	{Name: "jwt-profile-user-id-of-next", Operator: WrongValue, Requirements: reqs("OP09-05"), Does: "the user object of include_profile=true has the next user's ID"},
	{Name: "pin-to-top-inverted", Operator: WrongValue, Requirements: reqs("OP10-05", "RES-35"), Does: "pin_to_top is stored as the opposite of the value sent"},
	{Name: "is-muted-shown-false", Operator: WrongValue, Requirements: reqs("RES-33", "STATE-10"), Does: "a subscription's is_muted reads false, also for a muted channel"},
	{Name: "playground-id-of-next", Operator: WrongValue, Requirements: reqs("OP14-05", "RES-27"), Does: "adding a playground answers the ID the next playground will get"},
	{Name: "playground-language-of-name", Operator: WrongValue, Requirements: reqs("RES-28"), Does: "a playground's pygments_language is stored as its name"},
	{Name: "linkifier-id-of-next", Operator: WrongValue, Requirements: reqs("OP17-02", "RES-23"), Does: "adding a linkifier answers the ID the next linkifier will get"},
	{Name: "linkifier-reverse-template-dropped", Operator: WrongValue, Requirements: reqs("RES-25"), Does: "a linkifier's reverse_template is listed as null whatever was set"},
	{Name: "linkifier-alternatives-dropped", Operator: WrongValue, Requirements: reqs("RES-26"), Does: "a linkifier's alternative_url_templates is listed empty whatever was set"},
	{Name: "presence-minus-one-as-latest", Operator: WrongValue, Requirements: reqs("OP04-02"), Does: "last_update_id=-1 answers as if the client were up to date: no presence data"},
	{Name: "linkifier-example-input-dropped", Operator: WrongValue, Requirements: reqs("RES-24"), Does: "a linkifier's example_input is listed as null whatever was set"},
	{Name: "vcall-url-empty", Operator: WrongValue, Requirements: reqs("OP21-01"), Does: "creating a video call answers url as the empty string"},

	// Exact boundary, and input the rule refuses accepted.
	{Name: "presence-history-default-13-days", Operator: Boundary, Requirements: reqs("LIMIT-08", "OP04-04"), Does: "history_limit_days defaults to 13 days, not 14"},
	{Name: "push-key-id-over-32-bits-accepted", Operator: Boundary, Requirements: reqs("OP07-02", "LIMIT-10"), Does: "push_key_id 2^32 is accepted"},
	{Name: "push-key-34-bytes-accepted", Operator: Boundary, Requirements: reqs("OP07-03", "LIMIT-11"), Does: "a push key of 0x31 and 33 key bytes is accepted"},
	{Name: "push-key-only-initial-accepted", Operator: Boundary, Requirements: reqs("OP07-06"), Does: "an initial registration with only the push key fields is accepted"},
	{Name: "profile-link-any-text", Operator: Boundary, Requirements: reqs("OP02-10"), Does: "a link field accepts text that is not a URL"},
	{Name: "profile-users-any-id", Operator: Boundary, Requirements: reqs("OP02-11"), Does: "a users field accepts IDs of no user"},
	{Name: "presence-any-status-idle", Operator: Boundary, Requirements: reqs("OP04-01"), Does: "a status other than active or idle is accepted, as idle"},
	{Name: "mute-both-channel-refs-accepted", Operator: Boundary, Requirements: reqs("OP03-01"), Does: "topic muting with both stream_id and stream is accepted"},

	// Refused, but applied.
	{Name: "update-by-dummy-email-refused", Operator: Combination, Requirements: reqs("OP02-03"), Does: "update a user by email refuses the dummy address user<id>@<realm host> (the real one works)"},
	{Name: "guest-admin-refused-but-applied", Operator: RefusedApplied, Requirements: reqs("OP02-14"), Does: "making a guest an administrator is refused, and the role changed anyway"},
	{Name: "push-invalid-key-registered", Operator: RefusedApplied, Requirements: reqs("OP07-03"), Does: "a registration with an invalid push_key is refused, and the device's push_key_id set anyway"},
	{Name: "vcall-unconfigured-accepted", Operator: RefusedApplied, Requirements: reqs("OP21-02"), Does: "without the video-call integration configured a meeting URL is answered"},

	// Applied, but one view stale.
	{Name: "guest-admin-accepted-not-applied", Operator: StaleView, Requirements: reqs("OP02-14"), Does: "making a guest an administrator answers success and changes nothing"},
	{Name: "mute-not-applied", Operator: StaleView, Requirements: reqs("OP03-06", "STATE-04"), Does: "op=add answers success and mutes nothing"},
	{Name: "color-not-stored", Operator: StaleView, Requirements: reqs("OP10-05", "RES-32"), Does: "setting a subscription's color answers success and keeps the old color"},
	{Name: "bot-storage-omitted-keys-removes-nothing", Operator: StaleView, Requirements: reqs("OP20-03"), Does: "omitting keys answers success and removes nothing"},
	{Name: "vcall-token-register-false", Operator: StaleView, Requirements: reqs("OP21-04"), Does: "the registration response's has_vcall_token is false for a user holding a token"},
	{Name: "history-limit-days-ignored", Operator: StaleView, Requirements: reqs("OP04-04"), Does: "history_limit_days is accepted and the default of 14 days applies"},

	// One half of a pair.
	{Name: "profile-null-kept", Operator: HalfPair, Requirements: reqs("OP02-09"), Does: "a profile_data value can be set but null does not remove it"},
	{Name: "email-visibility-widening-ignored", Operator: HalfPair, Requirements: reqs("AUTH-18", "RES-06"), Does: "email_address_visibility can be narrowed but not widened: a change to a setting that admits more viewers answers success and keeps the old one"},
	{Name: "role-back-to-member-ignored", Operator: HalfPair, Requirements: reqs("OP02-05"), Does: "a role can be granted but not taken back: role 400 (member) for a user of another role answers success and keeps the role"},
	{Name: "push-token-rotation-ignored", Operator: HalfPair, Requirements: reqs("OP07-09"), Does: "rotating only the token answers success and keeps the old token (key rotation works)"},

	// One kind of actor.
	{Name: "deactivated-user-authenticates", Operator: ActorKind, Requirements: reqs("ERR-12"), Does: "a deactivated user's email and API key authenticate, as an active user's do"},
	{Name: "guest-auth-refused", Operator: ActorKind, Requirements: reqs("AUTH-01"), Does: "a guest's email and API key are refused as for a deactivated account (members, administrators and owners authenticate)"},
	{Name: "bot-auth-refused", Operator: ActorKind, Requirements: reqs("AUTH-02"), Does: "a bot's email and API key are refused as for a deactivated account"},
	{Name: "login-email-not-checked", Operator: ActorKind, Requirements: reqs("AUTH-07", "AUTH-06"), Does: "any email authenticates with another user's API key"},
	{Name: "moderator-updates-users", Operator: ActorKind, Requirements: reqs("OP02-01", "AUTH-10"), Does: "a moderator may update a user by email"},
	{Name: "new-email-without-permission", Operator: ActorKind, Requirements: reqs("OP02-12", "AUTH-13"), Does: "an owner without can_change_user_emails may change a user's email"},
	{Name: "create-user-without-permission", Operator: ActorKind, Requirements: reqs("OP11-02", "AUTH-11"), Does: "an administrator without can_create_users may create a user"},
	{Name: "attachment-of-other-user-deleted", Operator: ActorKind, Requirements: reqs("OP18-02"), Does: "a user may delete another user's attachment"},
	{Name: "bot-storage-for-humans", Operator: ActorKind, Requirements: reqs("OP20-01", "AUTH-14"), Does: "a human may remove bot storage (their own) at a level where it is for bots only"},
	{Name: "jwt-needs-credentials", Operator: ActorKind, Requirements: reqs("OP09-01", "AUTH-03"), Does: "the JWT fetch refuses a caller without HTTP Basic credentials"},
	{Name: "jwt-signature-unchecked", Operator: ActorKind, Requirements: reqs("OP09-02", "AUTH-04"), Does: "a JWT signed with another key is exchanged for the user's API key"},

	// Combinations the document names.
	{Name: "history-limit-with-update-id", Operator: Combination, Requirements: reqs("LIMIT-09"), Does: "history_limit_days also applies when last_update_id is greater than 0"},
	{Name: "mute-empty-topic-refused", Operator: Combination, Requirements: reqs("STATE-06"), Does: "muting a topic that has no messages is refused"},
	{Name: "mute-by-channel-name-refused", Operator: Combination, Requirements: reqs("OP03-02"), Does: "topic muting naming the channel by stream is refused"},

	// Privacy on every surface.
	{Name: "bot-delivery-email-hidden", Operator: Privacy, Requirements: reqs("RES-07"), Does: "a new bot takes the realm's default email visibility for new users, and its delivery_email follows it like a human's (null for viewers it excludes)"},
	{Name: "members-visibility-shown-to-guests", Operator: Privacy, Requirements: reqs("AUTH-19", "RES-06"), Does: "a guest sees the real email of a user whose visibility is members only"},
	{Name: "moderators-visibility-shown-to-members", Operator: Privacy, Requirements: reqs("AUTH-19", "RES-06"), Does: "a member sees the real email of a user whose visibility is moderators only"},
	{Name: "admins-visibility-hidden-from-admins", Operator: Privacy, Requirements: reqs("AUTH-18", "RES-06", "OP02-02"), Does: "administrators do not see the real email of a user whose visibility is administrators only"},
	{Name: "presence-event-real-email", Operator: Privacy, Requirements: reqs("RES-08", "AUTH-19"), Does: "presence events carry the user's real email to every client, also those who may not see it"},
	sample(Entry{Name: "register-users-real-email", Operator: Privacy, Requirements: reqs("RES-08", "AUTH-19"), Does: "realm_users of the registration state shows every user's real address as email"}),

	// Event isolation.
	{Name: "user-topic-event-to-everyone", Operator: Isolation, Requirements: reqs("EVENT-07"), Does: "a user's user_topic events (topic muting) reach every user"},

	// The documented error code.
	{Name: "attachment-missing-as-not-found", Operator: ErrorCode, Requirements: reqs("OP18-02", "ERR-04"), Does: "deleting an attachment ID that does not exist answers NOT_FOUND (HTTP 404), not BAD_REQUEST"},
	{Name: "unauthorized-msg-empty", Operator: ErrorCode, Requirements: reqs("AUTH-08"), Does: "the UNAUTHORIZED error's msg is the empty string"},

	// Ordering.
	{Name: "linkifiers-listed-newest-first", Operator: Ordering, Requirements: reqs("OP17-03"), Does: "linkifiers are listed in the reverse of the realm's order"},

	// Benign variants.
	{Name: "variant-guest-made-administrator", Operator: Variant, Does: "a guest made an administrator becomes one (role 200), as on the real server, whose update_user_backend has no guest check"},
	{Name: "variant-ping-only-without-update-id", Operator: Variant, Does: "a ping_only presence answer leaves presence_last_update_id out, as the real server does"},
}
