package api_test

import (
	"github.com/chatconform/chatconform/fixtures"
)

// routeCasesReactions adds the bad-input cases of the routes whose handlers are in reactions.go.
func routeCasesReactions(add func(routeSpec)) {
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
		{"code of another emoji", react.with("emoji_code", "1f389"), badRequest("Invalid emoji name.")},
		{"code not hex", react.with("emoji_code", "xyz"), badRequest("Invalid emoji code.")},
		{"unknown reaction type", react.with("reaction_type", "sticker"), badRequest("Invalid emoji type.")},
		{"a unicode emoji's code as a custom emoji", react.with("reaction_type", "realm_emoji"), badRequest("Invalid custom emoji.")},
		{"custom emoji the realm lacks", react.as(ownerAuth, "emoji_name", "setup_emoji", "emoji_code", "99", "reaction_type", "realm_emoji"), badRequest("Invalid custom emoji.")},
		{"custom emoji under another name", react.as(ownerAuth, "emoji_code", "1", "reaction_type", "realm_emoji"), badRequest("Invalid custom emoji name.")},
		{"deactivated custom emoji", react.as(ownerAuth, "emoji_name", "setup_gone", "emoji_code", "2", "reaction_type", "realm_emoji"), badRequest("This custom emoji has been deactivated.")},
		{"deactivated custom emoji by name", react.with("emoji_name", "setup_gone"), badRequest("Emoji 'setup_gone' does not exist")},
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

	unreact := routeSpec{method: "DELETE", pattern: "/api/v1/messages/{message_id:[0-9]+}/reactions", path: "/api/v1/messages/{id}/reactions", id: "1",
		notFound: "Invalid message(s)", role: fixtures.RoleMember,
		params: []param{
			{name: "emoji_name", oversizeFails: true},
			{name: "emoji_code", oversizeFails: true},
			{name: "reaction_type", oversizeFails: true},
		},
		valid: []string{"emoji_name", "heart"}}
	unreact.extra = []badCase{
		{"neither name nor code", unreact.without("emoji_name"), badRequest("At least one of the following arguments must be present: emoji_name, emoji_code")},
		{"unknown emoji name", unreact.with("emoji_name", "no_such_emoji"), badRequest("Emoji 'no_such_emoji' does not exist")},
		{"a reaction the member did not make", unreact.with("emoji_name", "octopus"), badRequest("Reaction doesn't exist.")},
		{"another user's reaction", unreact.as(ownerAuth), badRequest("Reaction doesn't exist.")},
		{"the right code in another type", unreact.as(memberAuth, "emoji_code", "2764", "reaction_type", "realm_emoji"), badRequest("Reaction doesn't exist.")},
	}
	add(unreact)
}
