package api_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"testing"

	"github.com/chatconform/chatconform/fakeserver/internal/realm"
)

// A user's alert words are bounded in number (realm.MaxAlertWords), so that adding them, and
// searching every message the user receives for them, is bounded work under the realm's lock.

// wordsOf is a JSON list of n distinct alert words, from the n-th of a series named prefix.
func wordsOf(prefix string, from, n int) string {
	words := make([]string, n)
	for i := range words {
		words[i] = fmt.Sprint(prefix, from+i)
	}
	b, _ := json.Marshal(words)
	return string(b)
}

func TestAlertWordsBounded(t *testing.T) {
	base := newServer(t).URL
	add := func(auth, words string) response {
		return post(t, base, auth, "/api/v1/users/me/alert_words", "alert_words", words)
	}
	count := func(auth string) int {
		list, _ := requireSuccess(t, "list", get(t, base, auth, "/api/v1/users/me/alert_words", ""))["alert_words"].([]any)
		return len(list)
	}
	tooMany := fmt.Sprintf("A user can have at most %d alert words.", realm.MaxAlertWords)
	refused := func(t *testing.T, what string, res response) {
		t.Helper()
		if res.status != http.StatusBadRequest || res.env["code"] != "BAD_REQUEST" || res.env["msg"] != tooMany {
			t.Errorf("%s: got %s, want 400 BAD_REQUEST %q", what, res, tooMany)
		}
	}

	// In one request, 5 times the bound: refused whole (a guest may add alert words).
	refused(t, "5,000 words at once", add(guestAuth, wordsOf("word", 0, 5*realm.MaxAlertWords)))
	if n := count(guestAuth); n != 0 {
		t.Errorf("a refused request left %d alert words", n)
	}
	// Up to the bound in steps, words already there (in another case) not counted again.
	requireSuccess(t, "the first half", add(memberAuth, wordsOf("word", 0, realm.MaxAlertWords/2)))
	requireSuccess(t, "the rest, with the first half again", add(memberAuth, wordsOf("WORD", 0, realm.MaxAlertWords)))
	if n := count(memberAuth); n != realm.MaxAlertWords {
		t.Fatalf("%d alert words, want %d", n, realm.MaxAlertWords)
	}
	requireSuccess(t, "words already there, at the bound", add(memberAuth, wordsOf("Word", 0, 10)))
	refused(t, "one more at the bound", add(memberAuth, wordsOf("other", 0, 1)))
	// Removing makes room.
	requireSuccess(t, "remove", do(t, base, request{method: http.MethodDelete, path: "/api/v1/users/me/alert_words", auth: memberAuth,
		body: formBody("alert_words", wordsOf("WoRd", 0, 2)), contentType: formType}))
	requireSuccess(t, "two more after removing two", add(memberAuth, wordsOf("other", 0, 2)))
	if n := count(memberAuth); n != realm.MaxAlertWords {
		t.Errorf("%d alert words, want %d", n, realm.MaxAlertWords)
	}
}
