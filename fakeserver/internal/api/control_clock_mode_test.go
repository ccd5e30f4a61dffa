package api_test

// The wall-clock mode: the virtual clock starts at the wall time and runs with it, chosen by
// the control API, by the fixture or by the server's option, and still moved by the control API.

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/chatconform/chatconform/fakeserver"
	"github.com/chatconform/chatconform/fixtures"
)

// clockOf reads the control API's clock: its time and mode.
func clockOf(t *testing.T, base string) (int64, string) {
	t.Helper()
	env := requireSuccess(t, "GET /_fake/clock", get(t, base, "", "/_fake/clock", ""))
	mode, _ := env["mode"].(string)
	return int64(env["now"].(float64)), mode
}

func moveClock(t *testing.T, base string, kv ...string) map[string]any {
	t.Helper()
	return requireSuccess(t, "POST /_fake/clock", do(t, base, request{method: http.MethodPost, path: "/_fake/clock", body: formBody(kv...), contentType: formType}))
}

// nearWall fails unless ts, read from the fake by a request sent at sent, lies between the
// wall times of sending and now (a second either side for rounding): the bound grows with
// however long a busy machine took to answer.
func nearWall(t *testing.T, what string, ts int64, sent time.Time) {
	t.Helper()
	if from, to := sent.Unix()-1, time.Now().Unix()+1; ts < from || ts > to {
		t.Errorf("%s: %d, want the wall time while the request was answered (%d to %d)", what, ts, from, to)
	}
}

func TestWallClockThroughTheControlAPI(t *testing.T) {
	ts := newServer(t)
	if now, mode := clockOf(t, ts.URL); now != defaultFixture.Realm.StartTime || mode != "frozen" {
		t.Fatalf("clock %d %s, want frozen at the fixture's start time", now, mode)
	}
	env := moveClock(t, ts.URL, "mode", "wall")
	if env["mode"] != "wall" {
		t.Errorf("reply %v, want mode wall", env)
	}
	asked := time.Now()
	now, _ := clockOf(t, ts.URL)
	nearWall(t, "clock after switching to wall", now, asked)
	asked = time.Now()
	sent := requireSuccess(t, "send", post(t, ts.URL, memberAuth, "/api/v1/messages", "type", "stream", "to", "general", "topic", "t", "content", "now"))
	msg := requireSuccess(t, "fetch", get(t, ts.URL, memberAuth, fmt.Sprintf("/api/v1/messages/%v", sent["id"]), ""))["message"].(map[string]any)
	nearWall(t, "message timestamp", int64(msg["timestamp"].(float64)), asked)

	time.Sleep(1100 * time.Millisecond)
	if later, _ := clockOf(t, ts.URL); later <= now {
		t.Errorf("clock did not run: %d, then %d a second later", now, later)
	}
	// Still moved by the control API, and running from there.
	asked = time.Now()
	moved := int64(moveClock(t, ts.URL, "advance", "3600")["now"].(float64))
	nearWall(t, "an hour ahead, less the hour", moved-3600, asked)
	asked = time.Now()
	moveClock(t, ts.URL, "now", "1000000000")
	back, mode := clockOf(t, ts.URL)
	if ran := int64(time.Since(asked)/time.Second) + 1; back < 1000000000 || back > 1000000000+ran || mode != "wall" {
		t.Errorf("set back: %d %s, want running from 1000000000 (at most %d s on)", back, mode, ran)
	}
	moveClock(t, ts.URL, "mode", "frozen")
	stopped, _ := clockOf(t, ts.URL)
	time.Sleep(1100 * time.Millisecond)
	if still, mode := clockOf(t, ts.URL); still != stopped || mode != "frozen" {
		t.Errorf("frozen clock: %d then %d (%s)", stopped, still, mode)
	}
	// A reset restores the fixture's clock.
	moveClock(t, ts.URL, "mode", "wall")
	requireSuccess(t, "reset", do(t, ts.URL, request{method: http.MethodPost, path: "/_fake/reset"}))
	if now, mode := clockOf(t, ts.URL); now != defaultFixture.Realm.StartTime || mode != "frozen" {
		t.Errorf("after reset: %d %s, want frozen at the fixture's start time", now, mode)
	}
}

func TestWallClockFromTheFixtureAndTheOption(t *testing.T) {
	wallFixture := func() *fixtures.Fixture {
		f, err := fixtures.Parse([]byte(strings.Replace(string(fixtures.DefaultYAML()), "realm:\n", "realm:\n  clock: wall\n", 1)))
		if err != nil {
			t.Fatal(err)
		}
		return f
	}
	for _, tc := range []struct {
		name string
		opts []fakeserver.Option
		want string
	}{
		{"a fixture with clock: wall", []fakeserver.Option{fakeserver.WithFixture(wallFixture())}, "wall"},
		{"the wall option on the frozen default fixture", []fakeserver.Option{fakeserver.WithClockMode(fakeserver.ClockWall)}, "wall"},
		{"the frozen option on a wall fixture", []fakeserver.Option{fakeserver.WithFixture(wallFixture()), fakeserver.WithClockMode(fakeserver.ClockFrozen)}, "frozen"},
	} {
		ts := fakeserver.NewTestServer(tc.opts...)
		for _, when := range []string{"at start", "after a reset"} {
			asked := time.Now()
			now, mode := clockOf(t, ts.URL)
			if mode != tc.want {
				t.Errorf("%s, %s: mode %s, want %s", tc.name, when, mode, tc.want)
			}
			if mode == "wall" {
				nearWall(t, tc.name+", "+when, now, asked)
			} else if now != defaultFixture.Realm.StartTime {
				t.Errorf("%s, %s: frozen at %d, want the fixture's start time", tc.name, when, now)
			}
			requireSuccess(t, "reset", do(t, ts.URL, request{method: http.MethodPost, path: "/_fake/reset"}))
		}
		ts.Close()
	}
}

// TestWallClockDeliversReminders: on a running clock, what falls due happens without the
// control API moving the clock.
func TestWallClockDeliversReminders(t *testing.T) {
	ts := fakeserver.NewTestServer(fakeserver.WithClockMode(fakeserver.ClockWall))
	defer ts.Close()
	target := requireSuccess(t, "send", post(t, ts.URL, ownerAuth, "/api/v1/messages", "type", "stream", "to", "general", "topic", "t", "content", "remember me"))["id"]
	queue := evRegister(t, ts.URL, memberAuth, "event_types", `["message"]`)
	now, _ := clockOf(t, ts.URL)
	requireSuccess(t, "reminder", post(t, ts.URL, memberAuth, "/api/v1/reminders",
		"message_id", fmt.Sprint(target), "scheduled_delivery_timestamp", fmt.Sprint(now+1)))
	deadline := time.Now().Add(patience(t))
	for time.Now().Before(deadline) {
		if evs := evPoll(t, ts.URL, memberAuth, queue, -1, true); len(evs) > 0 {
			if m := evs[0]["message"].(map[string]any); m["sender_full_name"] != "Notification Bot" {
				t.Errorf("event %v, want the reminder from the notification bot", evs[0])
			}
			return
		}
		time.Sleep(200 * time.Millisecond)
	}
	t.Errorf("the reminder due at %d was not delivered on the running clock before the test's deadline", now+1)
}
