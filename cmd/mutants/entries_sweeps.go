package main

// sweepEntries prove the class sweeps over every spec file (docs/mutation-sweeps.md): each
// mutant is a wrong server only a swept spec catches, each variant a right server making
// the other choice the swept specs now accept.
func init() { Entries = append(Entries, sweepEntries...) }

var sweepEntries = []Entry{
	// ignored_parameters_unsupported on every operation.
	{Name: "ignored-parameters-unlisted-on-patch-delete", Operator: WrongValue, Requirements: reqs("CONV-10", "VER-04"), Does: "PATCH and DELETE replies never list an ignored parameter (GET and POST replies do)"},
	{Name: "variant-ignored-parameters-as-objects", Operator: Variant, Does: "ignored_parameters_unsupported lists objects naming the parameters, not their names (the elements' shape is not shown)"},

	// HTML compared as HTML.
	{Name: "prev-rendered-content-inline", Operator: WrongValue, Requirements: reqs("MSG-41"), Does: "an edit history entry's prev_rendered_content is the old HTML without its paragraph element (its inline markup and text kept)"},
	{Name: "variant-html-character-references", Operator: Variant, Does: "rendered HTML (message content, match_subject, bot messages) writes &, <, >, \" and ' with other character references (&#38;, &#x3c;, &#62;, &quot;, &apos;, &#x27;)"},

	// Optional fields only under their condition.
	{Name: "is-deleted-false-for-deactivated", Operator: WrongValue, Requirements: reqs("RES-15"), Does: "a deactivated user's object carries is_deleted=false, where the field is present only when true"},
	{Name: "event-avatar-null-for-hidden-email", Operator: Privacy, Requirements: reqs("MSG-15"), Does: "message events under client_gravatar give avatar_url null also for a sender whose real email the receiver cannot see (GET /messages stays right)"},
	{Name: "variant-message-avatar-always-given", Operator: Variant, Does: "a message's avatar_url is the URL also where the client asked for gravatar computation and may see the sender's email (null is only allowed there)"},

	// An error's code exactly, and its msg by value, where the document gives them.
	{Name: "edit-typing-invalid-message-not-found", Operator: ErrorCode, Requirements: reqs("ERR-04"), Does: "edit typing on a missing or invisible message answers HTTP 404 with code NOT_FOUND, not BAD_REQUEST"},
	{Name: "missing-credentials-msg-invalid-key", Operator: WrongValue, Requirements: reqs("AUTH-08"), Does: "a request without credentials is refused with UNAUTHORIZED and msg \"Invalid API key\", not that authentication is required"},
	{Name: "variant-unauthorized-one-wording", Operator: Variant, Does: "every UNAUTHORIZED error, whatever was wrong, says \"Authentication required: send a valid API key\" (the real server names a wrong key; the document only that authentication is required)"},
}
