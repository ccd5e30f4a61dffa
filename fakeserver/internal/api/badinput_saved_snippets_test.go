package api_test

import (
	"strings"

	"github.com/chatconform/chatconform/fixtures"
)

// routeCasesSavedSnippets adds the bad-input cases of the routes whose handlers are in saved_snippets.go.
func routeCasesSavedSnippets(add func(routeSpec)) {
	// Saved snippets.
	add(routeSpec{method: "GET", pattern: "/api/v1/saved_snippets", path: "/api/v1/saved_snippets", role: fixtures.RoleMember})

	snippet := routeSpec{method: "POST", pattern: "/api/v1/saved_snippets", path: "/api/v1/saved_snippets", role: fixtures.RoleMember,
		params: []param{{name: "title", required: true, oversizeFails: true}, {name: "content", required: true, oversizeFails: true}},
		valid:  []string{"title", "greeting", "content", "Hello!"}}
	snippetCases := func(rs routeSpec) []badCase {
		return []badCase{
			{"a blank title", rs.with("title", "  "), badRequest("title cannot be blank")},
			{"a title too long (all or nothing)", rs.with("title", strings.Repeat("t", 61)), badRequest("title is too long (limit: 60 characters)")},
			{"blank content", rs.with("content", "\n"), badRequest("content cannot be blank")},
			{"content too long", rs.with("content", strings.Repeat("c", 10001)), badRequest("content is too long (limit: 10000 characters)")},
		}
	}
	snippet.extra = snippetCases(snippet)
	add(snippet)

	snippetNotFound := bad(404, "BAD_REQUEST", "Saved snippet does not exist.")
	editSnippet := routeSpec{method: "PATCH", pattern: "/api/v1/saved_snippets/{saved_snippet_id:[0-9]+}", path: "/api/v1/saved_snippets/{id}",
		id: "1", notFound: "Saved snippet does not exist.", notFoundStatus: 404, role: fixtures.RoleMember,
		params: []param{{name: "title", oversizeFails: true}, {name: "content", oversizeFails: true}},
		valid:  []string{"title", "renamed"}}
	editSnippet.extra = append(snippetCases(editSnippet), badCase{"another user's", editSnippet.as(ownerAuth), snippetNotFound})
	add(editSnippet)

	delSnippet := routeSpec{method: "DELETE", pattern: "/api/v1/saved_snippets/{saved_snippet_id:[0-9]+}", path: "/api/v1/saved_snippets/{id}",
		id: "1", notFound: "Saved snippet does not exist.", notFoundStatus: 404, role: fixtures.RoleMember}
	delSnippet.extra = []badCase{{"another user's", delSnippet.as(ownerAuth), snippetNotFound}}
	add(delSnippet)
}
