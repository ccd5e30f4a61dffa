package api_test

import (
	"strings"

	"github.com/chatconform/chatconform/fixtures"
)

// routeCasesAlertWords adds the bad-input cases of the routes whose handlers are in alert_words.go.
func routeCasesAlertWords(add func(routeSpec)) {
	for _, method := range []string{"POST", "DELETE"} {
		words := routeSpec{method: method, pattern: "/api/v1/users/me/alert_words", path: "/api/v1/users/me/alert_words", role: fixtures.RoleMember,
			params: []param{{name: "alert_words", kind: kStrList, required: true}},
			valid:  []string{"alert_words", `["setupword","another"]`}}
		if method == "POST" {
			words.extra = []badCase{
				{"a word too long (all or nothing)", words.with("alert_words", `["fine","`+strings.Repeat("w", 101)+`"]`), badRequest("alert_words[1] is too long (limit: 100 characters)")},
			}
		}
		add(words)
	}

	add(routeSpec{method: "GET", pattern: "/api/v1/users/me/alert_words", path: "/api/v1/users/me/alert_words", role: fixtures.RoleMember})
}
