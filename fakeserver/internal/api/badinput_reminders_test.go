package api_test

import (
	"fmt"
	"strings"

	"github.com/chatconform/chatconform/fakeserver/internal/realm"
	"github.com/chatconform/chatconform/fixtures"
)

// routeCasesReminders adds the bad-input cases of the routes whose handlers are in reminders.go.
func routeCasesReminders(add func(routeSpec)) {
	reminderAt := fmt.Sprint(defaultFixture.Realm.StartTime + integReminderLater)
	reminders := routeSpec{method: "POST", pattern: "/api/v1/reminders", path: "/api/v1/reminders", role: fixtures.RoleMember,
		params: []param{
			{name: "message_id", kind: kInt, required: true},
			{name: "scheduled_delivery_timestamp", kind: kInt, required: true},
			{name: "note", oversizeFails: true},
		},
		valid: []string{"message_id", "1", "scheduled_delivery_timestamp", reminderAt, "note", "look again"}}
	now := fmt.Sprint(defaultFixture.Realm.StartTime)
	reminders.extra = []badCase{
		{"the time now", reminders.with("scheduled_delivery_timestamp", now), badRequest("Scheduled delivery time must be in the future.")},
		{"a time in the past", reminders.with("scheduled_delivery_timestamp", "0"), badRequest("Scheduled delivery time must be in the future.")},
		{"a negative time", reminders.with("scheduled_delivery_timestamp", "-5"), badRequest("Scheduled delivery time must be in the future.")},
		{"past time and unknown message (time first)", reminders.as(memberAuth, "message_id", "999", "scheduled_delivery_timestamp", "0"), badRequest("Scheduled delivery time must be in the future.")},
		{"unknown message", reminders.with("message_id", "999"), badRequest("Invalid message(s)")},
		{"message id zero", reminders.with("message_id", "0"), badRequest("Invalid message(s)")},
		{"message id negative", reminders.with("message_id", "-1"), badRequest("Invalid message(s)")},
		{"message id beyond 32 bits", reminders.with("message_id", "4294967297"), badRequest("Invalid message(s)")},
		{"note too long", reminders.with("note", strings.Repeat("n", realm.MaxReminderNoteLength+1)), badRequest(fmt.Sprintf("Maximum reminder note length: %d characters", realm.MaxReminderNoteLength))},
	}
	add(reminders)

	add(routeSpec{method: "GET", pattern: "/api/v1/reminders", path: "/api/v1/reminders", role: fixtures.RoleOwner})

	delReminder := routeSpec{method: "DELETE", pattern: "/api/v1/reminders/{reminder_id:[0-9]+}", path: "/api/v1/reminders/{id}",
		id: integSetupReminder, notFound: "Reminder does not exist", role: fixtures.RoleOwner}
	delReminder.extra = []badCase{
		{"another user's reminder", delReminder.as(memberAuth), badRequest("Reminder does not exist")},
	}
	add(delReminder)
}
