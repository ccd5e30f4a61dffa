package fakeserver_test

import (
	"strings"

	"github.com/chatconform/chatconform/fixtures"
)

// messagingRouteCases adds the bad-input cases of the routes of message editing and moving,
// topic muting, narrows, read marking, typing, reactions. The setup message (ID 1)
// was sent by the owner to general > setup.
func messagingRouteCases(add func(routeSpec)) {
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

	mute := routeSpec{method: "PATCH", pattern: "/api/v1/users/me/subscriptions/muted_topics", path: "/api/v1/users/me/subscriptions/muted_topics",
		role: fixtures.RoleMember,
		params: []param{
			{name: "stream_id", kind: kInt},
			{name: "stream", oversizeFails: true},
			{name: "topic", required: true, oversizeFails: true},
			{name: "op", kind: kEnum, required: true},
		},
		valid: []string{"stream_id", "1", "topic", "setup", "op", "add"}}
	muteOnly := func(kv ...string) request { return mute.build(valuesOf(kv...)) }
	mute.extra = []badCase{
		{"neither stream_id nor stream", muteOnly("topic", "setup", "op", "add"), badRequest("Missing 'stream_id' argument")},
		{"both stream_id and stream", mute.with("stream", setupChan), badRequest("Unsupported parameter combination: stream_id, stream")},
		{"unknown channel id", mute.with("stream_id", "999"), badRequest("Invalid channel ID")},
		{"channel id zero", mute.with("stream_id", "0"), badRequest("Invalid channel ID")},
		{"unknown channel name", muteOnly("stream", "badinput-nowhere", "topic", "setup", "op", "add"), badRequest("Invalid channel name 'badinput-nowhere'")},
		{"empty channel name", muteOnly("stream", "", "topic", "setup", "op", "add"), want{status: 400, code: "BAD_REQUEST"}},
		{"unmuting in an unknown channel", mute.as(memberAuth, "stream_id", "999", "op", "remove"), badRequest("Topic is not muted")},
		{"topic one character too long", mute.with("topic", strings.Repeat("t", 61)), badRequest("topic is too long (limit: 60 characters)")},
	}
	add(mute)

	narrowGeneral := `[{"operator":"channel","operand":"general"}]`
	matches := routeSpec{method: "GET", pattern: "/api/v1/messages/matches_narrow", path: "/api/v1/messages/matches_narrow",
		role: fixtures.RoleOwner,
		params: []param{
			{name: "msg_ids", kind: kJSONList, required: true},
			{name: "narrow", kind: kJSONList, required: true},
		},
		valid: []string{"msg_ids", "[1]", "narrow", narrowGeneral}}
	badNarrow := func(msg string) want { return bad(400, "BAD_NARROW", "Invalid narrow operator: "+msg) }
	withNarrow := func(n string) request { return matches.with("narrow", n) }
	matches.extra = []badCase{
		{"msg_ids: float", matches.with("msg_ids", "[1.5]"), badRequest("msg_ids[0] is not an integer")},
		{"msg_ids: string element", matches.with("msg_ids", `["1"]`), badRequest("msg_ids[0] is not an integer")},
		{"unknown operator", withNarrow(`[{"operator":"bogus","operand":"x"}]`), badNarrow("unknown operator")},
		{"legacy unknown operator", withNarrow(`[["bogus","x"]]`), badNarrow("unknown operator")},
		{"term not an object", withNarrow(`[5]`), badRequest("narrow[0] is not a dict")},
		{"legacy term of three", withNarrow(`[["a","b","c"]]`), want{status: 400, code: "BAD_REQUEST"}},
		{"term without operator", withNarrow(`[{"operand":"general"}]`), badRequest(`narrow[0]["operator"] is not a string`)},
		{"term without operand", withNarrow(`[{"operator":"channel"}]`), want{status: 400, code: "BAD_REQUEST"}},
		{"operand an object", withNarrow(`[{"operator":"topic","operand":{"a":1}}]`), badRequest(`narrow[0]["operand"] is not a string`)},
		{"negated not a boolean", withNarrow(`[{"operator":"topic","operand":"x","negated":"yes"}]`), badRequest(`narrow[0]["negated"] is not a boolean`)},
		{"unknown channel", withNarrow(`[{"operator":"channel","operand":"badinput-nowhere"}]`), badNarrow("unknown channel badinput-nowhere")},
		{"unknown is operand", withNarrow(`[{"operator":"is","operand":"bogus"}]`), badNarrow("unknown 'is' operand bogus")},
		{"unknown has operand", withNarrow(`[{"operator":"has","operand":"bogus"}]`), badNarrow("unknown 'has' operand bogus")},
		{"unknown sender", withNarrow(`[{"operator":"sender","operand":"nobody@chat.example.test"}]`), badNarrow("unknown user nobody@chat.example.test")},
		{"good term then bad term", withNarrow(`[{"operator":"channel","operand":"general"},{"operator":"bogus","operand":"x"}]`), badNarrow("unknown operator")},
	}
	add(matches)

	typing := routeSpec{method: "POST", pattern: "/api/v1/messages/{message_id:[0-9]+}/typing", path: "/api/v1/messages/{id}/typing", id: "1",
		notFound: "Invalid message(s)", role: fixtures.RoleOwner,
		params: []param{{name: "op", kind: kEnum, required: true}},
		valid:  []string{"op", "start"}}
	typing.extra = []badCase{
		{"a message the requester cannot edit", typing.as(memberAuth), badRequest("You don't have permission to edit this message")},
	}
	add(typing)

	add(routeSpec{method: "POST", pattern: "/api/v1/mark_all_as_read", path: "/api/v1/mark_all_as_read", role: fixtures.RoleMember})

	fetch := routeSpec{method: "GET", pattern: "/api/v1/messages", path: "/api/v1/messages", role: fixtures.RoleOwner,
		params: []param{
			{name: "num_before", kind: kInt, required: true},
			{name: "num_after", kind: kInt, required: true},
			{name: "anchor", oversizeFails: true},
			{name: "include_anchor", kind: kBool},
			{name: "narrow", kind: kJSONList},
			{name: "apply_markdown", kind: kBool},
			{name: "client_gravatar", kind: kBool},
			{name: "allow_empty_topic_name", kind: kBool},
		},
		valid: []string{"anchor", "newest", "num_before", "10", "num_after", "0", "narrow", narrowGeneral}}
	fetch.extra = []badCase{
		{"anchor not a number or word", fetch.with("anchor", "soonest"), badRequest("Invalid anchor")},
		{"no anchor", fetch.without("anchor"), badRequest("Missing 'anchor' argument.")},
		{"num_before negative", fetch.with("num_before", "-1"), badRequest("num_before is too small")},
		{"too many messages", fetch.with("num_after", "5000"), badRequest("Too many messages requested (maximum 5000).")},
		{"unknown operator", fetch.with("narrow", `[{"operator":"bogus","operand":"x"}]`), badNarrow("unknown operator")},
	}
	add(fetch)

	flags := routeSpec{method: "POST", pattern: "/api/v1/messages/flags", path: "/api/v1/messages/flags", role: fixtures.RoleOwner,
		params: []param{
			{name: "messages", kind: kJSONList, required: true},
			{name: "op", kind: kEnum, required: true},
			{name: "flag", required: true, oversizeFails: true},
		},
		valid: []string{"messages", "[1]", "op", "add", "flag", "starred"}}
	flags.extra = []badCase{
		{"flag not editable", flags.with("flag", "mentioned"), badRequest("Flag not editable: 'mentioned'")},
		{"unknown flag", flags.with("flag", "shiny"), badRequest("Invalid flag: 'shiny'")},
		{"unknown message", flags.with("messages", "[999]"), badRequest("Invalid message(s)")},
		{"one good message, one unknown (all or nothing)", flags.with("messages", "[1,999]"), badRequest("Invalid message(s)")},
		{"message id zero", flags.with("messages", "[0]"), badRequest("Invalid message(s)")},
		{"message id float", flags.with("messages", "[1.5]"), badRequest("messages[0] is not an integer")},
	}
	add(flags)

	react := routeSpec{method: "POST", pattern: "/api/v1/messages/{message_id:[0-9]+}/reactions", path: "/api/v1/messages/{id}/reactions", id: "1",
		notFound: "Invalid message(s)", role: fixtures.RoleOwner,
		params: []param{
			{name: "emoji_name", required: true, oversizeFails: true},
			{name: "emoji_code", oversizeFails: true},
			{name: "reaction_type", oversizeFails: true},
		},
		valid: []string{"emoji_name", "octopus"}}
	react.extra = []badCase{
		{"unknown emoji", react.with("emoji_name", "no_such_emoji"), badRequest("Emoji 'no_such_emoji' does not exist")},
		{"code of another emoji", react.with("emoji_code", "2764"), badRequest("Invalid emoji name.")},
		{"code not hex", react.with("emoji_code", "xyz"), badRequest("Invalid emoji code.")},
		{"unknown reaction type", react.with("reaction_type", "sticker"), badRequest("Invalid reaction_type")},
		{"custom emoji the realm lacks", react.with("reaction_type", "realm_emoji"), badRequest("Emoji 'octopus' does not exist")},
		{"extra emoji with a unicode name", react.with("reaction_type", "zulip_extra_emoji"), badRequest("Invalid emoji code.")},
	}
	add(react)

	sub := routeSpec{method: "POST", pattern: "/api/v1/submessage", path: "/api/v1/submessage", role: fixtures.RoleOwner,
		params: []param{
			{name: "message_id", kind: kInt, required: true},
			{name: "msg_type", required: true},
			{name: "content", required: true, oversizeFails: true},
		},
		valid: []string{"message_id", "1", "msg_type", "widget", "content", `{"widget_type": "todo"}`}}
	sub.extra = []badCase{
		{"content not JSON", sub.with("content", "not json"), badRequest("Invalid json for submessage")},
		{"unknown message", sub.with("message_id", "999"), badRequest("Invalid message(s)")},
		{"message id zero", sub.with("message_id", "0"), badRequest("Invalid message(s)")},
		{"first submessage by another user", sub.as(memberAuth), badRequest("You cannot attach a submessage to this message.")},
	}
	add(sub)
}

// valuesOf builds url.Values-style name/value pairs for routeSpec.build.
func valuesOf(kv ...string) map[string][]string {
	v := map[string][]string{}
	for i := 0; i+1 < len(kv); i += 2 {
		v[kv[i]] = append(v[kv[i]], kv[i+1])
	}
	return v
}
