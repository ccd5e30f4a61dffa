package api_test

import (
	"net/url"

	"github.com/chatconform/chatconform/fixtures"
)

// routeCasesEvents adds the bad-input cases of the routes whose handlers are in events.go.
func routeCasesEvents(add func(routeSpec)) {
	// The event routes need a queue of the route's user: the first stateOf after setUp
	// registers the owner's first queue of the current generation, which the runner puts in
	// place of ownerQueue (see withOwnerQueue).
	badQueue := func(id string) want { return bad(400, "BAD_EVENT_QUEUE_ID", "Bad event queue ID: "+id) }
	evs := routeSpec{method: "GET", pattern: "/api/v1/events", path: "/api/v1/events", role: fixtures.RoleOwner,
		params: []param{
			// Neither is required as such: without queue_id, dont_block=true makes a new queue.
			{name: "queue_id", oversizeFails: true},
			{name: "last_event_id", kind: kInt},
			{name: "dont_block", kind: kBool},
			{name: "event_types", kind: kStrList},
		},
		valid: []string{"queue_id", ownerQueue, "last_event_id", "-1", "dont_block", "true"}}
	evs.extra = []badCase{
		{"no parameters", evs.build(url.Values{}), badRequest("Missing 'queue_id' argument")},
		{"no queue_id, blocking", evs.build(url.Values{"last_event_id": {"-1"}}), badRequest("Missing 'queue_id' argument")},
		{"no queue_id, dont_block false", evs.build(url.Values{"dont_block": {"false"}}), badRequest("Missing 'queue_id' argument")},
		{"no last_event_id", evs.without("last_event_id"), badRequest("Missing 'last_event_id' argument")},
		{"no last_event_id, blocking", evs.build(url.Values{"queue_id": {ownerQueue}}), badRequest("Missing 'last_event_id' argument")},
		{"unknown queue", evs.with("queue_id", "1:999999"), badQueue("1:999999")},
		{"empty queue_id", evs.with("queue_id", ""), badQueue("")},
		{"unknown queue, blocking", evs.as(ownerAuth, "queue_id", "bogus", "dont_block", "false"), badQueue("bogus")},
		{"another user's queue", evs.as(memberAuth), badQueue(ownerQueue)},
		{"another user's queue, blocking", evs.as(guestAuth, "dont_block", "false"), badQueue(ownerQueue)},
		{"last_event_id ahead of the queue", evs.with("last_event_id", "5"), badRequest("Event 5 was not in this queue")},
		{"last_event_id behind -1", evs.with("last_event_id", "-2"), badRequest("An event newer than -2 has already been pruned!")},
		{"queue_id in the body of a GET", request{method: "GET", path: evs.path, auth: ownerAuth, body: formBody("queue_id", ownerQueue, "last_event_id", "-1"), contentType: formType}, badRequest("Missing 'queue_id' argument")},
	}
	add(evs)

	delEvs := routeSpec{method: "DELETE", pattern: "/api/v1/events", path: "/api/v1/events", role: fixtures.RoleOwner,
		params: []param{{name: "queue_id", required: true, oversizeFails: true}},
		valid:  []string{"queue_id", ownerQueue}}
	delEvs.extra = []badCase{
		{"unknown queue", delEvs.with("queue_id", "1:999999"), badQueue("1:999999")},
		{"empty queue_id", delEvs.with("queue_id", ""), badQueue("")},
		{"another user's queue", delEvs.as(memberAuth), badQueue(ownerQueue)},
		{"bot deleting its owner's queue", delEvs.as(botAuth), badQueue(ownerQueue)},
	}
	add(delEvs)
}
