package api_test

import (
	"github.com/chatconform/chatconform/fixtures"
)

// routeCasesMessageFlags adds the bad-input cases of the routes whose handlers are in message_flags.go.
func routeCasesMessageFlags(add func(routeSpec)) {
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

	flagsNarrow := routeSpec{method: "POST", pattern: "/api/v1/messages/flags/narrow", path: "/api/v1/messages/flags/narrow", role: fixtures.RoleMember,
		params: []param{
			{name: "anchor", required: true, oversizeFails: true},
			{name: "include_anchor", kind: kBool},
			{name: "num_before", kind: kInt, required: true},
			{name: "num_after", kind: kInt, required: true},
			{name: "narrow", kind: kJSONList, required: true},
			{name: "op", kind: kEnum, required: true},
			{name: "flag", required: true, oversizeFails: true},
		},
		valid: []string{"anchor", "oldest", "num_before", "0", "num_after", "10", "narrow", `[{"operator":"channel","operand":"general"}]`, "op", "add", "flag", "starred"}}
	flagsNarrow.extra = []badCase{
		{"anchor excluded mid-range", flagsNarrow.as(memberAuth, "anchor", "1", "num_before", "1", "include_anchor", "false"), badRequest("The anchor can only be excluded at an end of the range")},
		{"flag not editable", flagsNarrow.with("flag", "mentioned"), badRequest("Flag not editable: 'mentioned'")},
		{"unknown flag", flagsNarrow.with("flag", "shiny"), badRequest("Invalid flag: 'shiny'")},
		{"unknown narrow operator", flagsNarrow.with("narrow", `[{"operator":"shiny","operand":"x"}]`), bad(400, "BAD_NARROW", "")},
		{"bad anchor", flagsNarrow.with("anchor", "soon"), badRequest("Invalid anchor")},
	}
	add(flagsNarrow)
}
