package api_test

// routeCasesControlDescribe adds the bad-input cases of the routes whose handlers are in internal/control/describe.go.
func routeCasesControlDescribe(add func(routeSpec)) {
	add(routeSpec{method: "GET", pattern: "/openapi.json", path: "/openapi.json", raw: true})
}
