package api_test

import (
	"github.com/chatconform/chatconform/fixtures"
)

// routeCasesLinkifiers adds the bad-input cases of the routes whose handlers are in linkifiers.go.
func routeCasesLinkifiers(add func(routeSpec)) {
	add(routeSpec{method: "GET", pattern: "/api/v1/realm/linkifiers", path: "/api/v1/realm/linkifiers", role: fixtures.RoleMember})

	lf := routeSpec{method: "POST", pattern: "/api/v1/realm/filters", path: "/api/v1/realm/filters", role: fixtures.RoleOwner,
		params: linkifierParams,
		valid:  []string{"pattern", "BI-(?P<id>[0-9]+)", "url_template", "https://bi.example/{id}"}}
	lf.extra = []badCase{
		{"member", lf.as(memberAuth), principalAdmin},
		{"moderator, no parameters (role checked first)", request{method: "POST", path: lf.path, auth: modAuth}, principalAdmin},
		{"pattern not a regex", lf.with("pattern", "BI-(?P<id>[0-9]+"), want{status: 400, code: "BAD_REQUEST"}},
		{"empty pattern", lf.with("pattern", ""), want{status: 400, code: "BAD_REQUEST"}},
		{"pattern with huge repetition", lf.with("pattern", "(?P<id>a{1001})"), want{status: 400, code: "BAD_REQUEST"}},
		{"template variable not in pattern", lf.with("url_template", "https://bi.example/{other}"), badRequest("Group 'other' in URL template is not present in linkifier pattern.")},
		{"pattern group not in template", lf.with("url_template", "https://bi.example/"), badRequest("Group 'id' in linkifier pattern is not present in URL template.")},
		{"template not RFC 6570", lf.with("url_template", "https://bi.example/{id"), badRequest("Invalid URL template.")},
		{"empty template", lf.with("url_template", ""), badRequest("Invalid URL template.")},
		{"example input does not match", lf.with("example_input", "nothing"), badRequest("Example input does not match the linkifier pattern.")},
		{"reverse template without example", lf.with("reverse_template", "BI-{id}"), badRequest("Reverse template requires an example input.")},
		{"alternative template invalid", lf.with("alternative_url_templates", `["https://bi.example/{id"]`), badRequest("Invalid URL template.")},
		{"duplicate pattern", lf.as(ownerAuth, "pattern", "SETUP-(?P<id>[0-9]+)", "url_template", "https://other.example/{id}"), badRequest("Linkifier with this Pattern and Realm already exists.")},
	}
	add(lf)

	rmLf := routeSpec{method: "DELETE", pattern: "/api/v1/realm/filters/{filter_id:[0-9]+}", path: "/api/v1/realm/filters/{id}", id: "1",
		notFound: "Linkifier not found.", role: fixtures.RoleOwner}
	rmLf.extra = []badCase{
		{"member", rmLf.as(memberAuth), principalAdmin},
		{"moderator", rmLf.as(modAuth), principalAdmin},
	}
	add(rmLf)

	reorder := routeSpec{method: "PATCH", pattern: "/api/v1/realm/linkifiers", path: "/api/v1/realm/linkifiers", role: fixtures.RoleOwner,
		params: []param{{name: "ordered_linkifier_ids", kind: kJSONList, required: true}},
		valid:  []string{"ordered_linkifier_ids", "[" + integLinkifierID + "]"}}
	incomplete := badRequest("The ordered list must enumerate all existing linkifiers exactly once")
	reorder.extra = []badCase{
		{"member", reorder.as(memberAuth), principalAdmin},
		{"moderator, no parameters (role checked first)", request{method: "PATCH", path: reorder.path, auth: modAuth}, principalAdmin},
		{"a duplicate", reorder.with("ordered_linkifier_ids", "[1,1]"), badRequest("The ordered list must not contain duplicated linkifiers")},
		{"an empty list", reorder.with("ordered_linkifier_ids", "[]"), incomplete},
		{"an unknown linkifier", reorder.with("ordered_linkifier_ids", "[2]"), incomplete},
		{"one too many", reorder.with("ordered_linkifier_ids", "[1,2]"), incomplete},
		{"a string element", reorder.with("ordered_linkifier_ids", `["1"]`), badRequest("ordered_linkifier_ids[0] is not an integer")},
	}
	add(reorder)

	editLf := routeSpec{method: "PATCH", pattern: "/api/v1/realm/filters/{filter_id:[0-9]+}", path: "/api/v1/realm/filters/{id}",
		id: integLinkifierID, notFound: "Linkifier not found.", role: fixtures.RoleOwner,
		params: linkifierParams,
		valid:  []string{"pattern", "SETUP-(?P<id>[0-9]+)", "url_template", "https://changed.example/{id}"}}
	editLf.extra = []badCase{
		{"member", editLf.as(memberAuth), principalAdmin},
		{"pattern not a regex", editLf.with("pattern", "SETUP-(?P<id>[0-9]+"), want{status: 400, code: "BAD_REQUEST"}},
		{"template variable not in pattern", editLf.with("url_template", "https://changed.example/{other}"), badRequest("Group 'other' in URL template is not present in linkifier pattern.")},
		{"template not RFC 6570", editLf.with("url_template", "https://changed.example/{id"), badRequest("Invalid URL template.")},
		{"example input does not match", editLf.with("example_input", "nothing"), badRequest("Example input does not match the linkifier pattern.")},
	}
	add(editLf)
}
