package fakeserver_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chatconform/chatconform/fakeserver"
	"github.com/chatconform/chatconform/fixtures"
)

func TestStartClientAndSetClock(t *testing.T) {
	ts := fakeserver.Start(t)
	for who, wantRole := range map[string]float64{"member": 400, "owner": 100, "guest@chat.example.test": 600} {
		resp, err := ts.Client(who).Get(ts.URL + "/api/v1/users/me")
		if err != nil {
			t.Fatal(err)
		}
		var me map[string]any
		_ = json.NewDecoder(resp.Body).Decode(&me)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK || me["role"] != wantRole {
			t.Errorf("Client(%q): %d %v, want role %v", who, resp.StatusCode, me, wantRole)
		}
	}
	// A name the realm does not have fails the client's requests, naming the roles.
	for _, who := range []string{"admin", "nobody@chat.example.test"} {
		resp, err := ts.Client(who).Get(ts.URL + "/api/v1/users/me")
		if err == nil {
			resp.Body.Close()
			t.Errorf("Client(%q): a request succeeded (HTTP %d)", who, resp.StatusCode)
		} else if msg := err.Error(); !strings.Contains(msg, fmt.Sprintf("Client(%q)", who)) || !strings.Contains(msg, "administrator") {
			t.Errorf("Client(%q): %v, want an error naming the name and the roles", who, err)
		}
	}

	start := ts.Server.Clock()
	later := start.Add(90 * time.Minute)
	if err := ts.Server.SetClock(later); err != nil || !ts.Server.Clock().Equal(later) {
		t.Fatalf("SetClock(%v) = %v, clock %v", later, err, ts.Server.Clock())
	}
	if err := ts.Server.SetClock(start); err != nil || !ts.Server.Clock().Equal(start) {
		t.Fatalf("SetClock back = %v, clock %v", err, ts.Server.Clock())
	}
	if err := ts.Server.SetClock(time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC)); err == nil {
		t.Error("SetClock past year 9999 succeeded")
	}
}

func TestJournalFiltersAndVerify(t *testing.T) {
	ts := fakeserver.Start(t)
	member := ts.Client("member@chat.example.test")
	for _, u := range []string{"/api/v1/users/me", "/api/v1/users/me?api_key=secret", "/api/v1/messages/999999"} {
		resp, err := member.Get(ts.URL + u)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
	}
	ownUser := fakeserver.JournalFilter{Method: "get", Path: "/api/v1/users/me", User: "MEMBER@chat.example.test"}
	if err := ts.Server.Verify(ownUser, 2); err != nil {
		t.Error(err)
	}
	if err := ts.Server.Verify(ownUser, 3); err == nil {
		t.Error("Verify of 3 requests when 2 came succeeded")
	}
	refused := ts.Server.Journal(fakeserver.JournalFilter{Path: "/api/v1/messages/*", Status: 400})
	if len(refused) != 1 || refused[0].User != "member@chat.example.test" || refused[0].Time == 0 || refused[0].VirtualTime == 0 {
		t.Errorf("refused fetch: %+v", refused)
	}
	for _, e := range ts.Server.Journal(fakeserver.JournalFilter{}) {
		if e.Query != "" && e.Query != "api_key=****" {
			t.Errorf("query kept a credential: %q", e.Query)
		}
		if v, ok := e.Params["api_key"]; ok && v != "****" {
			t.Errorf("parameters kept a credential: %v", e.Params)
		}
	}
	if len(refused) == 1 && !strings.Contains(refused[0].Response, `"code":"BAD_REQUEST"`) {
		t.Errorf("refused fetch: the journal keeps no answer: %q", refused[0].Response)
	}

	// A form's and a JSON body's parameters, decoded.
	resp, err := member.PostForm(ts.URL+"/api/v1/messages", url.Values{"type": {"channel"}, "to": {"general"}, "topic": {"journal"}, "content": {"hello"}})
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	sent := ts.Server.Journal(fakeserver.JournalFilter{Method: "POST", Path: "/api/v1/messages"})
	if len(sent) != 1 || sent[0].Params["topic"] != "journal" || sent[0].Params["content"] != "hello" || !strings.Contains(sent[0].Response, `"id":`) {
		t.Errorf("a sent message's journal entry: %+v", sent)
	}
	resp, err = http.Get(ts.URL + "/_fake/journal?path=" + "/api/v1/messages/*" + "&status=400")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var body struct {
		Count int `json:"count"`
	}
	_ = json.NewDecoder(resp.Body).Decode(&body)
	if resp.StatusCode != http.StatusOK || body.Count != 1 {
		t.Errorf("GET /_fake/journal filtered: %d, count %d, want 1", resp.StatusCode, body.Count)
	}
}

func TestFaults(t *testing.T) {
	ts := fakeserver.Start(t)
	member, owner := ts.Client("member"), ts.Client("owner")
	status := func(c *http.Client) (int, string) {
		t.Helper()
		resp, err := c.Get(ts.URL + "/api/v1/users/me")
		if err != nil {
			return 0, err.Error()
		}
		defer resp.Body.Close()
		var env map[string]any
		_ = json.NewDecoder(resp.Body).Decode(&env)
		return resp.StatusCode, fmt.Sprint(env["code"])
	}

	// Twice an error for the member only, then as usual.
	if _, err := ts.Server.InjectFault(fakeserver.Fault{Method: "GET", Path: "/api/v1/users/*", User: "member@chat.example.test",
		Status: 503, Code: "SERVICE_UNAVAILABLE", Times: 2}); err != nil {
		t.Fatal(err)
	}
	if got, code := status(owner); got != 200 {
		t.Errorf("another user met the fault: %d %s", got, code)
	}
	for i := range 2 {
		if got, code := status(member); got != 503 || code != "SERVICE_UNAVAILABLE" {
			t.Errorf("request %d: %d %s, want the injected 503", i+1, got, code)
		}
	}
	if got, _ := status(member); got != 200 || len(ts.Server.Faults()) != 0 {
		t.Errorf("after two requests: %d, faults %v, want recovered", got, ts.Server.Faults())
	}

	// A delay, then the usual answer.
	if _, err := ts.Server.InjectFault(fakeserver.Fault{Path: "/api/v1/users/me", Delay: 150 * time.Millisecond, Times: 1}); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	if got, _ := status(member); got != 200 || time.Since(start) < 150*time.Millisecond {
		t.Errorf("delayed request: %d after %s", got, time.Since(start))
	}

	// A dropped connection, until cleared; the control API still answers.
	if _, err := ts.Server.InjectFault(fakeserver.Fault{Path: "/api/v1/users/me", Drop: true}); err != nil {
		t.Fatal(err)
	}
	if got, _ := status(member); got != 0 {
		t.Errorf("dropped request answered %d", got)
	}
	resp, err := http.Get(ts.URL + "/_fake/faults")
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("the control API met the fault: %v %v", resp, err)
	}
	resp.Body.Close()
	req, _ := http.NewRequest(http.MethodDelete, ts.URL+"/_fake/faults", nil)
	req.Header.Set("Content-Type", "application/json")
	if resp, err := http.DefaultClient.Do(req); err != nil || resp.StatusCode != 200 {
		t.Fatalf("clearing faults: %v %v", resp, err)
	}
	if got, _ := status(member); got != 200 {
		t.Errorf("after clearing: %d", got)
	}
	if _, err := ts.Server.InjectFault(fakeserver.Fault{Path: "/x"}); err == nil {
		t.Error("a fault that does nothing was accepted")
	}
}

func TestSeedingFromGo(t *testing.T) {
	ts := fakeserver.Start(t)
	owner, err := ts.Server.As("owner")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := owner.CreateUser("newcomer@chat.example.test", "New Comer", "moderator"); err != nil {
		t.Fatal(err)
	}
	if err := owner.CreateChannel("secret plans", fakeserver.PrivateProtected, "newcomer@chat.example.test"); err != nil {
		t.Fatal(err)
	}
	newcomer, err := ts.Server.As("newcomer@chat.example.test")
	if err != nil {
		t.Fatal(err)
	}
	first, err := newcomer.Send("secret plans", "launch", "**go** at dawn")
	if err != nil {
		t.Fatal(err)
	}
	if err := owner.React(first, "octopus"); err != nil {
		t.Fatal(err)
	}
	if _, err := owner.SendDirect("hello", "member@chat.example.test"); err != nil {
		t.Fatal(err)
	}
	if _, err := owner.CreateGroup("planners", "newcomer@chat.example.test"); err != nil {
		t.Fatal(err)
	}
	msgs, err := owner.Messages("secret plans", "launch")
	if err != nil || len(msgs) != 1 || msgs[0].ID != first || len(msgs[0].Reactions) != 1 || msgs[0].Content != "<p><strong>go</strong> at dawn</p>" {
		t.Fatalf("messages %+v, %v", msgs, err)
	}
	msgs[0].Content = "changed in the copy"
	if again, _ := owner.Messages("secret plans", "launch"); again[0].Content == "changed in the copy" {
		t.Error("Messages handed out the fake's own state")
	}
	member, _ := ts.Server.As("member")
	if _, err := member.Messages("secret plans", "launch"); err == nil {
		t.Error("a member not invited read a private channel")
	}
	// What the Go API made, the HTTP API shows.
	resp, err := ts.Client("newcomer@chat.example.test").Get(ts.URL + "/api/v1/users/me")
	if err == nil {
		resp.Body.Close()
	}
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Errorf("a user created from Go cannot use the API: %v %v", resp, err)
	}
	if _, err := ts.Server.As("nobody@chat.example.test"); err == nil {
		t.Error("As of an unknown user succeeded")
	}
}

// TestSeedingAccessors: bots, uploads and subscriptions seeded from Go, and a user's
// subscriptions, flags and the event queues read back as copies.
func TestSeedingAccessors(t *testing.T) {
	ts := fakeserver.Start(t)
	owner, _ := ts.Server.As("owner")
	member, _ := ts.Server.As("member")
	if err := owner.CreateChannel("announcements", fakeserver.Public); err != nil {
		t.Fatal(err)
	}
	if err := member.Subscribe("announcements"); err != nil {
		t.Fatal(err)
	}
	if err := member.Subscribe("no such channel"); err == nil {
		t.Error("subscribing to a channel that does not exist succeeded")
	}
	subs := member.Subscriptions()
	if !slices.ContainsFunc(subs, func(s fakeserver.Subscription) bool {
		return s.Channel == "announcements" && s.ChannelID > 0 && s.Color != ""
	}) {
		t.Errorf("the member's subscriptions %+v lack announcements", subs)
	}

	url, err := member.Upload("notes.txt", "text/plain", []byte("the notes"))
	if err != nil || !strings.HasPrefix(url, "/user_uploads/") {
		t.Fatalf("upload: %q %v", url, err)
	}
	id, err := owner.Send("announcements", "files", "see @**Max Member** and [the notes]("+url+")")
	if err != nil {
		t.Fatal(err)
	}
	flags, err := member.Flags(id)
	if err != nil || !slices.Contains(flags, "mentioned") || slices.Contains(flags, "read") {
		t.Errorf("the member's flags on a message mentioning them: %v %v", flags, err)
	}
	if flags, _ := owner.Flags(id); !slices.Contains(flags, "read") {
		t.Errorf("the sender's flags: %v", flags)
	}

	bot, err := member.CreateBot("Notes", "notes")
	if err != nil || bot.Email != "notes-bot@chat.example.test" || bot.APIKey == "" {
		t.Fatalf("bot %+v, %v", bot, err)
	}
	req, _ := http.NewRequest(http.MethodGet, ts.URL+"/api/v1/users/me", nil)
	req.SetBasicAuth(bot.Email, bot.APIKey)
	var me struct {
		UserID int  `json:"user_id"`
		IsBot  bool `json:"is_bot"`
	}
	if resp, err := http.DefaultClient.Do(req); err != nil {
		t.Fatal(err)
	} else {
		_ = json.NewDecoder(resp.Body).Decode(&me)
		resp.Body.Close()
	}
	if me.UserID != bot.ID || !me.IsBot {
		t.Errorf("the bot's credentials authenticate as %+v, want bot %d", me, bot.ID)
	}

	if len(ts.Server.Queues()) != 0 {
		t.Errorf("queues before any registration: %v", ts.Server.Queues())
	}
	resp, err := ts.Client("member").PostForm(ts.URL+"/api/v1/register", nil)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if _, err := owner.Send("announcements", "later", "news"); err != nil {
		t.Fatal(err)
	}
	queues := ts.Server.Queues()
	if len(queues) != 1 || queues[0].ID == "" || queues[0].Pending == 0 {
		t.Errorf("queues after the member registered and a message came: %+v", queues)
	}
}

// TestFixtureMessages: a fixture's messages, topics and reactions are there at start and
// after every reset, at their times, as the API shows them; a fixture whose reaction names an
// emoji the realm does not know is refused by the control API, naming the message.
func TestFixtureMessages(t *testing.T) {
	f := fixtures.Default()
	start := f.Realm.StartTime
	f.Messages = []fixtures.Message{
		{Sender: 4, Channel: "general", Topic: "plans", Content: "an **old** plan", Timestamp: start - 3600,
			Reactions: []fixtures.Reaction{{User: 1, Emoji: "octopus"}}},
		{Sender: 1, Channel: "general", Topic: "plans", Content: "a newer plan, @**Max Member**"},
		{Sender: 1, To: []int{4}, Content: "just for you"},
	}
	if err := fakeserver.CheckFixture(f); err != nil {
		t.Fatal(err)
	}
	ts := fakeserver.Start(t, fakeserver.WithFixture(f))
	check := func(when string) {
		t.Helper()
		member, _ := ts.Server.As("member")
		plans, err := member.Messages("general", "plans")
		if err != nil || len(plans) != 2 {
			t.Fatalf("%s: the topic's messages %+v, %v", when, plans, err)
		}
		if plans[0].Timestamp != start-3600 || plans[1].Timestamp != start || plans[0].Content != "<p>an <strong>old</strong> plan</p>" ||
			len(plans[0].Reactions) != 1 || plans[0].Reactions[0].EmojiName != "octopus" {
			t.Errorf("%s: messages %+v", when, plans)
		}
		if flags, _ := member.Flags(plans[1].ID); !slices.Contains(flags, "mentioned") || slices.Contains(flags, "read") {
			t.Errorf("%s: the member's flags on the mention %v", when, flags)
		}
		resp, err := ts.Client("member").Get(ts.URL + "/api/v1/users/me/1/topics")
		if err != nil {
			t.Fatal(err)
		}
		var topics struct {
			Topics []struct{ Name string } `json:"topics"`
		}
		_ = json.NewDecoder(resp.Body).Decode(&topics)
		resp.Body.Close()
		if len(topics.Topics) != 1 || topics.Topics[0].Name != "plans" {
			t.Errorf("%s: topics %+v", when, topics.Topics)
		}
	}
	check("at start")
	owner, _ := ts.Server.As("owner")
	if _, err := owner.Send("general", "later", "not in the fixture"); err != nil {
		t.Fatal(err)
	}
	ts.Server.Reset()
	check("after a reset")

	yaml := string(fixtures.DefaultYAML()) + "messages:\n  - {sender: 1, channel: general, topic: t, content: hi, reactions: [{user: 4, emoji: no_such_emoji}]}\n"
	req, _ := http.NewRequest(http.MethodPost, ts.URL+"/_fake/fixture", strings.NewReader(url.Values{"fixture": {yaml}}.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set(fakeserver.SpecHeader, "fixture messages")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	var env map[string]any
	_ = json.NewDecoder(resp.Body).Decode(&env)
	resp.Body.Close()
	if resp.StatusCode != http.StatusBadRequest || !strings.Contains(fmt.Sprint(env["msg"]), "messages.0") {
		t.Errorf("a fixture with an unknown emoji: %d %v", resp.StatusCode, env)
	}
	check("after the refused fixture")
}
