package api_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
)

func TestLinkifierOrderAndUpdate(t *testing.T) {
	ts := newServer(t)
	var ids []string
	for i := range 3 {
		env := requireSuccess(t, "add", post(t, ts.URL, ownerAuth, "/api/v1/realm/filters",
			"pattern", fmt.Sprintf("L%d-(?P<id>[0-9]+)", i), "url_template", "https://l.example/{id}"))
		ids = append(ids, fmt.Sprint(env["id"]))
	}
	order := func() string {
		list := requireSuccess(t, "list", get(t, ts.URL, memberAuth, "/api/v1/realm/linkifiers", ""))["linkifiers"].([]any)
		var got []string
		for _, l := range list {
			got = append(got, fmt.Sprint(l.(map[string]any)["id"]))
		}
		return strings.Join(got, ",")
	}
	reorder := func(list string) response {
		return do(t, ts.URL, request{method: http.MethodPatch, path: "/api/v1/realm/linkifiers", auth: adminAuth,
			body: formBody("ordered_linkifier_ids", list), contentType: formType})
	}
	requireSuccess(t, "reorder", reorder(fmt.Sprintf("[%s,%s,%s]", ids[2], ids[0], ids[1])))
	if got := order(); got != ids[2]+","+ids[0]+","+ids[1] {
		t.Errorf("order %s", got)
	}
	requireSuccess(t, "update", do(t, ts.URL, request{method: http.MethodPatch, path: "/api/v1/realm/filters/" + ids[0], auth: ownerAuth,
		body: formBody("pattern", "NEW-(?P<id>[0-9]+)", "url_template", "https://new.example/{id}"), contentType: formType}))
	if got := order(); got != ids[2]+","+ids[0]+","+ids[1] {
		t.Errorf("an update moved the linkifier: %s", got)
	}
	res := do(t, ts.URL, request{method: http.MethodPatch, path: "/api/v1/realm/filters/" + ids[1], auth: ownerAuth,
		body: formBody("pattern", "NEW-(?P<id>[0-9]+)", "url_template", "https://other.example/{id}"), contentType: formType})
	checkBad(t, badCase{want: badRequest("Linkifier with this Pattern and Realm already exists.")}, res)
}
