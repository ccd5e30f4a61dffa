package api_test

// Default channels, channel folders, navigation views and the one-call subscription update:
// their answers, events, register state and level gates.

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/gif"
	"net/http"
	"testing"

	"github.com/chatconform/chatconform/fakeserver/internal/realm"
)

func deleteWith(t *testing.T, base, auth, path string, kv ...string) response {
	t.Helper()
	return do(t, base, request{method: http.MethodDelete, path: path, auth: auth, body: formBody(kv...), contentType: formType})
}

// registerKey is one key of the register state of a fetch of one event type.
func registerKey(t *testing.T, base, auth, eventType, key string) any {
	t.Helper()
	return requireSuccess(t, "register", post(t, base, auth, "/api/v1/register", "fetch_event_types", `["`+eventType+`"]`))[key]
}

func TestNavigationViews(t *testing.T) {
	base := newCheckedServer(t)
	queue := evRegister(t, base, memberAuth, "event_types", `["navigation_view"]`)
	alerted := "/api/v1/navigation_views/narrow%2Fis%2Falerted"
	requireSuccess(t, "built-in", post(t, base, memberAuth, "/api/v1/navigation_views", "fragment", "inbox", "is_pinned", "true"))
	requireSuccess(t, "custom", post(t, base, memberAuth, "/api/v1/navigation_views", "fragment", " narrow/is/alerted ", "is_pinned", "false", "name", " Alerts "))
	requireSuccess(t, "pin", patch(t, base, memberAuth, alerted, "is_pinned", "true"))
	requireSuccess(t, "rename", patch(t, base, memberAuth, alerted, "name", "Alert words"))
	requireSuccess(t, "nothing", patch(t, base, memberAuth, alerted))

	want := `[{"fragment":"inbox","is_pinned":true,"name":null},{"fragment":"narrow/is/alerted","is_pinned":true,"name":"Alert words"}]`
	if got := requireSuccess(t, "list", get(t, base, memberAuth, "/api/v1/navigation_views", ""))["navigation_views"]; canonical(got) != want {
		t.Errorf("GET /navigation_views: %s\nwant %s", canonical(got), want)
	}
	if got := registerKey(t, base, memberAuth, "navigation_views", "navigation_views"); canonical(got) != want {
		t.Errorf("register: %s", canonical(got))
	}
	if got := requireSuccess(t, "owner's", get(t, base, ownerAuth, "/api/v1/navigation_views", ""))["navigation_views"]; canonical(got) != "[]" {
		t.Errorf("the owner's views: %v", got)
	}

	requireSuccess(t, "remove", do(t, base, request{method: http.MethodDelete, path: alerted, auth: memberAuth}))
	evs := eventsOfType(evPoll(t, base, memberAuth, queue, -1, true), "navigation_view")
	var got []string
	for _, ev := range evs {
		delete(ev, "id")
		got = append(got, canonical(ev))
	}
	for i, w := range []string{
		`{"navigation_view":{"fragment":"inbox","is_pinned":true,"name":null},"op":"add","type":"navigation_view"}`,
		`{"navigation_view":{"fragment":"narrow/is/alerted","is_pinned":false,"name":"Alerts"},"op":"add","type":"navigation_view"}`,
		`{"data":{"is_pinned":true},"fragment":"narrow/is/alerted","op":"update","type":"navigation_view"}`,
		`{"data":{"name":"Alert words"},"fragment":"narrow/is/alerted","op":"update","type":"navigation_view"}`,
		`{"data":{},"fragment":"narrow/is/alerted","op":"update","type":"navigation_view"}`,
		`{"fragment":"narrow/is/alerted","op":"remove","type":"navigation_view"}`,
	} {
		if i >= len(got) || got[i] != w {
			t.Fatalf("navigation_view events:\n%v\nwant event %d: %s", got, i, w)
		}
	}
	if len(got) != 6 {
		t.Errorf("%d navigation_view events, want 6", len(got))
	}
}

// A fragment's slashes may come as they are in the path, as the real server's route takes them.
func TestNavigationViewFragmentWithSlashes(t *testing.T) {
	base := newServer(t).URL
	requireSuccess(t, "add", post(t, base, memberAuth, "/api/v1/navigation_views", "fragment", "narrow/is/starred", "is_pinned", "true"))
	requireSuccess(t, "unpin", patch(t, base, memberAuth, "/api/v1/navigation_views/narrow/is/starred", "is_pinned", "false"))
	views := requireSuccess(t, "list", get(t, base, memberAuth, "/api/v1/navigation_views", ""))["navigation_views"]
	if canonical(views) != `[{"fragment":"narrow/is/starred","is_pinned":false,"name":null}]` {
		t.Errorf("after unpinning: %s", canonical(views))
	}
}

func TestChannelFolders(t *testing.T) {
	base := newCheckedServer(t)
	queue := evRegister(t, base, memberAuth, "event_types", `["channel_folder"]`)
	for i, name := range []string{"Engineering", "Marketing"} {
		got := requireSuccess(t, "create", post(t, base, adminAuth, "/api/v1/channel_folders/create", "name", name, "description", "**"+name+"** channels"))
		if got["channel_folder_id"] != float64(i+1) {
			t.Errorf("folder %s: %v", name, got)
		}
	}
	folders := func(query string) string {
		list := requireSuccess(t, "list", get(t, base, memberAuth, "/api/v1/channel_folders", query))["channel_folders"].([]any)
		var out []string
		for _, f := range list {
			f := f.(map[string]any)
			out = append(out, fmt.Sprintf("%v:%v:%v:%v", f["id"], f["name"], f["order"], f["is_archived"]))
		}
		return fmt.Sprint(out)
	}
	if got := folders(""); got != "[1:Engineering:1:false 2:Marketing:2:false]" {
		t.Errorf("new folders: %s (a new folder's order is its ID)", got)
	}
	first := requireSuccess(t, "list", get(t, base, memberAuth, "/api/v1/channel_folders", ""))["channel_folders"].([]any)[0].(map[string]any)
	if first["rendered_description"] != "<p><strong>Engineering</strong> channels</p>" || first["creator_id"] != float64(2) || first["date_created"] != float64(defaultFixture.Realm.StartTime) {
		t.Errorf("folder 1: %v", first)
	}

	requireSuccess(t, "rename", patch(t, base, adminAuth, "/api/v1/channel_folders/1", "name", "Engineering", "description", "Builders"))
	requireSuccess(t, "archive", patch(t, base, adminAuth, "/api/v1/channel_folders/2", "is_archived", "true", "name", "Sales"))
	if got := folders(""); got != "[1:Engineering:1:false]" {
		t.Errorf("without archived folders: %s", got)
	}
	requireSuccess(t, "reorder", patch(t, base, adminAuth, "/api/v1/channel_folders", "order", "[2,1]"))
	if got := folders("include_archived=true"); got != "[2:Sales:0:true 1:Engineering:1:false]" {
		t.Errorf("reordered, with archived folders: %s", got)
	}
	state := requireSuccess(t, "register", post(t, base, memberAuth, "/api/v1/register", "fetch_event_types", `["channel_folders","realm"]`))
	if n := len(state["channel_folders"].([]any)); n != 2 || state["max_channel_folder_name_length"] != float64(60) || state["max_channel_folder_description_length"] != float64(1024) {
		t.Errorf("register: %d folders (archived ones too), limits %v, %v", n, state["max_channel_folder_name_length"], state["max_channel_folder_description_length"])
	}

	var got []string
	for _, ev := range eventsOfType(evPoll(t, base, memberAuth, queue, -1, true), "channel_folder") {
		switch ev["op"] {
		case "add":
			got = append(got, fmt.Sprint("add ", ev["channel_folder"].(map[string]any)["name"]))
		case "update":
			got = append(got, fmt.Sprint("update ", ev["channel_folder_id"], " ", canonical(ev["data"])))
		default:
			got = append(got, fmt.Sprint(ev["op"], " ", canonical(ev["order"])))
		}
	}
	// A rename to the same name changes nothing and tells nobody; each change has its own event.
	want := fmt.Sprint([]string{"add Engineering", "add Marketing",
		`update 1 {"description":"Builders","rendered_description":"\u003cp\u003eBuilders\u003c/p\u003e"}`,
		`update 2 {"name":"Sales"}`, `update 2 {"is_archived":true}`, "reorder [2,1]"})
	if fmt.Sprint(got) != want {
		t.Errorf("channel_folder events:\n%v\nwant %v", got, want)
	}
}

func TestDefaultChannels(t *testing.T) {
	base := newCheckedServer(t)
	requireSuccess(t, "channel", post(t, base, ownerAuth, "/api/v1/users/me/subscriptions", "subscriptions", `[{"name":"announce"}]`))
	member := evRegister(t, base, memberAuth, "event_types", `["default_streams"]`)
	guest := evRegister(t, base, guestAuth, "event_types", `["default_streams"]`)
	requireSuccess(t, "add", post(t, base, adminAuth, "/api/v1/default_streams", "stream_id", "2"))
	requireSuccess(t, "add again", post(t, base, adminAuth, "/api/v1/default_streams", "stream_id", "2"))

	if got := registerKey(t, base, memberAuth, "default_streams", "realm_default_streams"); canonical(got) != "[2]" {
		t.Errorf("the member's realm_default_streams: %v", got)
	}
	if got := registerKey(t, base, guestAuth, "default_streams", "realm_default_streams"); canonical(got) != "[]" {
		t.Errorf("a guest's realm_default_streams: %v, want none", got)
	}
	for _, s := range requireSuccess(t, "streams", get(t, base, memberAuth, "/api/v1/streams", "include_default=true"))["streams"].([]any) {
		s := s.(map[string]any)
		if s["is_default"] != (s["stream_id"] == float64(2)) {
			t.Errorf("is_default of %v: %v", s["name"], s["is_default"])
		}
	}
	// A new account is subscribed to the default channels.
	created := requireSuccess(t, "create user", post(t, base, ownerAuth, "/api/v1/users", "email", "new@chat.example.test", "password", "new-password", "full_name", "New Person"))
	members := requireSuccess(t, "members", get(t, base, ownerAuth, "/api/v1/streams/2/members", ""))["subscribers"]
	if canonical(members) != fmt.Sprintf("[1,%v]", created["user_id"]) {
		t.Errorf("announce's subscribers after a new account: %v", members)
	}

	requireSuccess(t, "remove", deleteWith(t, base, adminAuth, "/api/v1/default_streams", "stream_id", "2"))
	if got := registerKey(t, base, memberAuth, "default_streams", "realm_default_streams"); canonical(got) != "[]" {
		t.Errorf("after removing: %v", got)
	}
	evs := eventsOfType(evPoll(t, base, memberAuth, member, -1, true), "default_streams")
	if len(evs) != 2 || canonical(evs[0]["default_streams"]) != "[2]" || canonical(evs[1]["default_streams"]) != "[]" {
		t.Errorf("the member's default_streams events (adding again tells nobody): %v", evs)
	}
	if evs := eventsOfType(evPoll(t, base, guestAuth, guest, -1, true), "default_streams"); len(evs) != 0 {
		t.Errorf("a guest got default_streams events: %v", evs)
	}
}

func TestUpdateSubscriptions(t *testing.T) {
	base := newCheckedServer(t)
	got := requireSuccess(t, "update", patch(t, base, memberAuth, "/api/v1/users/me/subscriptions",
		"add", `[{"name":"fresh","color":"#AABBCC","description":"Just made"},{"name":"general"}]`, "delete", `[" general "]`))
	if !hasUpdateFields(got) {
		t.Errorf("answer %v", got)
	}
	for _, c := range []struct{ what, got, want string }{
		{"subscribed", canonical(got["subscribed"]), `{"4":["fresh"]}`},
		{"already_subscribed", canonical(got["already_subscribed"]), `{"4":["general"]}`},
		{"removed", canonical(got["removed"]), `["general"]`},
		{"not_removed", canonical(got["not_removed"]), `[]`},
	} {
		if c.got != c.want {
			t.Errorf("%s: %s, want %s", c.what, c.got, c.want)
		}
	}
	subs := requireSuccess(t, "subscriptions", get(t, base, memberAuth, "/api/v1/users/me/subscriptions", ""))["subscriptions"].([]any)
	if len(subs) != 1 || subs[0].(map[string]any)["name"] != "fresh" || subs[0].(map[string]any)["color"] != "#AABBCC" || subs[0].(map[string]any)["description"] != "Just made" {
		t.Errorf("the member's subscriptions: %v", subs)
	}

	// All or nothing: a deletion that fails leaves the additions unmade.
	res := patch(t, base, memberAuth, "/api/v1/users/me/subscriptions", "add", `[{"name":"ghost"}]`, "delete", `["nowhere"]`)
	if res.status != http.StatusBadRequest || res.env["msg"] != "Channel(s) (nowhere) do not exist" {
		t.Errorf("a missing channel to delete: %s", res)
	}
	if res := get(t, base, memberAuth, "/api/v1/get_stream_id", "stream=ghost"); res.status != http.StatusBadRequest {
		t.Errorf("the channel of a failed update was created: %s", res)
	}
	// A channel made by the call may be left in the same call.
	got = requireSuccess(t, "made and left", patch(t, base, memberAuth, "/api/v1/users/me/subscriptions", "add", `[{"name":"brief"}]`, "delete", `["brief"]`))
	if canonical(got["subscribed"]) != `{"4":["brief"]}` || canonical(got["removed"]) != `["brief"]` {
		t.Errorf("made and left: %v", got)
	}
}

// hasUpdateFields is whether an update's answer has all four fields, as the real server's
// merged answer does.
func hasUpdateFields(env map[string]any) bool {
	for _, k := range []string{"subscribed", "already_subscribed", "removed", "not_removed"} {
		if _, ok := env[k]; !ok {
			return false
		}
	}
	return true
}

// TestRoutesALevelBoundaries runs each gate of this area one level below its boundary and at it.
func TestRoutesALevelBoundaries(t *testing.T) {
	served := func(t *testing.T, base, path string) bool {
		res := get(t, base, memberAuth, path, "")
		if res.status != http.StatusOK && res.status != http.StatusNotFound {
			t.Errorf("GET %s: %s", path, res)
		}
		return res.status == http.StatusOK
	}
	withFolders := func(t *testing.T, base string, n int) {
		for i := range n {
			requireSuccess(t, "folder", post(t, base, adminAuth, "/api/v1/channel_folders/create", "name", fmt.Sprint("Folder ", i), "description", ""))
		}
	}
	for _, c := range []struct {
		name     string
		boundary int
		newer    func(t *testing.T, base string) bool
	}{
		{"default channels as IDs", realm.LevelDefaultChannelIDs, func(t *testing.T, base string) bool {
			requireSuccess(t, "default", post(t, base, adminAuth, "/api/v1/default_streams", "stream_id", "1"))
			list := registerKey(t, base, memberAuth, "default_streams", "realm_default_streams").([]any)
			_, isObject := list[0].(map[string]any)
			return !isObject && list[0] == float64(1)
		}},
		{"navigation views", realm.LevelNavigationViews, func(t *testing.T, base string) bool {
			_, inRegister := requireSuccess(t, "register", post(t, base, memberAuth, "/api/v1/register", "fetch_event_types", `["navigation_views"]`))["navigation_views"]
			if routed := served(t, base, "/api/v1/navigation_views"); routed != inRegister {
				t.Errorf("route served %v, register state %v", routed, inRegister)
			}
			return inRegister
		}},
		{"channel folders", realm.LevelChannelFolders, func(t *testing.T, base string) bool {
			_, inRegister := requireSuccess(t, "register", post(t, base, memberAuth, "/api/v1/register", "fetch_event_types", `["channel_folders"]`))["channel_folders"]
			if routed := served(t, base, "/api/v1/channel_folders"); routed != inRegister {
				t.Errorf("route served %v, register state %v", routed, inRegister)
			}
			return inRegister
		}},
		{"channel folder name and description limits in register", realm.LevelChannelFolderLimits, func(t *testing.T, base string) bool {
			_, shown := requireSuccess(t, "register", post(t, base, memberAuth, "/api/v1/register", "fetch_event_types", `["realm"]`))["max_channel_folder_name_length"]
			return shown
		}},
		{"channel folder order and reordering", realm.LevelChannelFolderOrder, func(t *testing.T, base string) bool {
			withFolders(t, base, 1)
			_, hasOrder := requireSuccess(t, "list", get(t, base, memberAuth, "/api/v1/channel_folders", ""))["channel_folders"].([]any)[0].(map[string]any)["order"]
			reordered := patch(t, base, adminAuth, "/api/v1/channel_folders", "order", "[1]").status == http.StatusOK
			if hasOrder != reordered {
				t.Errorf("order shown %v, reordering served %v", hasOrder, reordered)
			}
			return hasOrder
		}},
		{"HTTP 404 for removing a custom emoji that does not exist", realm.LevelEmojiNotFound404, func(t *testing.T, base string) bool {
			res := do(t, base, request{method: http.MethodDelete, path: "/api/v1/realm/emoji/nothing", auth: adminAuth})
			if res.env["msg"] != "Emoji 'nothing' does not exist" {
				t.Errorf("removing no emoji: %s", res)
			}
			return res.status == http.StatusNotFound
		}},
		{"an event for reordering channel folders", realm.LevelChannelFolderReorderEvent, func(t *testing.T, base string) bool {
			withFolders(t, base, 2)
			queue := evRegister(t, base, memberAuth, "event_types", `["channel_folder"]`)
			requireSuccess(t, "reorder", patch(t, base, adminAuth, "/api/v1/channel_folders", "order", "[2,1]"))
			return len(eventsOfType(evPoll(t, base, memberAuth, queue, -1, true), "channel_folder")) == 1
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			for _, level := range []int{c.boundary - 1, c.boundary} {
				if got, want := c.newer(t, newServerAt(t, level).URL), level >= c.boundary; got != want {
					t.Errorf("at level %d: newer form %v, want %v", level, got, want)
				}
			}
		})
	}
}

// animatedGIF is a two-frame GIF image.
func animatedGIF(t *testing.T) []byte {
	t.Helper()
	frame := image.NewPaletted(image.Rect(0, 0, 2, 2), color.Palette{color.Black, color.White})
	var b bytes.Buffer
	if err := gif.EncodeAll(&b, &gif.GIF{Image: []*image.Paletted{frame, frame}, Delay: []int{10, 10}}); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestCustomEmoji(t *testing.T) {
	base := newCheckedServer(t)
	queue := evRegister(t, base, ownerAuth, "event_types", `["realm_emoji"]`)
	requireSuccess(t, "upload", uploadEmoji(t, base, memberAuth, "party%20time", emojiPNG))
	requireSuccess(t, "animated", uploadEmoji(t, base, memberAuth, "dance", animatedGIF(t)))
	requireSuccess(t, "built-in name, by an administrator", uploadEmoji(t, base, adminAuth, "heart", emojiPNG))

	emoji := requireSuccess(t, "list", get(t, base, guestAuth, "/api/v1/realm/emoji", ""))["emoji"].(map[string]any)
	want := `{"1":{"author_id":4,"deactivated":false,"id":"1","name":"party_time","source_url":"/user_avatars/1/emoji/images/1.png","still_url":null},` +
		`"2":{"author_id":4,"deactivated":false,"id":"2","name":"dance","source_url":"/user_avatars/1/emoji/images/2.gif","still_url":"/user_avatars/1/emoji/images/still/2.png"},` +
		`"3":{"author_id":2,"deactivated":false,"id":"3","name":"heart","source_url":"/user_avatars/1/emoji/images/3.png","still_url":null}}`
	if canonical(emoji) != want {
		t.Errorf("GET /realm/emoji:\n%s\nwant %s", canonical(emoji), want)
	}
	for url, contentType := range map[string]string{
		"/user_avatars/1/emoji/images/1.png": "image/png", "/user_avatars/1/emoji/images/2.gif": "image/gif",
		"/user_avatars/1/emoji/images/still/2.png": "image/png",
	} {
		res := get(t, base, "", url, "")
		if res.status != http.StatusOK || res.header.Get("Content-Type") != contentType {
			t.Errorf("GET %s: HTTP %d, %s", url, res.status, res.header.Get("Content-Type"))
		} else if _, format, err := image.Decode(bytes.NewReader(res.body)); err != nil || "image/"+format != contentType {
			t.Errorf("GET %s: not a %s image (%v)", url, contentType, err)
		}
	}

	// Members remove their own emoji; administrators anyone's. A removed emoji stays listed,
	// deactivated, and its name may be taken again.
	res := do(t, base, request{method: http.MethodDelete, path: "/api/v1/realm/emoji/heart", auth: memberAuth})
	if res.status != http.StatusBadRequest {
		t.Errorf("a member removing an administrator's emoji: %s", res)
	}
	requireSuccess(t, "own", do(t, base, request{method: http.MethodDelete, path: "/api/v1/realm/emoji/party_time", auth: memberAuth}))
	requireSuccess(t, "anyone's", do(t, base, request{method: http.MethodDelete, path: "/api/v1/realm/emoji/dance", auth: adminAuth}))
	requireSuccess(t, "name again", uploadEmoji(t, base, memberAuth, "party_time", emojiPNG))
	state := registerKey(t, base, memberAuth, "realm_emoji", "realm_emoji").(map[string]any)
	var deactivated []string
	for _, id := range []string{"1", "2", "3", "4"} {
		if e, ok := state[id].(map[string]any); !ok {
			t.Fatalf("register's realm_emoji lacks %s: %v", id, state)
		} else if e["deactivated"] == true {
			deactivated = append(deactivated, id)
		}
	}
	if fmt.Sprint(deactivated) != "[1 2]" {
		t.Errorf("deactivated: %v, want [1 2]", deactivated)
	}
	evs := eventsOfType(evPoll(t, base, ownerAuth, queue, -1, true), "realm_emoji")
	if len(evs) != 6 || evs[5]["op"] != "update" || canonical(evs[5]["realm_emoji"]) != canonical(state) {
		t.Errorf("%d realm_emoji events, the last %v", len(evs), evs[len(evs)-1])
	}
}

func TestProfileFieldEdits(t *testing.T) {
	base := newCheckedServer(t)
	queue := evRegister(t, base, memberAuth, "event_types", `["custom_profile_fields"]`)
	fieldsNow := func() string {
		var out []string
		for _, f := range requireSuccess(t, "fields", get(t, base, memberAuth, "/api/v1/realm/profile_fields", ""))["custom_fields"].([]any) {
			f := f.(map[string]any)
			out = append(out, fmt.Sprintf("%v:%v:%v:%v:%v:%v:%v", f["id"], f["order"], f["name"], f["hint"], f["display_in_profile_summary"], f["required"], f["editable_by_user"]))
		}
		return fmt.Sprint(out)
	}
	requireSuccess(t, "edit", patch(t, base, adminAuth, "/api/v1/realm/profile_fields/1",
		"name", " Mobile ", "display_in_profile_summary", "true", "required", "true", "editable_by_user", "false"))
	requireSuccess(t, "hint only", patch(t, base, adminAuth, "/api/v1/realm/profile_fields/3", "hint", "Your site"))
	requireSuccess(t, "reorder", patch(t, base, adminAuth, "/api/v1/realm/profile_fields", "order", "[5,4,3,2,1,99]"))
	want := "[5:0:Birthday::false:false:true 4:1:Mentor:Who to ask for help:false:false:true 3:2:Website:Your site:false:false:true " +
		"2:3:Biography:A few words about yourself:false:false:true 1:4:Mobile:A number to call:true:true:false]"
	if got := fieldsNow(); got != want {
		t.Errorf("fields:\n%s\nwant %s", got, want)
	}
	res := patch(t, base, adminAuth, "/api/v1/realm/profile_fields/2", "display_in_profile_summary", "true")
	if res.env["msg"] != "Field type not supported for display in profile summary." {
		t.Errorf("a long text field in the summary: %s", res)
	}
	evs := eventsOfType(evPoll(t, base, memberAuth, queue, -1, true), "custom_profile_fields")
	if len(evs) != 3 || canonical(evs[2]["fields"]) != canonical(requireSuccess(t, "fields", get(t, base, memberAuth, "/api/v1/realm/profile_fields", ""))["custom_fields"]) {
		t.Errorf("%d custom_profile_fields events; want 3, the last the list as it is", len(evs))
	}
}

// Below level 252 an edit of a custom profile field names the field's name.
func TestProfileFieldEditNameRequiredBelow252(t *testing.T) {
	for _, level := range []int{realm.LevelOptionalFieldUpdate - 1, realm.LevelOptionalFieldUpdate} {
		res := patch(t, newServerAt(t, level).URL, adminAuth, "/api/v1/realm/profile_fields/1", "hint", "A hint")
		if required := res.env["code"] == "REQUEST_VARIABLE_MISSING"; required != (level < realm.LevelOptionalFieldUpdate) {
			t.Errorf("at level %d: %s", level, res)
		}
	}
}

// Custom emoji images, kept in memory, count against the realm's upload quota.
func TestCustomEmojiWithinQuota(t *testing.T) {
	base := newServer(t).URL
	evPatchConfig(t, base, "upload_quota_bytes_total", fmt.Sprint(2*len(emojiPNG)))
	for i, want := range []int{http.StatusOK, http.StatusOK, http.StatusBadRequest} {
		res := uploadEmoji(t, base, memberAuth, fmt.Sprint("e", i), emojiPNG)
		if res.status != want || (want != http.StatusOK && res.env["msg"] != "Upload would exceed your organization's upload quota.") {
			t.Errorf("emoji %d: %s", i, res)
		}
	}
}
