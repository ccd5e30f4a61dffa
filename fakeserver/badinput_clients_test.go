package fakeserver_test

import "github.com/chatconform/chatconform/fixtures"

// clientRouteCases adds the bad-input cases of the routes real clients call around the
// documented operations (issue 10). The setup message (ID 1) was sent by the owner to
// general > setup; general (ID 1) is the fixture's one channel, with everyone subscribed.
func clientRouteCases(add func(routeSpec)) {
	unsub := routeSpec{method: "DELETE", pattern: "/api/v1/users/me/subscriptions", path: "/api/v1/users/me/subscriptions",
		role: fixtures.RoleMember,
		params: []param{
			{name: "subscriptions", kind: kStrList, required: true},
			{name: "principals", kind: kJSONList},
		},
		valid: []string{"subscriptions", `["general"]`}}
	unsub.extra = []badCase{
		{"unknown channel", unsub.with("subscriptions", `["general","nowhere"]`), badRequest("Channel(s) (nowhere) do not exist")},
		{"blank name", unsub.with("subscriptions", `[" "]`), badRequest("Channel name can't be empty.")},
		{"another user, as a member", unsub.with("principals", "[1]"), badRequest("Insufficient permission")},
		{"unknown principal", unsub.with("principals", "[4,999]"), badRequest("No such user")},
		{"unknown principal email", unsub.with("principals", `["nobody@chat.example.test"]`), badRequest("No such user")},
		{"principal of the wrong type", unsub.with("principals", "[true]"), want{status: 400, code: "BAD_REQUEST"}},
	}
	add(unsub)

	markChannel := routeSpec{method: "POST", pattern: "/api/v1/mark_stream_as_read", path: "/api/v1/mark_stream_as_read",
		role:   fixtures.RoleMember,
		params: []param{{name: "stream_id", kind: kInt, required: true}},
		valid:  []string{"stream_id", "1"}}
	markChannel.extra = []badCase{
		{"unknown channel", markChannel.with("stream_id", "999"), badRequest("Invalid channel ID")},
		{"channel zero", markChannel.with("stream_id", "0"), badRequest("Invalid channel ID")},
	}
	add(markChannel)

	markTopic := routeSpec{method: "POST", pattern: "/api/v1/mark_topic_as_read", path: "/api/v1/mark_topic_as_read",
		role: fixtures.RoleMember,
		params: []param{
			{name: "stream_id", kind: kInt, required: true},
			{name: "topic_name", required: true, oversizeFails: true},
		},
		valid: []string{"stream_id", "1", "topic_name", "SETUP"}}
	markTopic.extra = []badCase{
		{"unknown channel", markTopic.with("stream_id", "999"), badRequest("Invalid channel ID")},
		{"unknown topic", markTopic.with("topic_name", "elsewhere"), badRequest("No such topic 'elsewhere'")},
	}
	add(markTopic)
}
