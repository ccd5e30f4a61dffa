package api_test

// routeCasesControlInspector adds the bad-input cases of the routes whose handlers are in internal/control/inspector.go.
func routeCasesControlInspector(add func(routeSpec)) {
	add(routeSpec{method: "GET", pattern: "/_fake/", path: "/_fake/", raw: true})

	add(routeSpec{method: "GET", pattern: "/_fake/ui", path: "/_fake/ui", raw: true})

	inspect := routeSpec{method: "GET", pattern: "/_fake/inspect", path: "/_fake/inspect",
		params: []param{{name: "section", kind: kString, required: true}, {name: "offset", kind: kInt}, {name: "limit", kind: kInt}, {name: "status", kind: kInt}},
		valid:  []string{"section", "users", "limit", "10"}}
	inspect.extra = []badCase{
		{"an unknown section", inspect.with("section", "secrets"), badRequest("Invalid section")},
		{"limit zero", inspect.with("limit", "0"), badRequest("limit must be between 1 and 500")},
		{"a negative offset", inspect.as("", "section", "journal", "offset", "-1"), badRequest("offset must be between 0 and 2147483647")},
		{"a bad path pattern", inspect.as("", "section", "journal", "path", "/api/["), badRequest("Invalid path pattern: /api/[")},
		{"an unknown filter", inspect.as("", "section", "users", "colour", "red"), badRequest("Unknown setting: colour")},
	}
	add(inspect)
}
