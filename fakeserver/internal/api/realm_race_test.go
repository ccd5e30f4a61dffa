package api_test

import (
	"fmt"
	"net/http"
	"sync"
	"testing"
)

// PATCH /realm naming a new private channel as the moderation channel, sent while another
// request archives that channel: a refused request has changed no setting it named (the
// realm's name here), an accepted one all of them. The handler makes one domain call, so no
// archive can land between its checks and its changes. Run with -race.
func TestRealmPatchRacesChannelArchive(t *testing.T) {
	ts := newServer(t)
	owner, _ := defaultFixture.UserByRole("owner")
	realmName := func() any {
		return requireSuccess(t, "server settings", get(t, ts.URL, "", "/api/v1/server_settings", ""))["realm_name"]
	}
	for i := range 10 {
		id := newTestChannel(t, ts.URL, ownerAuth, fmt.Sprint("moderation-", i), true, fmt.Sprintf("[%d]", owner.ID))
		before, name := realmName(), fmt.Sprint("Renamed ", i)
		var update, archive response
		var updateErr, archiveErr error
		var wg sync.WaitGroup
		wg.Add(2)
		go func() {
			defer wg.Done()
			update, updateErr = send(httpClient, ts.URL, request{method: http.MethodPatch, path: "/api/v1/realm", contentType: formType, auth: ownerAuth,
				body: formBody("name", name, "moderation_request_channel_id", fmt.Sprint(id))})
		}()
		go func() {
			defer wg.Done()
			archive, archiveErr = send(httpClient, ts.URL, request{method: http.MethodDelete, path: fmt.Sprintf("/api/v1/streams/%d", id), auth: ownerAuth})
		}()
		wg.Wait()
		if updateErr != nil || archiveErr != nil {
			t.Fatalf("round %d: sending: %v, %v", i, updateErr, archiveErr)
		}
		requireSuccess(t, "archive", archive)
		after := realmName()
		if update.status == http.StatusOK {
			if after != name {
				t.Fatalf("round %d: PATCH /realm succeeded (%s) but the realm is named %v", i, update, after)
			}
			continue
		}
		wantRefusal(t, fmt.Sprint("round ", i, ": PATCH /realm"), update, "Invalid channel ID")
		if after != before {
			t.Fatalf("round %d: PATCH /realm was refused (%s) but renamed the realm %v → %v", i, update, before, after)
		}
	}
}
