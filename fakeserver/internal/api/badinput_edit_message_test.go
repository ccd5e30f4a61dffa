package api_test

import (
	"strings"

	"github.com/chatconform/chatconform/fixtures"
)

// routeCasesEditMessage adds the bad-input cases of the routes whose handlers are in edit_message.go.
func routeCasesEditMessage(add func(routeSpec)) {
	edit := routeSpec{method: "PATCH", pattern: "/api/v1/messages/{message_id:[0-9]+}", path: "/api/v1/messages/{id}", id: "1",
		notFound: "Invalid message(s)", role: fixtures.RoleOwner,
		params: []param{
			{name: "propagate_mode", kind: kEnum},
			{name: "topic"},
			{name: "send_notification_to_old_thread", kind: kBool},
			{name: "send_notification_to_new_thread", kind: kBool},
			{name: "content"},
			{name: "prev_content_sha256", oversizeFails: true},
			{name: "stream_id", kind: kInt},
		},
		valid: []string{"content", "edited by the bad-input test"}}
	only := func(kv ...string) request { return edit.build(valuesOf(kv...)) }
	edit.extra = []badCase{
		{"nothing to change", only(), badRequest("Nothing to change")},
		{"only notification settings", only("send_notification_to_new_thread", "false"), badRequest("Nothing to change")},
		{"content and stream_id", edit.with("stream_id", "1"), badRequest("Cannot change message content while changing channel")},
		{"topic and subject", only("topic", "a", "subject", "b"), bad(400, "REQUEST_CONFUSING_VAR", "Can't decide between 'topic' and 'subject' arguments")},
		{"member editing the owner's content", edit.as(memberAuth), badRequest("You don't have permission to edit this message")},
		{"content with change_all", edit.with("propagate_mode", "change_all"), badRequest("Invalid propagate_mode without topic edit")},
		{"propagate_mode with the current topic", only("propagate_mode", "change_later", "topic", "setup"), badRequest("Nothing to change")},
		{"propagate_mode without a topic", only("propagate_mode", "change_later", "send_notification_to_old_thread", "true"), badRequest("Nothing to change")},
		{"the current channel only", only("stream_id", "1"), badRequest("Nothing to change")},
		{"wrong prev_content_sha256", edit.with("prev_content_sha256", strings.Repeat("0", 64)), bad(400, "EXPECTATION_MISMATCH", "")},
		{"unknown channel", only("stream_id", "999"), badRequest("Invalid channel ID")},
		{"negative channel", only("stream_id", "-1"), badRequest("stream_id is too small")},
		{"empty topic resolved", only("topic", "✔"), badRequest("General chat cannot be marked as resolved")},
		{"empty topic resolved by display name", only("topic", "✔ general chat"), badRequest("General chat cannot be marked as resolved")},
		{"topic with a control character", only("topic", "a\x07b"), badRequest("Invalid character in topic, at position 2!")},
		{"content 1 MiB with a wrong hash (all or nothing)", edit.as(ownerAuth, "content", oneMiB, "prev_content_sha256", "x"), bad(400, "EXPECTATION_MISMATCH", "")},
	}
	add(edit)
}
