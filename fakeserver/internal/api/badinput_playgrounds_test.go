package api_test

import (
	"strings"

	"github.com/chatconform/chatconform/fixtures"
)

// routeCasesPlaygrounds adds the bad-input cases of the routes whose handlers are in playgrounds.go.
func routeCasesPlaygrounds(add func(routeSpec)) {
	pg := routeSpec{method: "POST", pattern: "/api/v1/realm/playgrounds", path: "/api/v1/realm/playgrounds", role: fixtures.RoleOwner,
		params: []param{
			{name: "name", required: true},
			{name: "pygments_language", required: true, oversizeFails: true},
			{name: "url_template", required: true, oversizeFails: true},
		},
		valid: []string{"name", "Go Playground", "pygments_language", "Go", "url_template", "https://go.example/play?code={code}"}}
	pg.extra = []badCase{
		{"member", pg.as(memberAuth), principalAdmin},
		{"moderator", pg.as(modAuth), principalAdmin},
		{"guest, no parameters (role checked first)", request{method: "POST", path: pg.path, auth: guestAuth}, principalAdmin},
		{"bot", pg.as(botAuth), principalAdmin},
		{"blank name", pg.with("name", "   "), badRequest("This field cannot be blank.")},
		{"blank language", pg.with("pygments_language", ""), badRequest("This field cannot be blank.")},
		{"language too long", pg.with("pygments_language", strings.Repeat("x", 41)), badRequest("pygments_language is too long (limit: 40 characters)")},
		{"language with bad characters", pg.with("pygments_language", "C&&<script>"), badRequest("Invalid characters in pygments language")},
		{"template without code", pg.with("url_template", "https://go.example/play"), badRequest(`Missing the required variable "code" in the URL template`)},
		{"template with two variables", pg.with("url_template", "https://go.example/{code}/{other}"), badRequest(`"code" should be the only variable present in the URL template`)},
		{"template not RFC 6570", pg.with("url_template", "https://go.example/{code"), badRequest("Invalid URL template.")},
		{"empty template", pg.with("url_template", ""), badRequest("Invalid URL template.")},
		{"duplicate of an existing playground", pg.as(ownerAuth, "name", "Setup Playground", "pygments_language", "Python"), badRequest("Realm playground with this Realm, Pygments language and Name already exists.")},
	}
	add(pg)

	rmPg := routeSpec{method: "DELETE", pattern: "/api/v1/realm/playgrounds/{playground_id:[0-9]+}", path: "/api/v1/realm/playgrounds/{id}", id: "1",
		notFound: "Invalid playground", role: fixtures.RoleOwner}
	rmPg.extra = []badCase{
		{"guest", rmPg.as(guestAuth), principalAdmin},
		{"bot", rmPg.as(botAuth), principalAdmin},
	}
	add(rmPg)
}
