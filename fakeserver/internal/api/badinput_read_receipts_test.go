package api_test

import (
	"github.com/chatconform/chatconform/fixtures"
)

// routeCasesReadReceipts adds the bad-input cases of the routes whose handlers are in read_receipts.go.
func routeCasesReadReceipts(add func(routeSpec)) {
	receipts := routeSpec{method: "GET", pattern: "/api/v1/messages/{message_id:[0-9]+}/read_receipts", path: "/api/v1/messages/{id}/read_receipts",
		id: "1", notFound: "Invalid message(s)", role: fixtures.RoleMember}
	add(receipts)
}
