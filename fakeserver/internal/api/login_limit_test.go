package api_test

import (
	"fmt"
	"net/http"
	"runtime"
	"strings"
	"testing"
)

// Password attempts count per account, whatever the spelling of its email, and a username
// that cannot name an account neither counts nor stays in memory.

func TestPasswordAttemptsPerAccount(t *testing.T) {
	member, _ := defaultFixture.UserByRole("member")
	ts := newServer(t)
	evPatchConfig(t, ts.URL, "rate_limit_requests", "1000")
	login := func(email, password string) response {
		return post(t, ts.URL, "", "/api/v1/fetch_api_key", "username", email, "password", password)
	}
	upper := strings.ToUpper(member.Email)
	for i, spelling := range []string{member.Email, upper, member.Email + " ", " " + upper + " ", strings.ToUpper(member.Email[:1]) + member.Email[1:]} {
		if res := login(spelling, "wrong"); res.status != http.StatusUnauthorized {
			t.Fatalf("wrong password %d (%q): %s, want 401", i+1, spelling, res)
		}
	}
	for _, spelling := range []string{member.Email, upper + " ", "\t" + member.Email} {
		if res := login(spelling, member.Password); res.status != http.StatusTooManyRequests || res.env["code"] != "RATE_LIMIT_HIT" {
			t.Errorf("the right password as %q after 5 wrong ones in other spellings: %s, want 429 RATE_LIMIT_HIT", spelling, res)
		}
	}
}

func TestLoginUsernameBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("a measure of memory that the race detector distorts: make unit runs it")
	}
	owner, _ := defaultFixture.UserByRole("owner")
	ts := newServer(t)
	evPatchConfig(t, ts.URL, "rate_limit_requests", "1000")
	const attempts, size = 60, 1 << 20
	before := liveHeap()
	for i := range attempts {
		username := fmt.Sprint(i, strings.Repeat("u", size), "@chat.example.test")
		res := post(t, ts.URL, "", "/api/v1/fetch_api_key", "username", username, "password", "guess")
		if res.status != http.StatusBadRequest || res.env["msg"] != "Enter a valid email address." {
			t.Fatalf("a 1 MB username: %s, want 400 'Enter a valid email address.'", res)
		}
	}
	grown := int64(liveHeap()) - int64(before)
	runtime.KeepAlive(ts)
	t.Logf("%d attempts with 1 MB usernames: live heap grew by %.1f MB", attempts, float64(grown)/(1<<20))
	if grown > 4<<20 {
		t.Errorf("the fake keeps %.1f MB after %d attempts with 1 MB usernames, want at most 4 MB", float64(grown)/(1<<20), attempts)
	}
	requireSuccess(t, "the owner's login, which those attempts did not count against", post(t, ts.URL, "", "/api/v1/fetch_api_key",
		"username", owner.Email, "password", owner.Password))
}
