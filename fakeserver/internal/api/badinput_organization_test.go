package api_test

import (
	"bytes"
	"image"
	"image/png"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/chatconform/chatconform/fixtures"
)

// The bad-input cases of default channels, channel folders, navigation views and the
// one-call subscription update.

// secretChannel is the private channel organizationSetUp makes (the owner its one subscriber).
const secretChannel = "2"

// emojiPNG is a one-pixel PNG image, for custom emoji.
var emojiPNG = func() []byte {
	var b bytes.Buffer
	if err := png.Encode(&b, image.NewGray(image.Rect(0, 0, 1, 1))); err != nil {
		panic(err)
	}
	return b.Bytes()
}()

// uploadEmoji uploads content as the custom emoji name.
func uploadEmoji(t testing.TB, base, auth, name string, content []byte) response {
	t.Helper()
	body, contentType := integMultipart(nil, "file", "emoji.png", content)
	return do(t, base, request{method: http.MethodPost, path: "/api/v1/realm/emoji/" + name, auth: auth, body: body, contentType: contentType})
}

// organizationSetUp makes general a default channel, adds a private channel (2, the owner's), two
// channel folders (1 and 2, the private channel in 2), two navigation views of the member's (inbox, pinned; a custom
// view named Alerts), the owner's custom emoji setup_emoji (1), and shows the custom profile
// fields 3 and 5 in the profile summary, so that a wrongful change to any of them shows.
func organizationSetUp(t testing.TB, base string) {
	t.Helper()
	requireSuccess(t, "setup default channel", post(t, base, ownerAuth, "/api/v1/default_streams", "stream_id", "1"))
	requireSuccess(t, "setup private channel", post(t, base, ownerAuth, "/api/v1/users/me/subscriptions",
		"subscriptions", `[{"name":"badinput-secret"}]`, "invite_only", "true"))
	if id := requireSuccess(t, "setup private channel's ID", get(t, base, ownerAuth, "/api/v1/get_stream_id", "stream=badinput-secret"))["stream_id"]; canonical(id) != secretChannel {
		t.Fatalf("the setup's private channel has ID %v, the cases name %s", id, secretChannel)
	}
	for _, name := range []string{"Setup folder", "Second folder"} {
		requireSuccess(t, "setup channel folder", post(t, base, ownerAuth, "/api/v1/channel_folders/create", "name", name, "description", "set up"))
	}
	requireSuccess(t, "setup channel in a folder", patch(t, base, ownerAuth, "/api/v1/streams/"+secretChannel, "folder_id", "2"))
	requireSuccess(t, "setup built-in view", post(t, base, memberAuth, "/api/v1/navigation_views", "fragment", "inbox", "is_pinned", "true"))
	requireSuccess(t, "setup custom view", post(t, base, memberAuth, "/api/v1/navigation_views",
		"fragment", "narrow/is/alerted", "is_pinned", "false", "name", "Alerts"))
	requireSuccess(t, "setup custom emoji", uploadEmoji(t, base, ownerAuth, "setup_emoji", emojiPNG))
	requireSuccess(t, "setup removed emoji", uploadEmoji(t, base, ownerAuth, "setup_gone", emojiPNG))
	requireSuccess(t, "setup removed emoji's removal", do(t, base, request{method: http.MethodDelete, path: "/api/v1/realm/emoji/setup_gone", auth: ownerAuth}))
	for _, field := range []string{"3", "5"} {
		requireSuccess(t, "setup profile summary", patch(t, base, ownerAuth, "/api/v1/realm/profile_fields/"+field, "display_in_profile_summary", "true"))
	}
}

// organizationStateOf adds the default channels, the channel folders (archived ones too), the
// member's navigation views, the custom emoji and the custom profile fields.
func organizationStateOf(t testing.TB, base string, state map[string]any) {
	t.Helper()
	member := post(t, base, memberAuth, "/api/v1/register", "fetch_event_types", `["default_streams","channel_folders","navigation_views","realm_emoji"]`)
	for _, key := range []string{"realm_default_streams", "channel_folders", "navigation_views", "realm_emoji"} {
		recordField(state, "member "+key, member, key)
	}
	recordField(state, "custom profile fields", get(t, base, memberAuth, "/api/v1/realm/profile_fields", ""), "custom_fields")
	// The setup channel's folder (and the rest of it): a refused move must leave it.
	recordField(state, "setup channel", get(t, base, ownerAuth, "/api/v1/streams/1", ""), "stream")
}

// routeCasesOrganization adds the bad-input cases of this area's routes.
func routeCasesOrganization(add func(routeSpec)) {
	onPath := func(path string, r request) request { r.path = path; return r }
	noChannel := badRequest("Invalid channel ID")

	update := routeSpec{method: "PATCH", pattern: "/api/v1/users/me/subscriptions", path: "/api/v1/users/me/subscriptions", role: fixtures.RoleMember,
		params: []param{{name: "delete", kind: kStrList}, {name: "add", kind: kJSONList}},
		valid:  []string{"add", `[{"name":"general","color":"#76ce90"}]`}}
	update.extra = []badCase{
		{"nothing to add or delete", update.with("add", "[]"), badRequest(`Nothing to do. Specify at least one of "add" or "delete".`)},
		{"an item not a dict", update.with("add", "[1]"), badRequest("add[0] is not a dict")},
		{"an item without a name", update.with("add", `[{"color":"#76ce90"}]`), badRequest(`add[0]["name"] is not a string`)},
		{"a color not hex", update.with("add", `[{"name":"general","color":"red"}]`), badRequest("add.color is not a valid hex color code")},
		{"a description not a string", update.with("add", `[{"name":"general","description":5}]`), badRequest(`add[0]["description"] is not a string`)},
		{"a name too long", update.with("add", `[{"name":"`+strings.Repeat("c", 61)+`"}]`), badRequest("Channel name too long (limit: 60 characters).")},
		{"an empty name to delete", update.with("delete", `[" "]`), badRequest("Channel name can't be empty.")},
		// All or nothing: the channel to create is not created when a deletion fails.
		{"a missing channel to delete beside one to create", update.as(memberAuth, "add", `[{"name":"`+newChan+`"}]`, "delete", `["badinput-x"]`),
			badRequest("Channel(s) (badinput-x) do not exist")},
	}
	add(update)

	for _, method := range []string{"POST", "DELETE"} {
		defaults := routeSpec{method: method, pattern: "/api/v1/default_streams", path: "/api/v1/default_streams", role: fixtures.RoleOwner,
			params: []param{{name: "stream_id", kind: kInt, required: true}},
			valid:  []string{"stream_id", "1"}}
		defaults.extra = []badCase{
			{"member", defaults.as(memberAuth), principalAdmin},
			{"moderator", defaults.as(modAuth), principalAdmin},
			{"no such channel", defaults.with("stream_id", "999"), noChannel},
			{"channel ID zero", defaults.with("stream_id", "0"), noChannel},
		}
		if method == "POST" {
			defaults.extra = append(defaults.extra,
				badCase{"a private channel", defaults.with("stream_id", secretChannel), badRequest("Private channels cannot be made default.")},
				badCase{"a private channel the administrator cannot access", defaults.as(adminAuth, "stream_id", secretChannel), noChannel})
		}
		add(defaults)
	}

	notAdmin := func(rs routeSpec) []badCase {
		return []badCase{{"member", rs.as(memberAuth), principalAdmin}, {"moderator", rs.as(modAuth), principalAdmin}}
	}
	create := routeSpec{method: "POST", pattern: "/api/v1/channel_folders/create", path: "/api/v1/channel_folders/create", role: fixtures.RoleAdmin,
		params: []param{{name: "description", required: true, oversizeFails: true}, {name: "name", required: true, oversizeFails: true}},
		valid:  []string{"name", "Projects", "description", "Work in progress"}}
	create.extra = append(notAdmin(create),
		badCase{"a blank name", create.with("name", "  "), badRequest("Channel folder name can't be empty.")},
		badCase{"a name too long", create.with("name", strings.Repeat("f", 61)), badRequest("name is too long (limit: 60 characters)")},
		badCase{"a description too long", create.with("description", strings.Repeat("d", 1025)), badRequest("description is too long (limit: 1024 characters)")},
		badCase{"a control character", create.with("name", "tab\there"), badRequest("Invalid character in channel folder name, at position 4.")},
		badCase{"a name taken, in another case", create.with("name", "setup FOLDER"), badRequest("Channel folder 'setup FOLDER' already exists")},
	)
	add(create)

	add(routeSpec{method: "GET", pattern: "/api/v1/channel_folders", path: "/api/v1/channel_folders", role: fixtures.RoleMember,
		params: []param{{name: "include_archived", kind: kBool}}, valid: []string{"include_archived", "true"}})

	reorder := routeSpec{method: "PATCH", pattern: "/api/v1/channel_folders", path: "/api/v1/channel_folders", role: fixtures.RoleAdmin,
		params: []param{{name: "order", kind: kJSONList, required: true}},
		valid:  []string{"order", "[2,1]"}}
	reorder.extra = append(notAdmin(reorder),
		badCase{"a folder left out", reorder.with("order", "[2]"), badRequest("Invalid order mapping.")},
		badCase{"no folder", reorder.with("order", "[]"), badRequest("Invalid order mapping.")},
		badCase{"an ID not an integer", reorder.with("order", `[1,"2"]`), badRequest("order[1] is not an integer")},
	)
	add(reorder)

	folder := routeSpec{method: "PATCH", pattern: "/api/v1/channel_folders/{channel_folder_id:[0-9]+}", path: "/api/v1/channel_folders/{id}", id: "1",
		notFound: "Invalid channel folder ID", role: fixtures.RoleAdmin,
		params: []param{{name: "description", oversizeFails: true}, {name: "is_archived", kind: kBool}, {name: "name", oversizeFails: true}},
		valid:  []string{"name", "Renamed folder", "is_archived", "true"}}
	folder.extra = append(notAdmin(folder),
		badCase{"a blank name", folder.with("name", " "), badRequest("Channel folder name can't be empty.")},
		badCase{"another folder's name", folder.with("name", "second FOLDER"), badRequest("Channel folder 'second FOLDER' already exists")},
		badCase{"a name too long", folder.with("name", strings.Repeat("f", 61)), badRequest("name is too long (limit: 60 characters)")},
		badCase{"archiving a folder a channel is in", onPath("/api/v1/channel_folders/2", folder.with("is_archived", "true")),
			badRequest("You need to remove all the channels from this folder to archive it.")},
	)
	add(folder)

	add(routeSpec{method: "GET", pattern: "/api/v1/navigation_views", path: "/api/v1/navigation_views", role: fixtures.RoleMember})

	addView := routeSpec{method: "POST", pattern: "/api/v1/navigation_views", path: "/api/v1/navigation_views", role: fixtures.RoleMember,
		params: []param{{name: "fragment", required: true, oversizeFails: true}, {name: "is_pinned", kind: kBool, required: true}, {name: "name", oversizeFails: true}},
		valid:  []string{"fragment", "narrow/is/followed", "is_pinned", "true", "name", "Followed"}}
	builtIn := func(kv ...string) request {
		v := url.Values{"fragment": {"recent"}, "is_pinned": {"true"}}
		for i := 0; i+1 < len(kv); i += 2 {
			v.Set(kv[i], kv[i+1])
		}
		return addView.build(v)
	}
	addView.extra = []badCase{
		{"a built-in view with a name", builtIn("name", "Recent"), badRequest("Built-in views cannot have a custom name.")},
		{"a custom view without a name", addView.without("name"), badRequest("Custom views must have a valid name.")},
		{"a blank fragment", addView.with("fragment", "  "), badRequest("fragment is too short.")},
		{"a blank name", addView.with("name", " "), badRequest("name is too short.")},
		{"a fragment the user has", builtIn("fragment", "inbox"), badRequest("Navigation view already exists.")},
		{"a name the user has", addView.with("name", "Alerts"), badRequest("Navigation view already exists.")},
		{"a fragment over the fake's bound", addView.with("fragment", strings.Repeat("f", 1001)), badRequest("fragment is too long (limit: 1000 characters)")},
		{"a name over the fake's bound", addView.with("name", strings.Repeat("n", 1001)), badRequest("name is too long (limit: 1000 characters)")},
	}
	add(addView)

	viewNotFound := bad(404, "BAD_REQUEST", "Navigation view does not exist.")
	editView := routeSpec{method: "PATCH", pattern: "/api/v1/navigation_views/*", path: "/api/v1/navigation_views/narrow%2Fis%2Falerted", role: fixtures.RoleMember,
		params: []param{{name: "is_pinned", kind: kBool}, {name: "name", oversizeFails: true}},
		valid:  []string{"is_pinned", "true", "name", "Alert words"}}
	editView.extra = []badCase{
		{"a view the user does not have", onPath("/api/v1/navigation_views/narrow%2Fis%2Fnone", editView.with("name", "Other")), viewNotFound},
		{"a name for a built-in view", onPath("/api/v1/navigation_views/inbox", editView.with("name", "Inbox")), badRequest("Built-in views cannot have a custom name.")},
		{"a name the user has, even this view's", editView.with("name", "Alerts"), badRequest("Navigation view already exists.")},
		{"a blank name", editView.with("name", " "), badRequest("name is too short.")},
		{"a name over the fake's bound", editView.with("name", strings.Repeat("n", 1001)), badRequest("name is too long (limit: 1000 characters)")},
		{"another user's view", editView.as(ownerAuth), viewNotFound},
	}
	add(editView)

	removeView := routeSpec{method: "DELETE", pattern: "/api/v1/navigation_views/*", path: "/api/v1/navigation_views/narrow/is/alerted", role: fixtures.RoleMember}
	removeView.extra = []badCase{
		{"a view the user does not have", onPath("/api/v1/navigation_views/recent", removeView.build(nil)), viewNotFound},
		{"a blank fragment", onPath("/api/v1/navigation_views/%20", removeView.build(nil)), badRequest("fragment is too short.")},
		{"another user's view", removeView.as(ownerAuth), viewNotFound},
	}
	add(removeView)

	emoji := routeSpec{method: "POST", pattern: "/api/v1/realm/emoji/{emoji_name}", path: "/api/v1/realm/emoji/party_parrot", role: fixtures.RoleMember,
		upload: "file", uploadContent: emojiPNG}
	named := func(name string) request { return onPath("/api/v1/realm/emoji/"+name, emoji.build(nil)) }
	emoji.extra = []badCase{
		{"guest", emoji.as(guestAuth), badRequest("Not allowed for guest users")},
		{"bot", emoji.as(botAuth), badRequest("This endpoint does not accept bot requests.")},
		{"a name with other characters", named("Party!"), badRequest("Emoji names must contain only lowercase English letters, digits, spaces, dashes, and underscores.")},
		{"a name ending in an underscore", named("party_"), badRequest("Emoji names must end with either a letter or digit.")},
		{"a blank name", named("%20"), badRequest("Emoji name is missing")},
		{"a name taken", named("setup_emoji"), badRequest("A custom emoji with this name already exists.")},
		{"a built-in emoji's name, not an administrator", named("heart"), badRequest("Only administrators can override built-in emoji.")},
		{"no file", request{method: "POST", path: emoji.path, auth: memberAuth, body: formBody("x", "1"), contentType: formType}, badRequest("You must upload exactly one file.")},
		{"not an image", func() request {
			r := emoji
			r.uploadContent = []byte("not an image")
			return r.build(nil)
		}(), badRequest("Could not decode image; did you upload an image file?")},
		{"too large", func() request {
			r := emoji
			r.uploadContent = append(append([]byte{}, emojiPNG...), make([]byte, 5<<20)...)
			return r.build(nil)
		}(), badRequest("Uploaded file is larger than the allowed limit of 5 MiB")},
	}
	add(emoji)

	removeEmoji := routeSpec{method: "DELETE", pattern: "/api/v1/realm/emoji/{emoji_name}", path: "/api/v1/realm/emoji/setup_emoji", role: fixtures.RoleAdmin}
	removeEmoji.extra = []badCase{
		{"no such emoji", onPath("/api/v1/realm/emoji/nothing", removeEmoji.build(nil)), bad(404, "BAD_REQUEST", "Emoji 'nothing' does not exist")},
		{"another user's emoji, not an administrator", removeEmoji.as(memberAuth), badRequest("Must be an organization administrator or emoji author")},
	}
	add(removeEmoji)

	image := routeSpec{method: "GET", pattern: "/user_avatars/{realm_id:[0-9]+}/emoji/images/*", path: "/user_avatars/1/emoji/images/1.png", raw: true}
	image.extra = []badCase{
		{"no such image", onPath("/user_avatars/1/emoji/images/99.png", image.build(nil)), notFound404},
		{"the still image of an emoji that is not animated", onPath("/user_avatars/1/emoji/images/still/1.png", image.build(nil)), notFound404},
		{"another realm's", onPath("/user_avatars/2/emoji/images/1.png", image.build(nil)), notFound404},
	}
	add(image)

	reorderFields := routeSpec{method: "PATCH", pattern: "/api/v1/realm/profile_fields", path: "/api/v1/realm/profile_fields", role: fixtures.RoleAdmin,
		params: []param{{name: "order", kind: kJSONList, required: true}},
		valid:  []string{"order", "[5,4,3,2,1]"}}
	reorderFields.extra = append(notAdmin(reorderFields),
		badCase{"a field left out", reorderFields.with("order", "[1,2]"), badRequest("Invalid order mapping.")},
		badCase{"an ID not an integer", reorderFields.with("order", `[1,"2",3,4,5]`), badRequest("order[1] is not an integer")},
	)
	add(reorderFields)

	field := routeSpec{method: "PATCH", pattern: "/api/v1/realm/profile_fields/{field_id:[0-9]+}", path: "/api/v1/realm/profile_fields/{id}", id: "1",
		role: fixtures.RoleAdmin,
		params: []param{
			{name: "name", oversizeFails: true}, {name: "hint", oversizeFails: true}, {name: "required", kind: kBool},
			{name: "display_in_profile_summary", kind: kBool}, {name: "editable_by_user", kind: kBool},
		},
		valid: []string{"name", "Mobile number", "hint", "Call me", "required", "true", "editable_by_user", "false"}}
	field.extra = append(notAdmin(field),
		badCase{"a blank name", field.with("name", "  "), badRequest("Label cannot be blank.")},
		badCase{"another field's name", field.with("name", "biography"), badRequest("A field with that label already exists.")},
		badCase{"a hint too long", field.with("hint", strings.Repeat("h", 81)), badRequest("hint is too long (limit: 80 characters)")},
		badCase{"a name too long", field.with("name", strings.Repeat("n", 41)), badRequest("name is too long (limit: 40 characters)")},
		badCase{"a third field in the summary", field.with("display_in_profile_summary", "true"), badRequest("Only 2 custom profile fields can be displayed in the profile summary.")},
		badCase{"unknown field", onPath("/api/v1/realm/profile_fields/999", field.build(nil)), badRequest("Field id 999 not found.")},
	)
	add(field)
}
