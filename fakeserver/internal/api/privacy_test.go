package api_test

// Privacy of input: every route that takes an email resolves it with the one lookup of the
// real server's access_user_by_email. A dummy address (user<id>@<realm host>) names its user
// for everyone; a real address names the user only for those the user's
// email_address_visibility shows it to, and to everyone else it is an unknown address.

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// emailRoute is one route that takes an email, as a request builder.
type emailRoute struct {
	name  string
	build func(email string) request
}

func emailRoutes() []emailRoute {
	narrow := func(operator string) func(string) request {
		return func(email string) request {
			operand := fmt.Sprintf("%q", email)
			if operator == "dm" {
				operand = "[" + operand + "]"
			}
			q := url.Values{"anchor": {"newest"}, "num_before": {"1"}, "num_after": {"0"},
				"narrow": {fmt.Sprintf(`[{"operator":%q,"operand":%s}]`, operator, operand)}}
			return request{method: http.MethodGet, path: "/api/v1/messages", query: q.Encode()}
		}
	}
	return []emailRoute{
		{"POST /messages to", func(e string) request {
			return request{method: http.MethodPost, path: "/api/v1/messages", contentType: formType,
				body: formBody("type", "direct", "to", fmt.Sprintf("[%q]", e), "content", "privacy")}
		}},
		{"POST /messages legacy to", func(e string) request {
			return request{method: http.MethodPost, path: "/api/v1/messages", contentType: formType,
				body: formBody("type", "private", "to", e, "content", "privacy")}
		}},
		{"narrow sender", narrow("sender")},
		{"narrow dm", narrow("dm")},
		{"narrow dm-including", narrow("dm-including")},
		{"matches_narrow sender", func(e string) request {
			q := url.Values{"msg_ids": {"[1]"}, "narrow": {fmt.Sprintf(`[{"operator":"sender","operand":%q}]`, e)}}
			return request{method: http.MethodGet, path: "/api/v1/messages/matches_narrow", query: q.Encode()}
		}},
		{"subscribe principals", func(e string) request {
			return request{method: http.MethodPost, path: "/api/v1/users/me/subscriptions", contentType: formType,
				body: formBody("subscriptions", `[{"name":"general"}]`, "principals", fmt.Sprintf("[%q]", e))}
		}},
		{"GET /users/{email}", func(e string) request {
			return request{method: http.MethodGet, path: "/api/v1/users/" + url.PathEscape(e)}
		}},
		{"PATCH /users/{email}", func(e string) request {
			return request{method: http.MethodPatch, path: "/api/v1/users/" + url.PathEscape(e), contentType: formType,
				body: formBody("full_name", "Privacy Check")}
		}},
	}
}

// outcome is what a request's answer says, with the email it named replaced, so that answers
// about different addresses compare.
func outcome(res response, email string) string {
	if res.env == nil {
		return fmt.Sprintf("%d non-JSON", res.status)
	}
	msg, _ := res.env["msg"].(string)
	return fmt.Sprintf("%d %v %v %q", res.status, res.env["result"], res.env["code"], strings.ReplaceAll(msg, email, "EMAIL"))
}

// TestEmailInputPrivacy: the moderator hides their address from all but administrators.
// For every route that takes an email and every role, the real address is answered as an
// unknown address where the role may not see it, and as the dummy address where it may.
func TestEmailInputPrivacy(t *testing.T) {
	const real, dummy, unknown = "moderator@chat.example.test", "user3@chat.example.test", "nobody-here@chat.example.test"
	for _, route := range emailRoutes() {
		t.Run(route.name, func(t *testing.T) {
			t.Parallel()
			for _, viewer := range []struct {
				role    string
				auth    string
				mayKnow bool
			}{
				{"owner", ownerAuth, true}, {"administrator", adminAuth, true},
				{"member", memberAuth, false}, {"guest", guestAuth, false}, {"bot", botAuth, false},
			} {
				// A fresh fake per viewer: the requests that succeed change state.
				ts := newServer(t)
				requireSuccess(t, "hide the moderator's email",
					patch(t, ts.URL, modAuth, "/api/v1/settings", "email_address_visibility", "3"))
				ask := func(email string) string {
					req := route.build(email)
					req.auth = viewer.auth
					return outcome(do(t, ts.URL, req), email)
				}
				want := ask(unknown)
				if viewer.mayKnow {
					want = ask(dummy)
					if strings.Contains(want, "error") && route.name != "PATCH /users/{email}" {
						t.Errorf("%s with the dummy address: %s", viewer.role, want)
					}
				}
				if got := ask(real); got != want {
					t.Errorf("%s with the real address: %s, want %s (as with the %s address)", viewer.role, got, want,
						map[bool]string{true: "dummy", false: "unknown"}[viewer.mayKnow])
				}
			}
		})
	}
}
