package api_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/chatconform/chatconform/fakeserver/internal/realm"
)

func TestBotStorage(t *testing.T) {
	ts := newServer(t)
	put := func(storage string) response {
		return do(t, ts.URL, request{method: http.MethodPut, path: "/api/v1/bot_storage", auth: botAuth, body: formBody("storage", storage), contentType: formType})
	}
	storage := func(query string) any {
		return requireSuccess(t, "get", get(t, ts.URL, botAuth, "/api/v1/bot_storage", query))["storage"]
	}
	requireSuccess(t, "put", put(`{"a":"1","b":"2","c":"3"}`))
	requireSuccess(t, "replace", put(`{"a":"one"}`))
	if got := fmt.Sprint(storage("keys=" + `["a","c"]`)); got != "map[a:one c:3]" {
		t.Errorf("GET with keys: %s", got)
	}
	// An empty list names no key and removes nothing; only an omitted keys removes everything
	// (the real server's remove_storage takes all keys only when keys is None).
	removeNone := func() response {
		return do(t, ts.URL, request{method: http.MethodDelete, path: "/api/v1/bot_storage", auth: botAuth, body: formBody("keys", "[]"), contentType: formType})
	}
	requireSuccess(t, "delete nothing with []", removeNone())
	if got := fmt.Sprint(storage("")); got != "map[a:one b:2 c:3]" {
		t.Errorf("after deleting with an empty list: %s", got)
	}
	requireSuccess(t, "delete all without keys", do(t, ts.URL, request{method: http.MethodDelete, path: "/api/v1/bot_storage", auth: botAuth}))
	if got := fmt.Sprint(storage("")); got != "map[]" {
		t.Errorf("after deleting without keys: %s", got)
	}
	// The same where nothing is stored at all (explore found a 500 there).
	requireSuccess(t, "delete nothing with [] from no storage", removeNone())
	// The limit counts keys and values, in characters (é is one).
	limit := realm.BotStorageLimit
	requireSuccess(t, "up to one below the limit", put(`{"k":"`+strings.Repeat("v", limit-3)+`é"}`))
	requireSuccess(t, "up to the limit", put(`{"x":""}`))
	requireSuccess(t, "deleting x", do(t, ts.URL, request{method: http.MethodDelete, path: "/api/v1/bot_storage", auth: botAuth,
		body: formBody("keys", `["x"]`), contentType: formType}))
	res := put(`{"xy":""}`)
	checkBad(t, badCase{want: badRequest(fmt.Sprintf("Request exceeds storage limit by 1 characters. The limit is %d characters.", limit))}, res)
}
