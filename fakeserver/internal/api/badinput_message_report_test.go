package api_test

import (
	"strings"

	"github.com/chatconform/chatconform/fixtures"
)

// routeCasesMessageReport adds the bad-input cases of the route whose handler is in
// message_report.go. The setup makes the private setup channel the moderation request
// channel (administrationSetUp), so that the valid report goes through.
func routeCasesMessageReport(add func(routeSpec)) {
	report := routeSpec{method: "POST", pattern: "/api/v1/messages/{message_id:[0-9]+}/report", path: "/api/v1/messages/{id}/report",
		id: "1", notFound: "Invalid message(s)", role: fixtures.RoleMember,
		params: []param{{name: "report_type", required: true}, {name: "description", oversizeFails: true}},
		valid:  []string{"report_type", "spam"}}
	report.extra = []badCase{
		{"a report type not in the list", report.with("report_type", "rude"), badRequest("Invalid report_type")},
		{"other without a description", report.with("report_type", "other"), badRequest("An explanation is required.")},
		{"a description over 1000 characters", report.with("description", strings.Repeat("x", 1001)), badRequest("description is too long (limit: 1000 characters)")},
	}
	add(report)
}
