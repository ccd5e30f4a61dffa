package api_test

import (
	"fmt"
	"net/url"

	"github.com/chatconform/chatconform/fixtures"
)

// routeCasesScheduledMessages adds the bad-input cases of the routes whose handlers are in scheduled_messages.go.
func routeCasesScheduledMessages(add func(routeSpec)) {
	// Scheduled messages.
	add(routeSpec{method: "GET", pattern: "/api/v1/scheduled_messages", path: "/api/v1/scheduled_messages", role: fixtures.RoleMember})

	schedule := routeSpec{method: "POST", pattern: "/api/v1/scheduled_messages", path: "/api/v1/scheduled_messages", role: fixtures.RoleMember,
		params: []param{
			{name: "type", kind: kEnum, required: true},
			{name: "to", required: true, oversizeFails: true}, // read by the type: its cases are below
			{name: "topic"},
			{name: "content", required: true},
			{name: "scheduled_delivery_timestamp", kind: kInt, required: true},
			{name: "read_by_sender", kind: kBool},
		},
		valid: []string{"type", "direct", "to", "[1]", "content", "later", "scheduled_delivery_timestamp", scheduledAt}}
	schedule.extra = []badCase{
		{"the time now", schedule.with("scheduled_delivery_timestamp", fmt.Sprint(defaultFixture.Realm.StartTime)), badRequest("Scheduled delivery time must be in the future.")},
		{"past time and no content (time first)", schedule.as(memberAuth, "scheduled_delivery_timestamp", "0", "content", " "), badRequest("Scheduled delivery time must be in the future.")},
		{"empty content", schedule.with("content", "  "), badRequest("Message must not be empty")},
		{"unknown recipient", schedule.with("to", "[999]"), badRequest("Invalid user ID 999")},
		{"recipients of strings", schedule.with("to", `["x"]`), badRequest("Recipient list may only contain user IDs")},
		{"recipients not JSON", schedule.with("to", "member"), badRequest("Invalid data type for recipients")},
		{"recipients an object", schedule.with("to", `{"id":1}`), badRequest("Invalid data type for recipients")},
		{"recipients one integer", schedule.with("to", "1"), badRequest("Invalid data type for recipients")},
		{"past time and bad recipients (time first)", schedule.as(memberAuth, "scheduled_delivery_timestamp", "0", "to", "x"), badRequest("Scheduled delivery time must be in the future.")},
		{"a channel message to two channels", schedule.as(memberAuth, "type", "stream", "to", "[1,1]", "topic", "t"), badRequest("Invalid data type for channel ID")},
		{"a channel message to an unknown channel", schedule.as(memberAuth, "type", "stream", "to", "999", "topic", "t"), bad(400, "STREAM_DOES_NOT_EXIST", "Channel with ID '999' does not exist")},
		{"a channel message without a topic", schedule.as(memberAuth, "type", "stream", "to", "1"), badRequest("Missing topic")},
	}
	add(schedule)

	scheduledNotFound := bad(404, "BAD_REQUEST", "Scheduled message does not exist")
	editScheduled := routeSpec{method: "PATCH", pattern: "/api/v1/scheduled_messages/{scheduled_message_id:[0-9]+}", path: "/api/v1/scheduled_messages/{id}",
		id: "1", notFound: "Scheduled message does not exist", notFoundStatus: 404, role: fixtures.RoleMember,
		params: []param{
			{name: "type", kind: kEnum},
			{name: "to", oversizeFails: true},
			{name: "topic"},
			{name: "content"},
			{name: "scheduled_delivery_timestamp", kind: kInt},
		},
		valid: []string{"content", "edited by the bad-input test"}}
	editScheduled.extra = []badCase{
		{"nothing to change", editScheduled.build(url.Values{}), badRequest("Nothing to change")},
		{"another user's", editScheduled.as(ownerAuth), scheduledNotFound},
		{"a time in the past", editScheduled.with("scheduled_delivery_timestamp", "5"), badRequest("Scheduled delivery time must be in the future.")},
		{"a type without recipients", editScheduled.with("type", "direct"), badRequest("Recipient required when updating type of scheduled message.")},
		{"the channel type without a topic", editScheduled.as(memberAuth, "type", "stream", "to", "1"), badRequest("Topic required when updating scheduled message type to stream.")},
		{"a past time for another user's message (time first)", editScheduled.as(ownerAuth, "scheduled_delivery_timestamp", "5"), badRequest("Scheduled delivery time must be in the future.")},
		{"a channel named by a list", editScheduled.with("to", "[1]"), badRequest("Invalid data type for channel ID")},
		{"an unknown channel", editScheduled.with("to", "999"), bad(400, "STREAM_DOES_NOT_EXIST", "Channel with ID '999' does not exist")},
		{"empty content", editScheduled.with("content", " "), badRequest("Message must not be empty")},
		{"a channel named by name", editScheduled.with("to", "general"), badRequest("Invalid data type for channel ID")},
	}
	add(editScheduled)

	delScheduled := routeSpec{method: "DELETE", pattern: "/api/v1/scheduled_messages/{scheduled_message_id:[0-9]+}", path: "/api/v1/scheduled_messages/{id}",
		id: "1", notFound: "Scheduled message does not exist", notFoundStatus: 404, role: fixtures.RoleMember}
	delScheduled.extra = []badCase{{"another user's", delScheduled.as(ownerAuth), scheduledNotFound}}
	add(delScheduled)
}
