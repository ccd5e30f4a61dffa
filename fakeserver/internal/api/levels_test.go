package api_test

import (
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/chatconform/chatconform/fakeserver"
	"github.com/chatconform/chatconform/fakeserver/internal/realm"
	"github.com/chatconform/chatconform/fixtures"
)

// narrowsTaken sends GET /messages with each narrow (a term [operator, operand]): the older
// ones must be taken; it tells whether the newer ones are, all or none of them.
func narrowsTaken(t *testing.T, base string, older, newer []string) bool {
	t.Helper()
	taken := func(term string) bool {
		res := get(t, base, memberAuth, "/api/v1/messages", "anchor=newest&num_before=1&num_after=0&narrow="+url.QueryEscape("["+term+"]"))
		if res.status != http.StatusOK && res.env["code"] != "BAD_NARROW" && res.status != http.StatusBadRequest {
			t.Errorf("narrow %s: %s", term, res)
		}
		return res.status == http.StatusOK
	}
	for _, term := range older {
		if !taken(term) {
			t.Errorf("narrow %s, taken at every level, refused", term)
		}
	}
	count := 0
	for _, term := range newer {
		if taken(term) {
			count++
		}
	}
	if count != 0 && count != len(newer) {
		t.Errorf("%d of the narrows %v taken: want all or none", count, newer)
	}
	return count == len(newer)
}

// narrowedMessage reads a message from GET /messages narrowed to its ID, as at every level.
func narrowedMessage(t *testing.T, base, auth string, id int) map[string]any {
	t.Helper()
	narrow := url.QueryEscape(fmt.Sprintf(`[["id","%d"]]`, id))
	got := requireSuccess(t, "fetch", get(t, base, auth, "/api/v1/messages", fmt.Sprintf("anchor=%d&num_before=0&num_after=0&narrow=%s", id, narrow)))
	list, _ := got["messages"].([]any)
	if len(list) != 1 {
		t.Fatalf("GET /messages narrowed to message %d: %v", id, got)
	}
	return list[0].(map[string]any)
}

// linkifierFields adds a linkifier with the extra parameters and tells whether the fields are
// listed, all or none of them, and the parameters taken (not listed as ignored).
func linkifierFields(t *testing.T, base string, extra []string, fields ...string) bool {
	t.Helper()
	params := append([]string{"pattern", `PR (?P<id>[0-9]+)`, "url_template", "https://tracker.example.test/pull/{id}"}, extra...)
	added := requireSuccess(t, "linkifier", post(t, base, adminAuth, "/api/v1/realm/filters", params...))
	listed := requireSuccess(t, "list", get(t, base, memberAuth, "/api/v1/realm/linkifiers", ""))["linkifiers"].([]any)[0].(map[string]any)
	count := 0
	for _, f := range fields {
		_, shown := listed[f]
		ignored := strings.Contains(fmt.Sprint(added["ignored_parameters_unsupported"]), f)
		if shown == ignored {
			t.Errorf("%s shown %v, ignored %v", f, shown, ignored)
		}
		if shown {
			count++
		}
	}
	if count != 0 && count != len(fields) {
		t.Errorf("%d of %v shown: want all or none", count, fields)
	}
	return count == len(fields)
}

// userGroups lists the user groups of GET /user_groups.
func userGroups(t *testing.T, base string) []any {
	t.Helper()
	return requireSuccess(t, "groups", get(t, base, ownerAuth, "/api/v1/user_groups", ""))["user_groups"].([]any)
}

// groupWhere is the user group of GET /user_groups whose field has this value (as text).
func groupWhere(t *testing.T, base, field, value string) map[string]any {
	t.Helper()
	for _, g := range userGroups(t, base) {
		if group := g.(map[string]any); fmt.Sprint(group[field]) == value {
			return group
		}
	}
	t.Fatalf("no user group with %s %q", field, value)
	return nil
}

// groupObject is the user group with this ID.
func groupObject(t *testing.T, base, id string) map[string]any { return groupWhere(t, base, "id", id) }

// groupByName is the ID of the user group with this name.
func groupByName(t *testing.T, base, name string) string {
	return fmt.Sprint(groupWhere(t, base, "name", name)["id"])
}

// newServerAt starts a fake on the default fixture at the given feature level.
func newServerAt(t testing.TB, level int) *fakeserver.TestServer {
	t.Helper()
	f := fixtures.Default()
	f.Realm.FeatureLevel = level
	ts := fakeserver.NewTestServer(fakeserver.WithFixture(f))
	t.Cleanup(ts.Close)
	return ts
}

// attachmentAt finds the member's attachment at url in GET /attachments.
func attachmentAt(t *testing.T, base, url string) map[string]any {
	t.Helper()
	all, _ := integAttachments(t, base, memberAuth)
	if all[integPath(url)] == nil {
		t.Fatalf("GET /attachments does not list %s: %v", url, all)
	}
	return all[integPath(url)]
}

// TestLevelBoundaries runs each gate one level below its boundary and at it: below, the
// fake answers in the older form the document gives; at the boundary, in the newer one.
func TestLevelBoundaries(t *testing.T) {
	cases := []struct {
		name     string
		boundary int
		// check sends the requests of the gate and tells whether the answer is the newer form.
		newer func(t *testing.T, base string) bool
	}{
		{"client_gravatar on by default", realm.LevelClientGravatarDefault, func(t *testing.T, base string) bool {
			state := requireSuccess(t, "register", post(t, base, memberAuth, "/api/v1/register", "fetch_event_types", `["realm_user"]`))
			fetched := requireSuccess(t, "user", get(t, base, memberAuth, "/api/v1/users/1", ""))["user"].(map[string]any)
			for _, u := range state["realm_users"].([]any) {
				if user := u.(map[string]any); user["user_id"] == float64(1) {
					if (user["avatar_url"] == nil) != (fetched["avatar_url"] == nil) {
						t.Errorf("register's avatar_url %v, GET /users/1's %v: the same default", user["avatar_url"], fetched["avatar_url"])
					}
					return user["avatar_url"] == nil // the gravatar a client computes itself
				}
			}
			t.Fatalf("register lists no user 1: %v", state["realm_users"])
			return false
		}},
		{"linkifiers with URL templates, only for clients that read them", realm.LevelLinkifierURLTemplate, func(t *testing.T, base string) bool {
			templates := post(t, base, adminAuth, "/api/v1/realm/filters", "pattern", `#(?P<id>[0-9]+)`,
				"url_template", "https://tracker.example.test/{id}?q=100%25").status == http.StatusOK
			if !templates { // the Python format string of older servers
				requireSuccess(t, "linkifier", post(t, base, adminAuth, "/api/v1/realm/filters", "pattern", `#(?P<id>[0-9]+)`,
					"url_format_string", "https://tracker.example.test/%(id)s?q=100%%25"))
			}
			listed := requireSuccess(t, "list", get(t, base, memberAuth, "/api/v1/realm/linkifiers", ""))["linkifiers"].([]any)[0]
			want := `{"id":1,"pattern":"#(?P\u003cid\u003e[0-9]+)","url_format_string":"https://tracker.example.test/%(id)s?q=100%%25"}`
			if templates {
				want = `{"id":1,"pattern":"#(?P\u003cid\u003e[0-9]+)","url_template":"https://tracker.example.test/{id}?q=100%25"}`
			}
			if got := canonical(listed); got != want {
				t.Errorf("listed %s, want %s", got, want)
			}
			state := requireSuccess(t, "register", post(t, base, memberAuth, "/api/v1/register", "fetch_event_types", `["realm_linkifiers"]`))
			if hidden := len(state["realm_linkifiers"].([]any)) == 0; hidden != templates {
				t.Errorf("hidden from a client that does not read URL templates: %v", hidden)
			}
			return templates
		}},
		{"url_template of a playground (url_prefix before)", realm.LevelPlaygroundTemplate, func(t *testing.T, base string) bool {
			templates := post(t, base, adminAuth, "/api/v1/realm/playgrounds", "name", "Run", "pygments_language", "Python",
				"url_template", "https://play.example.test/?code={code}").status == http.StatusOK
			if !templates {
				requireSuccess(t, "playground", post(t, base, adminAuth, "/api/v1/realm/playgrounds", "name", "Run", "pygments_language", "Python",
					"url_prefix", "https://play.example.test/?code="))
			}
			got := canonical(requireSuccess(t, "register", post(t, base, memberAuth, "/api/v1/register", "fetch_event_types", `["realm_playgrounds"]`))["realm_playgrounds"])
			want := `[{"id":1,"name":"Run","pygments_language":"Python","url_prefix":"https://play.example.test/?code="}]`
			if templates {
				want = `[{"id":1,"name":"Run","pygments_language":"Python","url_template":"https://play.example.test/?code={code}"}]`
			}
			if got != want {
				t.Errorf("playgrounds %s, want %s", got, want)
			}
			return templates
		}},
		{"example_input and reverse_template of linkifiers", realm.LevelLinkifierReverse, func(t *testing.T, base string) bool {
			return linkifierFields(t, base, []string{"example_input", "PR 12", "reverse_template", "PR {id}"}, "example_input", "reverse_template")
		}},
		{"alternative_url_templates of linkifiers", realm.LevelLinkifierAlternatives, func(t *testing.T, base string) bool {
			return linkifierFields(t, base, []string{"alternative_url_templates", `["https://mirror.example.test/{id}"]`}, "alternative_url_templates")
		}},
		{"is_imported_stub in the User object", realm.LevelImportedStub, func(t *testing.T, base string) bool {
			user := requireSuccess(t, "user", get(t, base, memberAuth, "/api/v1/users/1", ""))["user"].(map[string]any)
			stub, present := user["is_imported_stub"]
			if present && stub != false {
				t.Errorf("is_imported_stub %v, want false", stub)
			}
			return present
		}},
		{"the realm's topics_policy (mandatory_topics before)", realm.LevelChannelTopicsPolicy, func(t *testing.T, base string) bool {
			queue := evRegister(t, base, memberAuth, "event_types", `["realm"]`)
			state := requireSuccess(t, "register", post(t, base, memberAuth, "/api/v1/register", "fetch_event_types", `["realm"]`))
			_, newer := state["realm_topics_policy"]
			if state["realm_mandatory_topics"] != false {
				t.Errorf("realm_mandatory_topics %v, want false (deprecated, kept)", state["realm_mandatory_topics"])
			}
			requireSuccess(t, "require topics", msgPatch(t, base, ownerAuth, "/api/v1/realm", "topics_policy", `"disable_empty_topic"`))
			want := `{"op":"update","property":"mandatory_topics","type":"realm","value":true}`
			if newer {
				want = `{"op":"update","property":"topics_policy","type":"realm","value":"disable_empty_topic"}`
			}
			evs := eventsOfType(evPoll(t, base, memberAuth, queue, -1, true), "realm")
			if len(evs) != 1 {
				t.Fatalf("realm events %v, want one", evs)
			}
			if delete(evs[0], "id"); canonical(evs[0]) != want {
				t.Errorf("realm event %s, want %s", canonical(evs[0]), want)
			}
			return newer
		}},
		{"an is_muted event beside in_home_view's", realm.LevelMuteEvents, func(t *testing.T, base string) bool {
			queue := evRegister(t, base, memberAuth, "event_types", `["subscription"]`)
			requireSuccess(t, "mute", msgPatch(t, base, memberAuth, "/api/v1/users/me/subscriptions/1", "property", "is_muted", "value", "true"))
			var properties []string
			for _, ev := range evPoll(t, base, memberAuth, queue, -1, true) {
				properties = append(properties, fmt.Sprint(ev["property"]))
			}
			switch strings.Join(properties, ",") {
			case "in_home_view,is_muted":
				return true
			case "in_home_view":
				return false
			}
			t.Errorf("subscription events for %v, want in_home_view and, from the level, is_muted", properties)
			return false
		}},
		{"ignored_parameters_unsupported", realm.LevelIgnoredParametersUnsupported, func(t *testing.T, base string) bool {
			got := requireSuccess(t, "fetch with an extra parameter", get(t, base, memberAuth, "/api/v1/users/me", "bogus_parameter=1"))
			v, ok := got["ignored_parameters_unsupported"]
			if ok && fmt.Sprint(v) != "[bogus_parameter]" {
				t.Errorf("ignored_parameters_unsupported %v, want [bogus_parameter]", v)
			}
			return ok
		}},
		{"topic_links and prev_topic names", realm.LevelTopicNames, func(t *testing.T, base string) bool {
			id := msgSend(t, base, memberAuth, "named", "moved")
			requireSuccess(t, "move", do(t, base, request{method: http.MethodPatch, path: fmt.Sprintf("/api/v1/messages/%d", id), auth: memberAuth,
				body: formBody("topic", "renamed"), contentType: formType}))
			m := narrowedMessage(t, base, memberAuth, id) // GET /messages/{id} has it only from 120
			entry := m["edit_history"].([]any)[0].(map[string]any)
			_, newLinks := m["topic_links"]
			_, oldLinks := m["subject_links"]
			_, newPrev := entry["prev_topic"]
			_, oldPrev := entry["prev_subject"]
			if newLinks == oldLinks || newPrev == oldPrev || newLinks != newPrev {
				t.Errorf("links (topic %v, subject %v) and history (prev_topic %v, prev_subject %v) disagree: %s", newLinks, oldLinks, newPrev, oldPrev, canonical(m))
			}
			return newLinks
		}},
		{"last_moved_timestamp", realm.LevelLastMoved, func(t *testing.T, base string) bool {
			id := msgSend(t, base, memberAuth, "before the move", "moved only")
			requireSuccess(t, "move", do(t, base, request{method: http.MethodPatch, path: fmt.Sprintf("/api/v1/messages/%d", id), auth: memberAuth,
				body: formBody("topic", "after the move"), contentType: formType}))
			m := msgFetch(t, base, memberAuth, id)
			_, moved := m["last_moved_timestamp"]
			_, edited := m["last_edit_timestamp"]
			if moved == edited {
				t.Errorf("a move shows last_moved_timestamp %v and last_edit_timestamp %v: want exactly one", moved, edited)
			}
			return moved
		}},
		{"wildcard mention flags", realm.LevelWildcardFlags, func(t *testing.T, base string) bool {
			id := msgSend(t, base, ownerAuth, "wild", "@**all** read this")
			flags := fmt.Sprint(msgFetch(t, base, memberAuth, id)["flags"])
			if !strings.Contains(flags, "wildcard_mentioned") {
				t.Errorf("a channel wildcard mention without wildcard_mentioned: %s", flags)
			}
			return strings.Contains(flags, "stream_wildcard_mentioned")
		}},
		{"batched operation completion", realm.LevelBatchComplete, func(t *testing.T, base string) bool {
			requireSuccess(t, "one message a batch, one batch a request", do(t, base, request{method: http.MethodPatch, path: "/_fake/config",
				body: formBody("delete_batch_size", "1", "max_batches_per_request", "1"), contentType: formType}))
			msgSend(t, base, ownerAuth, "batches", "one")
			msgSend(t, base, ownerAuth, "batches", "two")
			res := post(t, base, memberAuth, "/api/v1/mark_all_as_read")
			if res.env["result"] == "partially_completed" {
				if res.env["code"] != "REQUEST_TIMEOUT" || res.env["complete"] != nil {
					t.Errorf("partially completed: %s", res)
				}
				return false
			}
			if res.env["result"] != "success" || res.env["complete"] != false {
				t.Errorf("a request that stopped early: %s", res)
			}
			return true
		}},
		{"duplicate reaction code", realm.LevelReactionAlreadyExists, func(t *testing.T, base string) bool {
			id := msgSend(t, base, ownerAuth, "shapes", "react twice")
			path := fmt.Sprintf("/api/v1/messages/%d/reactions", id)
			requireSuccess(t, "react", post(t, base, memberAuth, path, "emoji_name", "octopus"))
			again := post(t, base, memberAuth, path, "emoji_name", "octopus")
			code := fmt.Sprint(again.env["code"])
			if again.env["result"] != "error" || again.env["msg"] != "Reaction already exists." || (code != "REACTION_ALREADY_EXISTS" && code != "BAD_REQUEST") {
				t.Errorf("duplicate reaction: %s", again)
			}
			return code == "REACTION_ALREADY_EXISTS"
		}},
		{"reaction without the legacy user object", realm.LevelReactionUserDropped, func(t *testing.T, base string) bool {
			id := msgSend(t, base, ownerAuth, "shapes", "react once")
			requireSuccess(t, "react", post(t, base, memberAuth, fmt.Sprintf("/api/v1/messages/%d/reactions", id), "emoji_name", "octopus"))
			reaction := msgFetch(t, base, ownerAuth, id)["reactions"].([]any)[0].(map[string]any)
			user, has := reaction["user"]
			if has && canonical(user) != `{"email":"member@chat.example.test","full_name":"Max Member","id":4,"is_mirror_dummy":false}` {
				t.Errorf("legacy reaction user %s", canonical(user))
			}
			return !has
		}},
		{"reaction events with the legacy user object again", realm.LevelReactionEventUser, func(t *testing.T, base string) bool {
			id := msgSend(t, base, ownerAuth, "shapes", "react once")
			queue := evRegister(t, base, ownerAuth, "event_types", `["reaction"]`)
			requireSuccess(t, "react", post(t, base, memberAuth, fmt.Sprintf("/api/v1/messages/%d/reactions", id), "emoji_name", "octopus"))
			evs := evPoll(t, base, ownerAuth, queue, -1, true)
			if len(evs) != 1 {
				t.Fatalf("reaction events %v: want one", evs)
			}
			_, has := evs[0]["user"]
			return has
		}},
		{"register without realm_is_zephyr_mirror_realm", realm.LevelNoZephyrField, func(t *testing.T, base string) bool {
			state := requireSuccess(t, "register", post(t, base, memberAuth, "/api/v1/register", "fetch_event_types", `["realm"]`))
			_, has := state["realm_is_zephyr_mirror_realm"]
			return !has
		}},
		{"prev_content_sha256 read", realm.LevelPrevContentSHA256, func(t *testing.T, base string) bool {
			id := msgSend(t, base, memberAuth, "shapes", "edit me")
			res := do(t, base, request{method: http.MethodPatch, path: fmt.Sprintf("/api/v1/messages/%d", id), auth: memberAuth,
				body: formBody("content", "edited", "prev_content_sha256", strings.Repeat("0", 64)), contentType: formType})
			if res.env["result"] == "success" && fmt.Sprint(res.env["ignored_parameters_unsupported"]) != "[prev_content_sha256]" {
				t.Errorf("an ignored prev_content_sha256 is not reported: %s", res)
			}
			return res.env["code"] == "EXPECTATION_MISMATCH"
		}},
		{"attachment create_time in seconds", realm.LevelAttachmentSeconds, func(t *testing.T, base string) bool {
			url := integFile(t, base, memberAuth, "level.txt")
			start := float64(defaultFixture.Realm.StartTime)
			// Below 472 the legacy messages list has date_sent in the unit of create_time
			// (the changelog of level 443 names both fields).
			msgSend(t, base, memberAuth, "dated", "[file](/user_uploads/"+integPath(url)+")")
			a := attachmentAt(t, base, url)
			if list, _ := a["messages"].([]any); len(list) != 1 || list[0].(map[string]any)["date_sent"] != a["create_time"] {
				t.Errorf("attachment %v: want one message with date_sent in the unit of create_time", a)
			}
			switch created := a["create_time"]; created {
			case start:
				return true
			case start * 1000:
				return false
			default:
				t.Errorf("create_time %v, want %v s or its milliseconds", created, start)
				return false
			}
		}},
		{"attachment message_ids", realm.LevelAttachmentMessageIDs, func(t *testing.T, base string) bool {
			url := integFile(t, base, memberAuth, "linked.txt")
			id := msgSend(t, base, memberAuth, "shapes", "[file](/user_uploads/"+integPath(url)+")")
			a := attachmentAt(t, base, url)
			if ids, ok := a["message_ids"]; ok {
				if canonical(ids) != fmt.Sprintf("[%d]", id) {
					t.Errorf("message_ids %s, want [%d]", canonical(ids), id)
				}
				return true
			}
			msgs, _ := a["messages"].([]any)
			if len(msgs) != 1 || msgs[0].(map[string]any)["id"] != float64(id) || msgs[0].(map[string]any)["date_sent"] == nil {
				t.Errorf("attachment %v: want messages [{id %d, date_sent}]", a, id)
			}
			return false
		}},
		{"push registration route", realm.LevelPushRegistration, func(t *testing.T, base string) bool {
			res := post(t, base, memberAuth, "/api/v1/mobile_push/register")
			if res.status == http.StatusNotFound {
				if res.env["code"] != "BAD_REQUEST" || res.env["msg"] != "Not Found" {
					t.Errorf("missing route: %s", res)
				}
				return false
			}
			return true
		}},
		{"push_key replacing push_public_key", realm.LevelPushKey, func(t *testing.T, base string) bool {
			integConfig(t, base, "push_configured", "true")
			res := post(t, base, memberAuth, "/api/v1/mobile_push/register", earlyRegistration("9")...)
			if res.status != http.StatusOK {
				checkBad(t, badCase{want: missing("push_public_key")}, res)
				return false
			}
			return true
		}},
		{"push_account_id an integer in push_device events", realm.LevelPushAccountIDInt, func(t *testing.T, base string) bool {
			integConfig(t, base, "push_configured", "true")
			queue := evRegister(t, base, memberAuth, "event_types", `["push_device"]`)
			requireSuccess(t, "register", post(t, base, memberAuth, "/api/v1/mobile_push/register", earlyRegistration("8")...))
			evs := evPoll(t, base, memberAuth, queue, -1, true)
			if len(evs) != 1 {
				t.Fatalf("push_device events %v: want one", evs)
			}
			_, isNumber := evs[0]["push_account_id"].(float64)
			return isNumber
		}},
		{"push registration by client device", realm.LevelPushRedesign, func(t *testing.T, base string) bool {
			return post(t, base, memberAuth, "/api/v1/register_client_device").status == http.StatusOK
		}},
		{"E2EE registration replacing the legacy one", realm.LevelLegacyPushRemoval, func(t *testing.T, base string) bool {
			integConfig(t, base, "push_configured", "true")
			requireSuccess(t, "legacy", post(t, base, memberAuth, "/api/v1/users/me/android_gcm_reg_id", "token", "shared-token"))
			device := fmt.Sprint(requireSuccess(t, "device", post(t, base, memberAuth, "/api/v1/register_client_device"))["device_id"])
			requireSuccess(t, "register", post(t, base, memberAuth, "/api/v1/mobile_push/register", integRegistration(device, "7", "shared-token")...))
			// Removing the legacy registration finds it only where the E2EE one left it.
			res := do(t, base, request{method: http.MethodDelete, path: "/api/v1/users/me/android_gcm_reg_id", auth: memberAuth,
				body: formBody("token", "shared-token"), contentType: formType})
			return res.status != http.StatusOK
		}},
		{"type direct in POST /messages", realm.LevelDirectType, func(t *testing.T, base string) bool {
			send := func(kind string) response {
				return post(t, base, memberAuth, "/api/v1/messages", "type", kind, "to", "[1]", "content", "typed "+kind)
			}
			requireSuccess(t, "private, taken at every level", send("private"))
			return send("direct").status == http.StatusOK
		}},
		{"the dm and dm-including narrow operators and is:dm", realm.LevelDMOperators, func(t *testing.T, base string) bool {
			return narrowsTaken(t, base, []string{`["pm-with","1"]`, `["group-pm-with","1"]`, `["is","private"]`},
				[]string{`["dm","1"]`, `["dm-including","1"]`, `["is","dm"]`})
		}},
		{"an integer id operand", realm.LevelIntegerMessageOperand, func(t *testing.T, base string) bool {
			return narrowsTaken(t, base, []string{`["id","1"]`}, []string{`["id",1]`})
		}},
		{"the channel and channels narrow operators", realm.LevelChannelOperators, func(t *testing.T, base string) bool {
			return narrowsTaken(t, base, []string{`["stream","general"]`, `["streams","public"]`},
				[]string{`["channel","general"]`, `["channels","public"]`})
		}},
		{"the has:reaction narrow", realm.LevelHasReaction, func(t *testing.T, base string) bool {
			return narrowsTaken(t, base, []string{`["has","link"]`}, []string{`["has","reaction"]`})
		}},
		{"the with narrow operator", realm.LevelWithOperator, func(t *testing.T, base string) bool {
			return narrowsTaken(t, base, nil, []string{`["with","1"]`})
		}},
		{"url in the answer of POST /user_uploads", realm.LevelUploadURL, func(t *testing.T, base string) bool {
			got := requireSuccess(t, "upload", do(t, base, integUpload(memberAuth, "a.txt")))
			if _, ok := got["uri"].(string); !ok {
				t.Errorf("no uri, taken at every level: %v", got)
			}
			_, ok := got["url"]
			return ok
		}},
		{"reminders in register and reminders events", realm.LevelReminderList, func(t *testing.T, base string) bool {
			queue := evRegister(t, base, memberAuth, "event_types", `["reminders"]`)
			id := msgSend(t, base, memberAuth, "later", "remind me")
			requireSuccess(t, "reminder", post(t, base, memberAuth, "/api/v1/reminders", "message_id", fmt.Sprint(id), "scheduled_delivery_timestamp", "4102444800"))
			events := len(evPoll(t, base, memberAuth, queue, -1, true)) > 0
			_, state := requireSuccess(t, "register", post(t, base, memberAuth, "/api/v1/register", "fetch_event_types", `["reminders"]`))["reminders"]
			if events != state {
				t.Errorf("reminders events %v, register's reminders %v", events, state)
			}
			return state
		}},
		{"the message in the answer of GET /messages/{id}", realm.LevelWholeMessage, func(t *testing.T, base string) bool {
			id := msgSend(t, base, memberAuth, "whole", "the **whole** message")
			got := requireSuccess(t, "fetch", get(t, base, memberAuth, fmt.Sprintf("/api/v1/messages/%d", id), ""))
			if got["raw_content"] != "the **whole** message" {
				t.Errorf("raw_content, given at every level: %v", got)
			}
			_, whole := got["message"]
			return whole
		}},
		{"detached_uploads in the answer of a message edit", realm.LevelDetachedUploads, func(t *testing.T, base string) bool {
			id := msgSend(t, base, memberAuth, "edited", "before")
			_, ok := requireSuccess(t, "edit", msgPatch(t, base, memberAuth, fmt.Sprintf("/api/v1/messages/%d", id), "content", "after"))["detached_uploads"]
			return ok
		}},
		{"history_limit_days in a presence update", realm.LevelHistoryLimitDays, func(t *testing.T, base string) bool {
			got := requireSuccess(t, "presence", post(t, base, memberAuth, "/api/v1/users/me/presence", "status", "active", "history_limit_days", "1"))
			return !strings.Contains(fmt.Sprint(got["ignored_parameters_unsupported"]), "history_limit_days")
		}},
		{"subgroups at group creation and in the membership update", realm.LevelGroupSubgroupsParams, func(t *testing.T, base string) bool {
			name := "with-subgroup"
			created := requireSuccess(t, "create", post(t, base, ownerAuth, "/api/v1/user_groups/create", "name", name,
				"description", "d", "members", "[]", "subgroups", "["+supportGroup+"]"))
			id := groupByName(t, base, name)
			res := post(t, base, ownerAuth, "/api/v1/user_groups/"+id+"/members", "add_subgroups", "["+escalationGroup+"]")
			subgroups := canonical(groupObject(t, base, id)["direct_subgroup_ids"])
			ignored := strings.Contains(fmt.Sprint(created["ignored_parameters_unsupported"]), "subgroups")
			switch {
			case subgroups == "[]" && ignored && res.status == http.StatusBadRequest:
				return false
			case subgroups == "["+supportGroup+","+escalationGroup+"]" && !ignored && res.status == http.StatusOK:
				return true
			}
			t.Errorf("subgroups %s, subgroups ignored %v, add_subgroups: %s", subgroups, ignored, res)
			return false
		}},
		{"deactivated users no longer listed as group members", realm.LevelDeactivatedNotMembers, func(t *testing.T, base string) bool {
			// The member (user 4) is a direct member of support and, through it, of escalation.
			requireSuccess(t, "deactivate", do(t, base, request{method: http.MethodDelete, path: "/api/v1/users/4", auth: ownerAuth}))
			hasMember := func(list any) bool { ids, _ := list.([]any); return slices.Contains(ids, any(float64(4))) }
			listed := []bool{
				hasMember(groupObject(t, base, supportGroup)["members"]),
				requireSuccess(t, "is member", get(t, base, ownerAuth, "/api/v1/user_groups/"+escalationGroup+"/members/4", ""))["is_user_group_member"] == true,
				hasMember(requireSuccess(t, "members", get(t, base, ownerAuth, "/api/v1/user_groups/"+escalationGroup+"/members", ""))["members"]),
			}
			if slices.Contains(listed, !listed[0]) {
				t.Errorf("listed in the group object, by the membership check, in the members: %v", listed)
			}
			return !listed[0]
		}},
		{"a code and objections for deactivating a group in use", realm.LevelGroupInUseCode, func(t *testing.T, base string) bool {
			res := post(t, base, ownerAuth, "/api/v1/user_groups/"+supportGroup+"/deactivate") // escalation's subgroup
			if res.status != http.StatusBadRequest || res.env["msg"] != "Cannot deactivate user group in use." {
				t.Fatalf("deactivating a subgroup of an active group: %s", res)
			}
			coded := res.env["code"] == "CANNOT_DEACTIVATE_GROUP_IN_USE"
			if got := canonical(res.env["objections"]); coded && got != `[{"supergroup_ids":[`+escalationGroup+`],"type":"subgroup"}]` || !coded && got != "null" {
				t.Errorf("code %v, objections %s", res.env["code"], got)
			}
			return coded
		}},
		{"group_id in the answer of POST /user_groups/create", realm.LevelGroupCreateID, func(t *testing.T, base string) bool {
			created := requireSuccess(t, "create", post(t, base, ownerAuth, "/api/v1/user_groups/create", "name", "answered",
				"description", "d", "members", "[]"))
			id, ok := created["group_id"]
			if ok && fmt.Sprint(id) != groupByName(t, base, "answered") {
				t.Errorf("group_id %v is not the new group's", id)
			}
			return ok
		}},
		{"first_message_id moved by a deletion", realm.LevelFirstMessageOnDeletion, func(t *testing.T, base string) bool {
			oldest := msgSend(t, base, ownerAuth, "first", "the oldest")
			msgSend(t, base, ownerAuth, "first", "the next")
			// The fixture's channel 1 may hold older messages: delete up to the oldest sent here.
			first := func() any {
				for _, c := range requireSuccess(t, "channels", get(t, base, ownerAuth, "/api/v1/streams", ""))["streams"].([]any) {
					if ch := c.(map[string]any); ch["stream_id"] == float64(1) {
						return ch["first_message_id"]
					}
				}
				t.Fatal("no channel 1")
				return nil
			}
			for id := int(first().(float64)); id <= oldest; id++ {
				do(t, base, request{method: http.MethodDelete, path: fmt.Sprintf("/api/v1/messages/%d", id), auth: ownerAuth})
			}
			return first() == float64(oldest+1)
		}},
		{"realm_url in register and the server settings", realm.LevelRealmURL, func(t *testing.T, base string) bool {
			register := requireSuccess(t, "register", post(t, base, memberAuth, "/api/v1/register", "fetch_event_types", `["realm"]`))
			settings := requireSuccess(t, "server settings", get(t, base, "", "/api/v1/server_settings", ""))
			_, inRegister := register["realm_url"]
			_, inSettings := settings["realm_url"]
			if register["realm_uri"] == nil || settings["realm_uri"] == nil || inRegister != inSettings {
				t.Errorf("register %v, server settings %v", register["realm_uri"], settings)
			}
			return inRegister
		}},
		{"a reminder's note", realm.LevelReminderNote, func(t *testing.T, base string) bool {
			id := msgSend(t, base, memberAuth, "noted", "remind me")
			added := requireSuccess(t, "reminder", post(t, base, memberAuth, "/api/v1/reminders", "message_id", fmt.Sprint(id),
				"scheduled_delivery_timestamp", "4102444800", "note", "bring cake"))
			taken := !strings.Contains(fmt.Sprint(added["ignored_parameters_unsupported"]), "note")
			listed := requireSuccess(t, "reminders", get(t, base, memberAuth, "/api/v1/reminders", ""))["reminders"].([]any)[0].(map[string]any)
			_, limit := requireSuccess(t, "register", post(t, base, memberAuth, "/api/v1/register", "fetch_event_types", `["realm"]`))["max_reminder_note_length"]
			if noted := listed["note"] == "bring cake"; noted != taken || limit != taken {
				t.Errorf("note taken %v, listed %v, max_reminder_note_length given %v", taken, listed, limit)
			}
			return taken
		}},
		{"the move time limit settings", realm.LevelMoveLimits, func(t *testing.T, base string) bool {
			requireSuccess(t, "limit", msgPatch(t, base, ownerAuth, "/api/v1/realm", "move_messages_within_stream_limit_seconds", "100"))
			state := requireSuccess(t, "register", post(t, base, memberAuth, "/api/v1/register", "fetch_event_types", `["realm"]`))
			_, taken := state["realm_move_messages_within_stream_limit_seconds"]
			id := msgSend(t, base, memberAuth, "aging", "old")
			requireSuccess(t, "clock", post(t, base, "", "/_fake/clock", "advance", "1000"))
			moved := msgPatch(t, base, memberAuth, fmt.Sprintf("/api/v1/messages/%d", id), "topic", "moved").status == http.StatusOK
			shown, community := state["realm_move_messages_within_stream_limit_seconds"], state["realm_community_topic_editing_limit_seconds"]
			if taken && (shown != float64(100) || community != nil || moved) || !taken && (shown != nil || community != float64(259200) || !moved) {
				t.Errorf("setting taken %v; register: limit %v, community limit %v; a move after 1000 s allowed %v", taken, shown, community, moved)
			}
			return taken
		}},
		{"email_address_visibility a user's own setting, delivery_email always there", realm.LevelUserEmailVisibility, func(t *testing.T, base string) bool {
			// Administrators only, as the user's own setting and as the realm's: one of the two
			// is a parameter the level does not know.
			requireSuccess(t, "user setting", msgPatch(t, base, memberAuth, "/api/v1/settings", "email_address_visibility", "3"))
			requireSuccess(t, "realm setting", msgPatch(t, base, ownerAuth, "/api/v1/realm", "email_address_visibility", "3"))
			userAs := func(auth string) map[string]any {
				return requireSuccess(t, "user", get(t, base, auth, "/api/v1/users/4", ""))["user"].(map[string]any)
			}
			byAdmin, byModerator := userAs(adminAuth), userAs(modAuth)
			if byAdmin["email"] != "user4@chat.example.test" || byAdmin["delivery_email"] != "member@chat.example.test" {
				t.Errorf("as the administrator: %v", byAdmin)
			}
			delivery, present := byModerator["delivery_email"]
			state := requireSuccess(t, "register", post(t, base, memberAuth, "/api/v1/register", "fetch_event_types", `["realm","user_settings"]`))
			_, realmSetting := state["realm_email_address_visibility"]
			_, userSetting := state["user_settings"].(map[string]any)["email_address_visibility"]
			if present && delivery != nil || realmSetting == userSetting || userSetting != present {
				t.Errorf("moderator's delivery_email %v (present %v); register: realm setting %v, user setting %v", delivery, present, realmSetting, userSetting)
			}
			return present
		}},
		{"edit typing notifications through the earlier route", realm.LevelEditTyping, func(t *testing.T, base string) bool {
			id := msgSend(t, base, memberAuth, "typing", "to be edited")
			res := post(t, base, memberAuth, "/api/v1/message_edit_typing", "message_id", fmt.Sprint(id), "op", "start")
			if res.status == http.StatusNotFound {
				return false
			}
			requireSuccess(t, "edit typing", res)
			return true
		}},
		{"muting a muted topic and unmuting one that is not", realm.LevelIdempotentMuting, func(t *testing.T, base string) bool {
			mute := func(op string) response {
				return do(t, base, request{method: http.MethodPatch, path: "/api/v1/users/me/subscriptions/muted_topics", auth: memberAuth,
					body: formBody("stream_id", "1", "topic", "twice", "op", op), contentType: formType})
			}
			unmuteFirst, _ := mute("remove"), mute("add")
			muteAgain := mute("add")
			if unmuteFirst.status != muteAgain.status {
				t.Errorf("unmuting an unmuted topic: %s; muting a muted one: %s", unmuteFirst, muteAgain)
			}
			return muteAgain.status == http.StatusOK
		}},
		{"user_topics in register and user_topic events", realm.LevelUserTopicState, func(t *testing.T, base string) bool {
			// A client that names both, to meet old and new servers, gets one of them.
			both := `["user_topic","muted_topics"]`
			queue := evRegister(t, base, memberAuth, "event_types", both)
			requireSuccess(t, "mute", do(t, base, request{method: http.MethodPatch, path: "/api/v1/users/me/subscriptions/muted_topics",
				body: formBody("stream_id", "1", "topic", "quiet", "op", "add"), contentType: formType, auth: memberAuth}))
			var types []string
			for _, ev := range evPoll(t, base, memberAuth, queue, -1, true) {
				types = append(types, fmt.Sprint(ev["type"]))
			}
			env := requireSuccess(t, "register", post(t, base, memberAuth, "/api/v1/register", "fetch_event_types", both))
			_, userTopics := env["user_topics"]
			_, mutedTopics := env["muted_topics"]
			want := []string{"muted_topics"}
			if userTopics {
				want = []string{"user_topic"}
			}
			if !slices.Equal(types, want) || mutedTopics == userTopics {
				t.Errorf("events %v; register: user_topics %v, muted_topics %v", types, userTopics, mutedTopics)
			}
			return userTopics
		}},
		{"POST /user_topics", realm.LevelUserTopics, func(t *testing.T, base string) bool {
			res := post(t, base, memberAuth, "/api/v1/user_topics", "stream_id", "1", "topic", "muted", "visibility_policy", "1")
			if res.status == http.StatusNotFound {
				return false
			}
			requireSuccess(t, "mute with user_topics", res)
			return true
		}},
		{"the whole topic held to the move time limit", realm.LevelWholeTopicTimeLimit, func(t *testing.T, base string) bool {
			requireSuccess(t, "limit", msgPatch(t, base, ownerAuth, "/api/v1/realm", "move_messages_within_stream_limit_seconds", "100"))
			msgSend(t, base, memberAuth, "aging", "old")
			requireSuccess(t, "clock", post(t, base, "", "/_fake/clock", "advance", "1000"))
			fresh := msgSend(t, base, memberAuth, "aging", "fresh")
			res := msgPatch(t, base, memberAuth, fmt.Sprintf("/api/v1/messages/%d", fresh), "topic", "moved", "propagate_mode", "change_all")
			if res.status == http.StatusOK {
				return false
			}
			if res.env["code"] != "MOVE_MESSAGES_TIME_LIMIT_EXCEEDED" {
				t.Errorf("a whole topic with an old message: %s", res)
			}
			return true
		}},
		{"can_move_messages_between_channels_group", realm.LevelMoveChannelsGroup, func(t *testing.T, base string) bool {
			return rolePolicyOrGroup(t, base, "can_move_messages_between_channels_group", "move_messages_between_streams_policy", 1)
		}},
		{"can_move_messages_between_topics_group", realm.LevelMoveTopicsGroup, func(t *testing.T, base string) bool {
			if rolePolicyOrGroup(t, base, "can_move_messages_between_topics_group", "edit_topic_policy", 5) {
				return true
			}
			id := msgSend(t, base, memberAuth, "policy", "move me") // edit_topic_policy is 4 now: moderators
			if res := msgPatch(t, base, memberAuth, fmt.Sprintf("/api/v1/messages/%d", id), "topic", "moved"); res.status == http.StatusOK {
				t.Errorf("a member moved a topic under edit_topic_policy 4 (moderators)")
			}
			return false
		}},
		{"can_resolve_topics_group", realm.LevelResolveTopicsGroup, func(t *testing.T, base string) bool {
			// Only administrators may move topics; everyone may resolve them.
			requireSuccess(t, "move group", msgPatch(t, base, ownerAuth, "/api/v1/realm", "can_move_messages_between_topics_group", "3"))
			id := msgSend(t, base, memberAuth, "done", "resolve me")
			res := msgPatch(t, base, memberAuth, fmt.Sprintf("/api/v1/messages/%d", id), "topic", "✔ done", "propagate_mode", "change_all")
			if res.status != http.StatusOK && res.env["msg"] != "You don't have permission to edit this message" {
				t.Errorf("a member resolving where only administrators move topics: %s", res)
			}
			return res.status == http.StatusOK
		}},
		{"the empty topic", realm.LevelEmptyTopic, func(t *testing.T, base string) bool {
			state := requireSuccess(t, "register", post(t, base, memberAuth, "/api/v1/register", "fetch_event_types", `["realm"]`))
			_, displayName := state["realm_empty_topic_display_name"]
			sent := post(t, base, memberAuth, "/api/v1/messages", "type", "channel", "to", setupChan, "topic", "", "content", "no topic")
			id := msgSend(t, base, memberAuth, "general chat", "to the display name")
			named, _ := msgFetch(t, base, memberAuth, id)["subject"].(string)
			if empty := sent.status == http.StatusOK; empty != displayName || empty != (named == "") {
				t.Errorf("empty topic sent %v (%s), realm_empty_topic_display_name %v, the display name stored as %q", empty, sent, displayName, named)
			} else if !empty && sent.env["msg"] != "Topic can't be empty!" {
				t.Errorf("the empty topic refused with %s", sent)
			}
			return displayName
		}},
		{"the last_update_id presence protocol", realm.LevelPresenceUpdateID, func(t *testing.T, base string) bool {
			got := requireSuccess(t, "presence", post(t, base, memberAuth, "/api/v1/users/me/presence", "status", "active", "last_update_id", "-1"))
			_, protocol := got["presence_last_update_id"]
			presences, _ := got["presences"].(map[string]any)
			_, modern := presences["4"]
			if protocol != modern {
				t.Errorf("presence_last_update_id present %v, presences keyed by user ID %v: %v", protocol, modern, got)
			}
			if ignored := fmt.Sprint(got["ignored_parameters_unsupported"]); protocol == strings.Contains(ignored, "last_update_id") {
				t.Errorf("ignored_parameters_unsupported %s with the protocol %v", ignored, protocol)
			}
			return protocol
		}},
		{"legacy presence keyed by website", realm.LevelPresenceWebsite, func(t *testing.T, base string) bool {
			requireSuccess(t, "report", do(t, base, request{method: http.MethodPost, path: "/api/v1/users/me/presence", auth: memberAuth,
				body: formBody("status", "active"), contentType: formType, headers: map[string]string{"User-Agent": "ZulipMobile/27.0"}}))
			entry := requireSuccess(t, "realm presence", get(t, base, ownerAuth, "/api/v1/realm/presence", ""))["presences"].(map[string]any)["member@chat.example.test"].(map[string]any)
			_, website := entry["website"]
			_, named := entry["ZulipMobile"]
			if website == named {
				t.Errorf("legacy presence entry %v: want exactly one of website and the client's name", entry)
			}
			if website && entry["website"].(map[string]any)["client"] != "website" {
				t.Errorf("the website entry names client %v", entry["website"])
			}
			return website
		}},
		{"muting bots", realm.LevelMuteBots, func(t *testing.T, base string) bool {
			res := post(t, base, memberAuth, "/api/v1/users/me/muted_users/6")
			if res.status != http.StatusOK {
				checkBad(t, badCase{want: badRequest("No such user")}, res)
			}
			return res.status == http.StatusOK
		}},
		{"bot-only bot storage", realm.LevelBotOnlyStorage, func(t *testing.T, base string) bool {
			res := do(t, base, request{method: http.MethodPut, path: "/api/v1/bot_storage", auth: memberAuth,
				body: formBody("storage", `{"k":"v"}`), contentType: formType})
			if res.status == http.StatusOK {
				if got := requireSuccess(t, "read back", get(t, base, memberAuth, "/api/v1/bot_storage", ""))["storage"]; canonical(got) != `{"k":"v"}` {
					t.Errorf("a human's storage reads back %s", canonical(got))
				}
				return false
			}
			if res.env["code"] != "PERMISSION_DENIED" {
				t.Errorf("a human writing bot storage: %s", res)
			}
			return true
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for _, level := range []int{c.boundary - 1, c.boundary} {
				if got, want := c.newer(t, newServerAt(t, level).URL), level >= c.boundary; got != want {
					t.Errorf("at level %d: newer form %v, want %v", level, got, want)
				}
			}
		})
	}
}

// The channel fields the real server added after level 372 are absent one level below their
// level and present at it, in GET /streams/{id} (the same object serves every channel list).
func TestChannelFieldsByLevel(t *testing.T) {
	for _, c := range []struct {
		boundary int
		fields   []string
	}{
		{realm.LevelChannelFolders, []string{"folder_id"}},
		{realm.LevelChannelTopicsPolicy, []string{"topics_policy"}},
		{realm.LevelSubscriberCount, []string{"subscriber_count"}},
		{realm.LevelChannelMoveGroups, []string{"can_move_messages_out_of_channel_group", "can_move_messages_within_channel_group"}},
		{realm.LevelChannelResolveGroup, []string{"can_resolve_topics_group"}},
		{realm.LevelChannelDeleteGroups, []string{"can_delete_any_message_group", "can_delete_own_message_group"}},
		{realm.LevelChannelCreateTopicGroup, []string{"can_create_topic_group"}},
	} {
		for _, level := range []int{c.boundary - 1, c.boundary} {
			ch := requireSuccess(t, "channel", get(t, newServerAt(t, level).URL, memberAuth, "/api/v1/streams/1", ""))["stream"].(map[string]any)
			for _, f := range c.fields {
				if _, shown := ch[f]; shown != (level >= c.boundary) {
					t.Errorf("at level %d: %s shown %v", level, f, shown)
				}
			}
		}
	}
}

// Register's state keys the real server added or removed at a level: one level below and at it.
func TestRegisterKeysByLevel(t *testing.T) {
	for _, c := range []struct {
		boundary  int
		eventType string
		key       string
		added     bool // false: removed at the boundary
	}{
		{realm.LevelRequireUniqueNames, "realm", "realm_require_unique_names", true},
		{realm.LevelThumbnailFormats, "realm", "server_thumbnail_formats", true},
		{realm.LevelModerationRequestChannel, "realm", "realm_moderation_request_channel_id", true},
		{realm.LevelReportTypes, "realm", "server_report_message_types", true},
		{realm.LevelBillingGroup, "realm_user", "is_billing_admin", false},
		{realm.LevelScheduleMessages, "scheduled_messages", "scheduled_messages", true},
		{realm.LevelSavedSnippets, "saved_snippets", "saved_snippets", true},
	} {
		for _, level := range []int{c.boundary - 1, c.boundary} {
			state := requireSuccess(t, "register", post(t, newServerAt(t, level).URL, memberAuth, "/api/v1/register",
				"fetch_event_types", `["`+c.eventType+`"]`))
			if _, shown := state[c.key]; shown != (c.added == (level >= c.boundary)) {
				t.Errorf("at level %d: %s shown %v", level, c.key, shown)
			}
		}
	}
	// Keys the real server does not send at any level.
	state := requireSuccess(t, "register", post(t, newServerAt(t, 500).URL, memberAuth, "/api/v1/register", ""))
	for _, key := range []string{"realm_web_public_access_enabled", "display_emoji_reaction_users"} {
		if _, shown := state[key]; shown {
			t.Errorf("register gives %s, which the real server does not", key)
		}
	}
}

// User settings the real server added at a level: absent from register's user_settings one
// level below, and PATCH /settings ignores them there (listing them as unsupported); present
// at it, where PATCH /settings changes them.
func TestUserSettingsByLevel(t *testing.T) {
	for _, c := range []struct {
		boundary       int
		setting, value string
		want           any
	}{
		{realm.LevelFollowWhereMentioned, "automatically_follow_topics_where_mentioned", "false", false},
		{realm.LevelWebFontSize, "web_font_size_px", "20", 20.0},
		{realm.LevelReceivesTyping, "receives_typing_notifications", "false", false},
		{realm.LevelResolvedNoticePolicy, "resolved_topic_notice_auto_read_policy", "never", "never"},
		{realm.LevelUnreadsCountSummary, "web_left_sidebar_unreads_count_summary", "false", false},
		{realm.LevelNavigateToSentMessage, "web_navigate_to_sent_message", "false", false},
		{realm.LevelSidebarChannelFolders, "web_left_sidebar_show_channel_folders", "false", false},
		{realm.LevelInboxChannelFolders, "web_inbox_show_channel_folders", "false", false},
		{realm.LevelPrivateDataExport, "allow_private_data_export", "true", true},
	} {
		for _, level := range []int{c.boundary - 1, c.boundary} {
			base := newServerAt(t, level).URL
			reply := requireSuccess(t, "change", patch(t, base, memberAuth, "/api/v1/settings", c.setting, c.value))
			ignored := strings.Contains(canonical(reply["ignored_parameters_unsupported"]), `"`+c.setting+`"`)
			settings := requireSuccess(t, "register", post(t, base, memberAuth, "/api/v1/register",
				"fetch_event_types", `["user_settings"]`))["user_settings"].(map[string]any)
			value, shown := settings[c.setting]
			if taken := level >= c.boundary; shown != taken || ignored == taken || taken && value != c.want {
				t.Errorf("at level %d: user_settings.%s shown %v (%v after setting %s), ignored %v", level, c.setting, shown, value, c.value, ignored)
			}
		}
	}
}

// Archiving a channel: its delete event says for_archiving from level 378 only.
func TestForArchivingByLevel(t *testing.T) {
	for _, level := range []int{realm.LevelArchivingEvents - 1, realm.LevelArchivingEvents} {
		base := newServerAt(t, level).URL
		queue := requireSuccess(t, "register", post(t, base, memberAuth, "/api/v1/register", "event_types", `["stream"]`))
		requireSuccess(t, "archive", do(t, base, request{method: http.MethodDelete, path: "/api/v1/streams/1", auth: ownerAuth}))
		evs := requireSuccess(t, "events", get(t, base, memberAuth, "/api/v1/events",
			fmt.Sprintf("queue_id=%s&last_event_id=-1&dont_block=true", url.QueryEscape(queue["queue_id"].(string)))))["events"].([]any)
		found := false
		for _, e := range evs {
			if ev := e.(map[string]any); ev["op"] == "delete" {
				found = true
				if _, has := ev["for_archiving"]; has != (level >= realm.LevelArchivingEvents) {
					t.Errorf("at level %d: delete event %v", level, ev)
				}
			}
		}
		if !found {
			t.Errorf("at level %d: no delete event in %v", level, evs)
		}
	}
}

// TestLevelFromControlFixture: a fixture loaded through the control API sets the level the
// fake behaves as, not only the number it reports.
func TestLevelFromControlFixture(t *testing.T) {
	ts := newServer(t)
	yaml := strings.Replace(string(fixtures.DefaultYAML()), "feature_level: 500", "feature_level: 166", 1)
	requireSuccess(t, "load", post(t, ts.URL, "", "/_fake/fixture", "fixture", yaml))
	if got := requireSuccess(t, "settings", get(t, ts.URL, "", "/api/v1/server_settings", ""))["zulip_feature_level"]; got != float64(166) {
		t.Fatalf("zulip_feature_level %v after loading a level-166 fixture", got)
	}
	if got := requireSuccess(t, "extra parameter", get(t, ts.URL, memberAuth, "/api/v1/users/me", "bogus_parameter=1")); got["ignored_parameters_unsupported"] != nil {
		t.Errorf("level 166 lists ignored parameters: %v", got)
	}
}

// TestLevelFromControlConfig: PATCH /_fake/config feature_level makes the fake behave as that
// level (not only report it) until a reset restores the fixture's.
func TestLevelFromControlConfig(t *testing.T) {
	ts := newServer(t)
	level := func() float64 {
		return requireSuccess(t, "settings", get(t, ts.URL, "", "/api/v1/server_settings", ""))["zulip_feature_level"].(float64)
	}
	requireSuccess(t, "patch", do(t, ts.URL, request{method: http.MethodPatch, path: "/_fake/config",
		body: []byte(`{"feature_level": 166}`), contentType: "application/json"}))
	if got := level(); got != 166 {
		t.Fatalf("level %v after the patch", got)
	}
	// The fixture's version was the default for its level, so it follows the level.
	if got := requireSuccess(t, "settings", get(t, ts.URL, "", "/api/v1/server_settings", ""))["zulip_version"]; got != fixtures.VersionForLevel(166) {
		t.Errorf("zulip_version %v at level 166, want %s", got, fixtures.VersionForLevel(166))
	}
	if got := requireSuccess(t, "extra parameter", get(t, ts.URL, memberAuth, "/api/v1/users/me", "bogus_parameter=1")); got["ignored_parameters_unsupported"] != nil {
		t.Errorf("at level 166 a reply lists ignored parameters: %v", got)
	}
	if cfg := requireSuccess(t, "config", get(t, ts.URL, "", "/_fake/config", ""))["config"].(map[string]any); cfg["feature_level"] != float64(166) {
		t.Errorf("GET /_fake/config shows level %v", cfg["feature_level"])
	}
	requireSuccess(t, "reset", do(t, ts.URL, request{method: http.MethodPost, path: "/_fake/reset", contentType: "application/json"}))
	if got := level(); got != 500 {
		t.Errorf("level %v after a reset, want the fixture's 500", got)
	}
}

// rolePolicyOrGroup tells whether register shows the group setting (newer) or the role policy it
// replaced; below, it checks the policy's default and that setting it to 4 (moderators) shows.
func rolePolicyOrGroup(t *testing.T, base, group, policy string, byDefault int) bool {
	t.Helper()
	state := func() map[string]any {
		return requireSuccess(t, "register", post(t, base, memberAuth, "/api/v1/register", "fetch_event_types", `["realm"]`))
	}
	st := state()
	_, hasGroup := st["realm_"+group]
	value, hasPolicy := st["realm_"+policy]
	if hasGroup == hasPolicy {
		t.Fatalf("register shows %s: %v, %s: %v; want exactly one", group, hasGroup, policy, hasPolicy)
	}
	if hasGroup {
		return true
	}
	if value != float64(byDefault) {
		t.Errorf("%s %v by default, want %d", policy, value, byDefault)
	}
	requireSuccess(t, "policy", msgPatch(t, base, ownerAuth, "/api/v1/realm", policy, "4"))
	if got := state()["realm_"+policy]; got != float64(4) {
		t.Errorf("%s %v after setting it to 4", policy, got)
	}
	return false
}

// systemGroupOf finds a system group's ID in register's realm_user_groups.
func systemGroupOf(t *testing.T, base, name string) string {
	t.Helper()
	state := requireSuccess(t, "register", post(t, base, ownerAuth, "/api/v1/register", "fetch_event_types", `["realm_user_groups"]`))
	for _, g := range state["realm_user_groups"].([]any) {
		if group := g.(map[string]any); group["name"] == name {
			return fmt.Sprint(group["id"])
		}
	}
	t.Fatalf("no system group %s", name)
	return ""
}

// The real server shows the deprecated wildcard_mention_policy at every level: below 352 it is
// the setting, from 352 the narrowest policy whose users include can_mention_many_users_group's.
func TestWildcardMentionPolicy(t *testing.T) {
	policy := func(t *testing.T, base string) (any, bool) {
		state := requireSuccess(t, "register", post(t, base, memberAuth, "/api/v1/register", "fetch_event_types", `["realm"]`))
		_, hasGroup := state["realm_can_mention_many_users_group"]
		return state["realm_wildcard_mention_policy"], hasGroup
	}
	t.Run("from the group setting", func(t *testing.T) {
		base := newServerAt(t, realm.LevelMentionManyUsersGroup).URL
		if v, hasGroup := policy(t, base); v != float64(5) || !hasGroup {
			t.Errorf("by default: policy %v (want 5, administrators), group shown %v", v, hasGroup)
		}
		mod, _ := defaultFixture.UserByRole(fixtures.RoleModerator)
		moderator := fmt.Sprint(mod.ID)
		for _, c := range []struct {
			name, value string
			want        float64
		}{
			{"moderators", `{"new":` + systemGroupOf(t, base, "role:moderators") + `}`, 7},
			{"a group of one moderator", `{"new":{"direct_members":[` + moderator + `],"direct_subgroups":[]}}`, 7},
			{"nobody", `{"new":` + systemGroupOf(t, base, "role:nobody") + `}`, 6},
			{"everyone", `{"new":` + systemGroupOf(t, base, "role:everyone") + `}`, 1},
		} {
			requireSuccess(t, c.name, msgPatch(t, base, ownerAuth, "/api/v1/realm", "can_mention_many_users_group", c.value))
			if v, _ := policy(t, base); v != c.want {
				t.Errorf("group %s: policy %v, want %v", c.name, v, c.want)
			}
		}
	})
	t.Run("below the group setting", func(t *testing.T) {
		base := newServerAt(t, realm.LevelMentionManyUsersGroup-1).URL
		if v, hasGroup := policy(t, base); v != float64(5) || hasGroup {
			t.Errorf("by default: policy %v (want 5), group shown %v (want not)", v, hasGroup)
		}
		reply := requireSuccess(t, "policy", msgPatch(t, base, ownerAuth, "/api/v1/realm", "wildcard_mention_policy", "2",
			"can_mention_many_users_group", `{"new":1}`))
		if ignored := fmt.Sprint(reply["ignored_parameters_unsupported"]); ignored != "[can_mention_many_users_group]" {
			t.Errorf("ignored parameters %s, want the group setting", ignored)
		}
		if v, _ := policy(t, base); v != float64(2) {
			t.Errorf("after setting it to 2: policy %v", v)
		}
		checkBad(t, badCase{want: badRequest("Invalid wildcard_mention_policy")},
			msgPatch(t, base, ownerAuth, "/api/v1/realm", "wildcard_mention_policy", "4"))
	})
}

// Routes the real server added after the oldest level the fake serves (its changelog): one
// level below, the route is unknown (404); at the boundary, it answers (whatever its answer
// to these bare requests). A route it later replaced (until) answers one level below that
// and is unknown from it.
func TestRoutesByLevel(t *testing.T) {
	for _, c := range []struct {
		boundary, until int
		req             request
		// missing is the msg of a served route's 404 for an object that does not exist, where
		// the request names one (the unknown route's 404 says "Not Found").
		missing string
	}{
		{boundary: realm.LevelGroupRoutes, req: request{method: http.MethodGet, path: "/api/v1/user_groups/1/members/1", auth: memberAuth}},
		{boundary: realm.LevelGroupRoutes, req: request{method: http.MethodGet, path: "/api/v1/user_groups/1/members", auth: memberAuth}},
		{boundary: realm.LevelGroupRoutes, req: request{method: http.MethodPost, path: "/api/v1/user_groups/1/subgroups", auth: ownerAuth}},
		{boundary: realm.LevelGroupRoutes, req: request{method: http.MethodGet, path: "/api/v1/user_groups/9/subgroups", auth: memberAuth}},
		{boundary: realm.LevelChannelByID, req: request{method: http.MethodGet, path: "/api/v1/streams/1", auth: memberAuth}},
		{boundary: realm.LevelChannelMembers, req: request{method: http.MethodGet, path: "/api/v1/streams/1/members", auth: memberAuth}},
		{boundary: realm.LevelChannelEmailAddress, req: request{method: http.MethodGet, path: "/api/v1/streams/1/email_address", auth: memberAuth}},
		{boundary: realm.LevelFlagsForNarrow, req: request{method: http.MethodPost, path: "/api/v1/messages/flags/narrow", auth: memberAuth}},
		{boundary: realm.LevelReadReceipts, req: request{method: http.MethodGet, path: "/api/v1/messages/1/read_receipts", auth: memberAuth}},
		{boundary: realm.LevelScheduledMessages, req: request{method: http.MethodGet, path: "/api/v1/scheduled_messages", auth: memberAuth}},
		{boundary: realm.LevelScheduledMessages, req: request{method: http.MethodDelete, path: "/api/v1/scheduled_messages/1", auth: memberAuth}, missing: "Scheduled message does not exist"},
		{boundary: realm.LevelScheduleMessages, req: request{method: http.MethodPost, path: "/api/v1/scheduled_messages", auth: memberAuth}},
		{boundary: realm.LevelEditScheduledMessages, req: request{method: http.MethodPatch, path: "/api/v1/scheduled_messages/1", auth: memberAuth}, missing: "Scheduled message does not exist"},
		{boundary: realm.LevelSavedSnippets, req: request{method: http.MethodGet, path: "/api/v1/saved_snippets", auth: memberAuth}},
		{boundary: realm.LevelSavedSnippets, req: request{method: http.MethodPost, path: "/api/v1/saved_snippets", auth: memberAuth}},
		{boundary: realm.LevelSavedSnippets, req: request{method: http.MethodDelete, path: "/api/v1/saved_snippets/1", auth: memberAuth}, missing: "Saved snippet does not exist."},
		{boundary: realm.LevelEditSavedSnippets, req: request{method: http.MethodPatch, path: "/api/v1/saved_snippets/1", auth: memberAuth, body: formBody("title", "x"), contentType: formType}, missing: "Saved snippet does not exist."},
		{boundary: realm.LevelJWT, req: request{method: http.MethodPost, path: "/api/v1/jwt/fetch_api_key"}},
		{boundary: realm.LevelBotAPIKeyRoute, req: request{method: http.MethodGet, path: "/api/v1/bots/6/api_key", auth: ownerAuth}},
		{boundary: realm.LevelExportConsents, req: request{method: http.MethodGet, path: "/api/v1/export/realm/consents", auth: adminAuth}},
		{boundary: realm.LevelRemoveClientDevice, req: request{method: http.MethodPost, path: "/api/v1/remove_client_device", auth: memberAuth}},
		{boundary: realm.LevelTestNotification, req: request{method: http.MethodPost, path: "/api/v1/mobile_push/test_notification", auth: memberAuth}},
		{boundary: realm.LevelE2EETestNotification, req: request{method: http.MethodPost, path: "/api/v1/mobile_push/e2ee/test_notification", auth: memberAuth}},
		{boundary: realm.LevelGetUserStatus, req: request{method: http.MethodGet, path: "/api/v1/users/4/status", auth: memberAuth}},
		{boundary: realm.LevelStatusOfOthers, req: request{method: http.MethodPost, path: "/api/v1/users/4/status", auth: adminAuth}},
		{boundary: realm.LevelConstructorGroups, req: request{method: http.MethodPost, path: "/api/v1/calls/constructorgroups/create", auth: memberAuth}},
		{boundary: realm.LevelNextcloudTalk, req: request{method: http.MethodPost, path: "/api/v1/calls/nextcloud_talk/create", auth: memberAuth}},
		{boundary: realm.LevelMessageReport, req: request{method: http.MethodPost, path: "/api/v1/messages/1/report", auth: memberAuth}},
		{boundary: realm.LevelWelcomeBotTest, req: request{method: http.MethodPost, path: "/api/v1/realm/test_welcome_bot_custom_message", auth: adminAuth}},
		{boundary: realm.LevelUserChannels, req: request{method: http.MethodGet, path: "/api/v1/users/1/channels", auth: memberAuth}},
		{boundary: realm.LevelCreateChannelRoute, req: request{method: http.MethodPost, path: "/api/v1/channels/create", auth: memberAuth}},
		{boundary: realm.LevelRealmUserDefaults, req: request{method: http.MethodPatch, path: "/api/v1/realm/user_settings_defaults", auth: adminAuth}},
		{boundary: realm.LevelLinkifierReorder, req: request{method: http.MethodPatch, path: "/api/v1/realm/linkifiers", auth: adminAuth}},
		{boundary: realm.LevelGroupDeactivation, req: request{method: http.MethodPost, path: "/api/v1/user_groups/8/deactivate", auth: ownerAuth}},
		{boundary: realm.LevelUpdateUserByEmail, req: request{method: http.MethodPatch, path: "/api/v1/users/member@chat.example.test", auth: ownerAuth}},
		{boundary: realm.LevelEditTypingRoute, req: request{method: http.MethodPost, path: "/api/v1/messages/1/typing", auth: memberAuth}},
		{until: realm.LevelGroupDeletionRemoved, req: request{method: http.MethodDelete, path: "/api/v1/user_groups/8", auth: ownerAuth}},
		{boundary: realm.LevelEditTyping, until: realm.LevelEditTypingRoute, req: request{method: http.MethodPost, path: "/api/v1/message_edit_typing", auth: memberAuth}},
		{boundary: realm.LevelReminders, req: request{method: http.MethodPost, path: "/api/v1/reminders", auth: memberAuth}},
		{boundary: realm.LevelReminderList, req: request{method: http.MethodGet, path: "/api/v1/reminders", auth: memberAuth}},
		{boundary: realm.LevelReminderList, req: request{method: http.MethodDelete, path: "/api/v1/reminders/1", auth: memberAuth}},
	} {
		t.Run(c.req.method+" "+c.req.path, func(t *testing.T) {
			var levels []int
			if c.boundary > 0 { // 0: served since before the oldest level the fake serves
				levels = append(levels, c.boundary-1, c.boundary)
			}
			if c.until > 0 {
				levels = append(levels, c.until-1, c.until)
			}
			for _, level := range levels {
				res := do(t, newServerAt(t, level).URL, c.req)
				served := level >= c.boundary && (c.until == 0 || level < c.until)
				// Not served: the unknown-route answer, or 405 where the path takes other methods.
				got := res.status != http.StatusNotFound && res.status != http.StatusMethodNotAllowed
				if c.missing != "" && res.status == http.StatusNotFound {
					got = res.env["msg"] == c.missing
					if !got && res.env["msg"] != "Not Found" {
						t.Errorf("at level %d: neither the route's answer nor an unknown route: %s", level, res)
					}
				}
				if got != served {
					t.Errorf("at level %d: %s", level, res)
				}
				if res.env["result"] != "success" && res.env["result"] != "error" {
					t.Errorf("at level %d: not a JSON envelope: %s", level, res)
				}
			}
		})
	}
}

// Bad input to the routes served only at older levels (olderLevelRoutes), at their last level:
// each case gets its error envelope, and the valid request then succeeds.
func TestOlderRoutesBadInput(t *testing.T) {
	base := newServerAt(t, realm.LevelEditTypingRoute-1).URL
	id := fmt.Sprint(msgSend(t, base, ownerAuth, "typed", "the owner's"))
	typing := func(auth string, kv ...string) request {
		return request{method: http.MethodPost, path: "/api/v1/message_edit_typing", auth: auth, body: formBody(kv...), contentType: formType}
	}
	for _, c := range []badCase{
		{"no message_id", typing(ownerAuth, "op", "start"), missing("message_id")},
		{"message_id not an integer", typing(ownerAuth, "message_id", "one", "op", "start"), want{status: 400, code: "BAD_REQUEST"}},
		{"message_id too large", typing(ownerAuth, "message_id", huge, "op", "start"), badRequest("message_id is too large")},
		{"message_id beyond 32 bits", typing(ownerAuth, "message_id", "4294967296", "op", "start"), badRequest("Invalid message(s)")},
		{"no such message", typing(ownerAuth, "message_id", "0", "op", "start"), badRequest("Invalid message(s)")},
		{"no op", typing(ownerAuth, "message_id", id), missing("op")},
		{"op not start or stop", typing(ownerAuth, "message_id", id, "op", "pause"), badRequest("Invalid op")},
		{"a message the requester cannot edit", typing(memberAuth, "message_id", id, "op", "start"), badRequest("You don't have permission to edit this message")},
		{"no credentials", typing("", "message_id", id, "op", "start"), want{status: 401}},
	} {
		t.Run(c.name, func(t *testing.T) { checkBad(t, c, do(t, base, c.req)) })
	}
	requireSuccess(t, "the valid request", do(t, base, typing(ownerAuth, "message_id", id, "op", "start")))
}

// Deleting a user group, below 294: the group goes, the groups it was a subgroup of lose it;
// bad input gets its error first.
func TestGroupDeletionBelow294(t *testing.T) {
	base := newServerAt(t, realm.LevelGroupDeletionRemoved-1).URL
	del := func(auth, id string) request {
		return request{method: http.MethodDelete, path: "/api/v1/user_groups/" + id, auth: auth}
	}
	for _, c := range []badCase{
		{"no such group", del(ownerAuth, "99"), badRequest("Invalid user group")},
		{"an ID beyond 32 bits", del(ownerAuth, huge), want{status: 400}},
		{"a system group", del(ownerAuth, "1"), badRequest("Insufficient permission")},
		{"no credentials", del("", supportGroup), want{status: 401}},
	} {
		t.Run(c.name, func(t *testing.T) { checkBad(t, c, do(t, base, c.req)) })
	}
	if got := canonical(groupObject(t, base, escalationGroup)["direct_subgroup_ids"]); got != "["+supportGroup+"]" {
		t.Fatalf("escalation's subgroups before: %s", got)
	}
	requireSuccess(t, "delete support", do(t, base, del(ownerAuth, supportGroup)))
	if got := canonical(groupObject(t, base, escalationGroup)["direct_subgroup_ids"]); got != "[]" {
		t.Errorf("escalation's subgroups after: %s", got)
	}
	for _, g := range userGroups(t, base) {
		if id := fmt.Sprint(g.(map[string]any)["id"]); id == supportGroup {
			t.Errorf("support still listed after deletion")
		}
	}
}

// A 405 lists only the methods served at the fake's level: DELETE /user_groups/{id} until 294,
// and from 294 DELETE itself is a wrong method (405 in the JSON envelope, as the real server
// answers since it dropped the method), while a path whose only routes are of other levels is
// unknown (404), not a wrong method.
func TestWrongMethodByLevel(t *testing.T) {
	for _, c := range []struct {
		level      int
		req        request
		wantStatus int
		wantAllow  string
	}{
		{realm.LevelGroupDeletionRemoved - 1, request{method: http.MethodGet, path: "/api/v1/user_groups/8", auth: ownerAuth}, 405, "PATCH, DELETE"},
		{realm.LevelGroupDeletionRemoved, request{method: http.MethodGet, path: "/api/v1/user_groups/8", auth: ownerAuth}, 405, "PATCH"},
		{realm.LevelGroupDeletionRemoved, request{method: http.MethodDelete, path: "/api/v1/user_groups/8", auth: ownerAuth}, 405, "PATCH"},
		{realm.LevelRemoveClientDevice - 1, request{method: http.MethodPost, path: "/api/v1/remove_client_device", auth: ownerAuth}, 404, ""},
		{realm.LevelReminderList - 1, request{method: http.MethodPatch, path: "/api/v1/reminders/1", auth: ownerAuth}, 404, ""},
		{realm.LevelReminderList, request{method: http.MethodPatch, path: "/api/v1/reminders/1", auth: ownerAuth}, 405, "DELETE"},
	} {
		res := do(t, newServerAt(t, c.level).URL, c.req)
		if allow := strings.Join(res.header.Values("Allow"), ", "); res.status != c.wantStatus || allow != c.wantAllow {
			t.Errorf("%s %s at level %d: HTTP %d, Allow %q; want %d, %q", c.req.method, c.req.path, c.level, res.status, allow, c.wantStatus, c.wantAllow)
		}
		if res.env["result"] != "error" || res.env["msg"] == nil {
			t.Errorf("%s %s at level %d: not the JSON error envelope: %s", c.req.method, c.req.path, c.level, res)
		}
	}
}
