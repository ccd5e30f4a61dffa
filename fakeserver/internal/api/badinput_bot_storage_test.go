package api_test

import (
	"strings"

	"github.com/chatconform/chatconform/fakeserver/internal/realm"
	"github.com/chatconform/chatconform/fixtures"
)

// routeCasesBotStorage adds the bad-input cases of the routes whose handlers are in bot_storage.go.
func routeCasesBotStorage(add func(routeSpec)) {
	permissionDenied := bad(403, "PERMISSION_DENIED", "This endpoint is only available to bot users.")
	noKey := badRequest("Key does not exist.")
	getStorage := routeSpec{method: "GET", pattern: "/api/v1/bot_storage", path: "/api/v1/bot_storage", role: fixtures.RoleBot,
		params: []param{{name: "keys", kind: kStrList}}}
	getStorage.extra = []badCase{
		{"member", getStorage.as(memberAuth), permissionDenied},
		{"owner of the bot", getStorage.as(ownerAuth), permissionDenied},
		{"a key that does not exist", getStorage.with("keys", `["`+integBotKey+`","missing"]`), noKey},
	}
	add(getStorage)

	putStorage := routeSpec{method: "PUT", pattern: "/api/v1/bot_storage", path: "/api/v1/bot_storage", role: fixtures.RoleBot,
		params: []param{{name: "storage", kind: kJSONDict, required: true}},
		valid:  []string{"storage", `{"new-key":"new value"}`}}
	putStorage.extra = []badCase{
		{"member", putStorage.as(memberAuth), permissionDenied},
		{"member, no parameters (checked first)", request{method: "PUT", path: putStorage.path, auth: memberAuth}, permissionDenied},
		{"a value that is not a string", putStorage.with("storage", `{"a":"ok","b":5}`), badRequest(`storage["b"] is not a string`)},
		{"a null value", putStorage.with("storage", `{"a":null}`), badRequest(`storage["a"] is not a string`)},
		{"over the storage limit", putStorage.with("storage", `{"k":"`+strings.Repeat("v", realm.BotStorageLimit)+`"}`), want{status: 400, code: "BAD_REQUEST"}},
	}
	add(putStorage)

	delStorage := routeSpec{method: "DELETE", pattern: "/api/v1/bot_storage", path: "/api/v1/bot_storage", role: fixtures.RoleBot,
		params: []param{{name: "keys", kind: kStrList}},
		valid:  []string{"keys", `["` + integBotKey + `"]`}}
	delStorage.extra = []badCase{
		{"member", delStorage.as(memberAuth), permissionDenied},
		{"administrator, no parameters (checked first)", request{method: "DELETE", path: delStorage.path, auth: adminAuth}, permissionDenied},
		{"a key that does not exist", delStorage.with("keys", `["missing"]`), noKey},
		{"an existing key and a missing one (all or nothing)", delStorage.with("keys", `["`+integBotKey+`","missing"]`), noKey},
	}
	add(delStorage)
}
