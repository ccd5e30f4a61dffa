package api_test

import (
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
)

// TestControlAPISaysWhatItDid: the control API takes JSON bodies as well as forms, refuses a
// setting it does not know or of the wrong type, naming it, and changes nothing then.
func TestControlAPISaysWhatItDid(t *testing.T) {
	ts := newServer(t)
	patchJSON := func(body string) response {
		return do(t, ts.URL, request{method: http.MethodPatch, path: "/_fake/config", body: []byte(body), contentType: "application/json"})
	}
	config := func() map[string]any {
		return requireSuccess(t, "config", get(t, ts.URL, "", "/_fake/config", ""))["config"].(map[string]any)
	}
	requireSuccess(t, "JSON patch", patchJSON(`{"push_configured": true, "delete_batch_size": 3}`))
	if c := config(); c["push_configured"] != true || c["delete_batch_size"] != float64(3) {
		t.Fatalf("a JSON patch did not take effect: %v", c)
	}
	before := canonical(config())
	for _, tc := range []struct {
		name string
		res  response
		says string
	}{
		{"a misspelled setting", patchJSON(`{"push_configurd": false}`), "Unknown setting: push_configurd"},
		{"a misspelled setting beside a good one", patchJSON(`{"delete_batch_size": 5, "push_configurd": false}`), "push_configurd"},
		{"a wrong type", patchJSON(`{"delete_batch_size": "many"}`), "delete_batch_size"},
		{"not an object", patchJSON(`[1, 2]`), "not one JSON object"},
		{"a misspelled setting in a form", do(t, ts.URL, request{method: http.MethodPatch, path: "/_fake/config",
			body: formBody("push_configurd", "false"), contentType: formType, headers: map[string]string{"X-Chatconform-Spec": "test"}}), "push_configurd"},
		{"a parameter to a route that takes none", do(t, ts.URL, request{method: http.MethodPost, path: "/_fake/reset",
			body: []byte(`{"hard": true}`), contentType: "application/json"}), "Unknown setting: hard"},
	} {
		if tc.res.status != http.StatusBadRequest || tc.res.env["result"] != "error" || !strings.Contains(fmt.Sprint(tc.res.env["msg"]), tc.says) {
			t.Errorf("%s: %s, want 400 saying %q", tc.name, tc.res, tc.says)
		}
	}
	if after := canonical(config()); after != before {
		t.Errorf("refused patches changed the configuration:\n%s\n%s", before, after)
	}

	// Two clients patching different settings at once: every patch takes effect.
	var wg sync.WaitGroup
	for _, name := range []string{"delete_batch_size", "max_batches_per_request"} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 1; i <= 50; i++ {
				if res := patchJSON(fmt.Sprintf(`{%q: %d}`, name, i)); res.status != http.StatusOK {
					t.Errorf("%s=%d: %s", name, i, res)
				}
			}
		}()
	}
	wg.Wait()
	if c := config(); c["delete_batch_size"] != float64(50) || c["max_batches_per_request"] != float64(50) {
		t.Errorf("concurrent patches lost an update: %v", c)
	}
}
