package api_test

// routeCasesServerSettings adds the bad-input cases of the routes whose handlers are in server_settings.go.
func routeCasesServerSettings(add func(routeSpec)) {
	// --- /api/v1, without credentials ---
	add(routeSpec{method: "GET", pattern: "/api/v1/server_settings", path: "/api/v1/server_settings"})
}
