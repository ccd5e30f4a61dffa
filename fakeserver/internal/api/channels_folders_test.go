package api_test

// Channels in channel folders: folder_id on channel creation (POST /users/me/subscriptions and
// POST /channels/create) and on PATCH /streams/{stream_id}, the channel objects that carry it,
// the stream update event, and a folder in use that cannot be archived.

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/chatconform/chatconform/fakeserver/internal/realm"
)

// folderOf is the folder_id of a channel as GET /streams/{id} shows it to auth.
func folderOf(t *testing.T, base, auth string, channelID any) any {
	t.Helper()
	return requireSuccess(t, "channel", get(t, base, auth, fmt.Sprintf("/api/v1/streams/%v", channelID), ""))["stream"].(map[string]any)["folder_id"]
}

func TestChannelsInFolders(t *testing.T) {
	base := newCheckedServer(t)
	for _, name := range []string{"Engineering", "Sales"} {
		requireSuccess(t, "folder", post(t, base, adminAuth, "/api/v1/channel_folders/create", "name", name, "description", ""))
	}
	memberQueue := evRegister(t, base, memberAuth, "event_types", `["stream"]`)

	// Channels created in a folder; a channel that exists keeps its own.
	created := requireSuccess(t, "subscribe", post(t, base, memberAuth, "/api/v1/users/me/subscriptions",
		"subscriptions", `[{"name":"backend"},{"name":"frontend"},{"name":"general"}]`, "folder_id", "1"))
	if fmt.Sprint(created["subscribed"]) != "map[4:[backend frontend]]" {
		t.Fatalf("subscribe: %v", created)
	}
	backend := requireSuccess(t, "id", get(t, base, memberAuth, "/api/v1/get_stream_id", "stream=backend"))["stream_id"]
	frontend := requireSuccess(t, "id", get(t, base, memberAuth, "/api/v1/get_stream_id", "stream=frontend"))["stream_id"]
	route := requireSuccess(t, "create", post(t, base, memberAuth, "/api/v1/channels/create", "name", "deals", "subscribers", "[4]", "folder_id", "2"))["id"]
	for _, c := range []struct {
		channel any
		want    any
	}{{backend, float64(1)}, {frontend, float64(1)}, {float64(1), nil}, {route, float64(2)}} {
		if got := folderOf(t, base, memberAuth, c.channel); got != c.want {
			t.Errorf("channel %v: folder_id %v, want %v", c.channel, got, c.want)
		}
	}

	// Moved by its creator (who administers it), taken out of its folder, moved by an administrator.
	path := fmt.Sprintf("/api/v1/streams/%v", backend)
	requireSuccess(t, "move", patch(t, base, memberAuth, path, "folder_id", "2"))
	requireSuccess(t, "out of the folder", patch(t, base, memberAuth, path, "folder_id", "null"))
	if got := folderOf(t, base, memberAuth, backend); got != nil {
		t.Errorf("taken out of its folder: folder_id %v", got)
	}
	requireSuccess(t, "an administrator moves it", patch(t, base, adminAuth, path, "folder_id", "2"))
	wantRefusal(t, "a moderator who does not administer it", patch(t, base, modAuth, path, "folder_id", "1"), "You do not have permission to administer this channel.")
	wantRefusal(t, "a folder that does not exist", patch(t, base, memberAuth, path, "folder_id", "7", "description", "kept?"), "Invalid channel folder ID")
	if ch := requireSuccess(t, "channel", get(t, base, memberAuth, path, ""))["stream"].(map[string]any); ch["folder_id"] != float64(2) || ch["description"] != "" {
		t.Errorf("after a refused move: %v", ch)
	}
	wantRefusal(t, "a new channel in a folder that does not exist", post(t, base, memberAuth, "/api/v1/users/me/subscriptions",
		"subscriptions", `[{"name":"never made"}]`, "folder_id", "7"), "Invalid channel folder ID")
	if res := get(t, base, memberAuth, "/api/v1/get_stream_id", "stream=never made"); res.status != http.StatusBadRequest {
		t.Errorf("the refused channel exists: %s", res)
	}

	// Register's subscriptions and streams carry the folder.
	state := requireSuccess(t, "register", post(t, base, memberAuth, "/api/v1/register", "fetch_event_types", `["subscription","stream"]`))
	for _, key := range []string{"subscriptions", "streams"} {
		found := false
		for _, ch := range state[key].([]any) {
			ch := ch.(map[string]any)
			if ch["stream_id"] == backend {
				found = ch["folder_id"] == float64(2)
			}
		}
		if !found {
			t.Errorf("register's %s: backend not in folder 2", key)
		}
	}

	var moves []string
	for _, ev := range eventsOfType(evPoll(t, base, memberAuth, memberQueue, -1, true), "stream") {
		if ev["op"] == "update" {
			moves = append(moves, fmt.Sprintf("%v %v=%v", ev["name"], ev["property"], ev["value"]))
		}
	}
	if want := "[backend folder_id=2 backend folder_id=<nil> backend folder_id=2]"; fmt.Sprint(moves) != want {
		t.Errorf("the member's stream update events %v, want %s", moves, want)
	}

	// A folder a channel is in, archived or not, cannot be archived until the channel leaves it.
	const inUse = "You need to remove all the channels from this folder to archive it."
	requireSuccess(t, "archive a channel", do(t, base, request{method: http.MethodDelete, path: fmt.Sprintf("/api/v1/streams/%v", route), auth: adminAuth}))
	requireSuccess(t, "move the other", patch(t, base, adminAuth, path, "folder_id", "1"))
	wantRefusal(t, "archive a folder an archived channel is in", patch(t, base, adminAuth, "/api/v1/channel_folders/2", "is_archived", "true"), inUse)
	requireSuccess(t, "move the archived channel out", patch(t, base, adminAuth, fmt.Sprintf("/api/v1/streams/%v", route), "folder_id", "null"))
	requireSuccess(t, "archive the empty folder", patch(t, base, adminAuth, "/api/v1/channel_folders/2", "is_archived", "true"))
	// The real server looks a folder up without regard to archiving.
	requireSuccess(t, "move into an archived folder", patch(t, base, adminAuth, path, "folder_id", "2"))
}

// Below LevelChannelFolders a channel has no folder_id and the parameter is unknown: listed in
// ignored_parameters_unsupported on every route that takes it from the level.
func TestFolderIDLevelBoundary(t *testing.T) {
	for _, level := range []int{realm.LevelChannelFolders - 1, realm.LevelChannelFolders} {
		t.Run(fmt.Sprint(level), func(t *testing.T) {
			base := newServerAt(t, level).URL
			newer := level >= realm.LevelChannelFolders
			if newer {
				requireSuccess(t, "folder", post(t, base, adminAuth, "/api/v1/channel_folders/create", "name", "Folder", "description", ""))
			}
			for _, c := range []struct {
				what string
				res  response
			}{
				{"subscribe", post(t, base, memberAuth, "/api/v1/users/me/subscriptions", "subscriptions", `[{"name":"foldered"}]`, "folder_id", "1")},
				{"edit", patch(t, base, adminAuth, "/api/v1/streams/1", "folder_id", "1")},
			} {
				env := requireSuccess(t, c.what, c.res)
				if ignored := fmt.Sprint(env["ignored_parameters_unsupported"]) == "[folder_id]"; ignored == newer {
					t.Errorf("%s at level %d: ignored_parameters_unsupported %v", c.what, level, env["ignored_parameters_unsupported"])
				}
			}
			ch := requireSuccess(t, "channel", get(t, base, memberAuth, "/api/v1/streams/1", ""))["stream"].(map[string]any)
			folder, shown := ch["folder_id"]
			if shown != newer || (newer && folder != float64(1)) {
				t.Errorf("level %d: folder_id %v (shown %v)", level, folder, shown)
			}
		})
	}
}
