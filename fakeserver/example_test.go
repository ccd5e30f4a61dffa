package fakeserver_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"testing"
	"time"

	"github.com/chatconform/chatconform/fakeserver"
	"github.com/chatconform/chatconform/fixtures"
)

// Example is a client's test against the fake, in a few lines: a fake on a loopback port, an
// HTTP client that authenticates as a fixture user, and the answer of the real API's shape.
func Example() {
	ts := fakeserver.NewTestServer()
	defer ts.Close()
	resp, err := ts.Client("member").Get(ts.URL + "/api/v1/users/me")
	if err != nil {
		panic(err)
	}
	defer resp.Body.Close()
	var me struct {
		Result   string `json:"result"`
		Email    string `json:"email"`
		FullName string `json:"full_name"`
	}
	_ = json.NewDecoder(resp.Body).Decode(&me)
	fmt.Println(me.Result, me.Email, me.FullName)
	// Output: success member@chat.example.test Max Member
}

// ExampleStart is how a test function starts the fake: Start closes it when the test ends,
// and fails the test, saying why, on options that cannot start one.
func ExampleStart() {
	testClient := func(t *testing.T) {
		ts := fakeserver.Start(t, fakeserver.WithFeatureLevel(300))
		resp, err := ts.Client("member").Get(ts.URL + "/api/v1/users/me")
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if err := ts.Server.Verify(fakeserver.JournalFilter{Method: "GET", Path: "/api/v1/users/me"}, 1); err != nil {
			t.Error(err)
		}
	}
	_ = testClient // in a _test.go file: func TestClient(t *testing.T) { … }
}

// ExampleNewTestServer starts the fake on a realm of one's own, read from YAML, as a client's
// test would with a fixture file (fixtures.LoadFile).
func ExampleNewTestServer() {
	f, err := fixtures.Parse([]byte(`
realm: {name: Tiny, feature_level: 400}
users:
  - {id: 1, email: boss@tiny.test, full_name: The Boss, role: owner, api_key: BossKey0000000000000000000000001}
  - {id: 2, email: ann@tiny.test, full_name: Ann, role: member, api_key: AnnKey00000000000000000000000002}
channels:
  - {name: general, subscribers: [1, 2]}
`))
	if err != nil {
		panic(err)
	}
	ts := fakeserver.NewTestServer(fakeserver.WithFixture(f))
	defer ts.Close()
	resp, err := http.Get(ts.URL + "/api/v1/server_settings")
	if err != nil {
		panic(err)
	}
	defer resp.Body.Close()
	var settings struct {
		RealmName string `json:"realm_name"`
		Level     int    `json:"zulip_feature_level"`
	}
	_ = json.NewDecoder(resp.Body).Decode(&settings)
	fmt.Println(settings.RealmName, settings.Level)
	// Output: Tiny 400
}

// ExampleTestServer_Client sends a message as one user (a role, or any active user's email)
// an hour into the virtual day, and reads it back as another.
func ExampleTestServer_Client() {
	ts := fakeserver.NewTestServer()
	defer ts.Close()
	_ = ts.Server.SetClock(ts.Server.Clock().Add(time.Hour))
	owner := ts.Client("owner@chat.example.test")
	resp, err := owner.PostForm(ts.URL+"/api/v1/messages", url.Values{"type": {"stream"}, "to": {"general"}, "topic": {"news"}, "content": {"Hi all"}})
	if err != nil {
		panic(err)
	}
	resp.Body.Close()
	member, _ := ts.Server.As("member")
	news, _ := member.Messages("general", "news")
	fmt.Println(resp.StatusCode, news[0].SenderFullName, time.Unix(news[0].Timestamp, 0).UTC().Format(time.RFC3339))
	// Output: 200 Olivia Owner 2026-01-01T01:00:00Z
}

// ExampleServer_Verify asserts how a client used the API. When the expected request did not
// come, the error lists what did.
func ExampleServer_Verify() {
	ts := fakeserver.NewTestServer()
	defer ts.Close()
	resp, err := ts.Client("member").PostForm(ts.URL+"/api/v1/messages",
		url.Values{"type": {"stream"}, "to": {"general"}, "topic": {"lunch"}, "content": {"Pizza?"}})
	if err != nil {
		panic(err)
	}
	resp.Body.Close()
	fmt.Println(ts.Server.Verify(fakeserver.JournalFilter{Method: "POST", Path: "/api/v1/messages"}, 1))
	fmt.Println(ts.Server.Verify(fakeserver.JournalFilter{Method: "PATCH", Path: "/api/v1/messages/*"}, 1))
	// Output:
	// <nil>
	// fakeserver: 0 requests match {method PATCH, path /api/v1/messages/*}, want 1; none matched; arrived (1):
	// 	POST /api/v1/messages as member@chat.example.test -> 200 {content="Pizza?", to="general", topic="lunch", type="stream"}
}

// ExampleServer_Reset shows what a reset keeps: the configuration and feature level the fake
// was started with, not a change made since.
func ExampleServer_Reset() {
	ts := fakeserver.NewTestServer(fakeserver.WithConfig(fakeserver.Config{PushConfigured: true}), fakeserver.WithFeatureLevel(300))
	defer ts.Close()
	cfg := ts.Server.Config()
	cfg.PushConfigured = false
	ts.Server.SetConfig(cfg)
	owner, _ := ts.Server.As("owner")
	_, _ = owner.Send("general", "before", "gone after the reset")

	ts.Server.Reset()
	msgs, _ := owner.Messages("general", "before")
	fmt.Println(ts.Server.Config().PushConfigured, len(msgs), featureLevel(ts.URL))
	// Output: true 0 300
}

// featureLevel reads the level a server announces.
func featureLevel(base string) int {
	resp, err := http.Get(base + "/api/v1/server_settings")
	if err != nil {
		panic(err)
	}
	defer resp.Body.Close()
	var settings struct {
		Level int `json:"zulip_feature_level"`
	}
	_ = json.NewDecoder(resp.Body).Decode(&settings)
	return settings.Level
}

// ExampleParseSettings starts the fake with settings in the control API's words, as the
// binary's -config flag does; a reset returns to them.
func ExampleParseSettings() {
	start, err := fakeserver.ParseSettings([]byte(`{"video_calls_configured": true, "feature_level": 250}`))
	if err != nil {
		panic(err)
	}
	ts := fakeserver.NewTestServer(start)
	defer ts.Close()
	fmt.Println(ts.Server.Config().VideoCallsConfigured, featureLevel(ts.URL))
	_, err = fakeserver.ParseSettings([]byte(`{"video_calls": true}`))
	fmt.Println(err)
	// Output:
	// true 250
	// invalid settings: Unknown setting: video_calls
}

// ExampleServer_As seeds a realm from Go: a channel, a message in it, and reads it back.
func ExampleServer_As() {
	srv := fakeserver.New()
	owner, _ := srv.As("owner")
	_ = owner.CreateChannel("releases", fakeserver.Public, "member@chat.example.test")
	_, _ = owner.Send("releases", "v2", "Version **2** is out")
	member, _ := srv.As("member")
	msgs, _ := member.Messages("releases", "v2")
	m := msgs[0]
	fmt.Println(len(msgs), m.Channel, m.Topic, m.SenderFullName, m.Content)
	// Output: 1 releases v2 Olivia Owner <p>Version <strong>2</strong> is out</p>
}

// ExampleActor_Flags reads a user's flags on a message that mentions them, and the event
// queue a client registered.
func ExampleActor_Flags() {
	srv := fakeserver.New()
	owner, _ := srv.As("owner")
	id, _ := owner.Send("general", "hello", "welcome, @**Max Member**")
	member, _ := srv.As("member")
	flags, _ := member.Flags(id)
	fmt.Println(flags, len(srv.Queues()))
	// Output: [mentioned] 0
}

// ExampleServer_InjectFault makes the member's next fetch of their own user fail once, as a
// client's retry path would meet it, and then verifies through the journal that both
// requests came.
func ExampleServer_InjectFault() {
	ts := fakeserver.NewTestServer()
	defer ts.Close()
	_, _ = ts.Server.InjectFault(fakeserver.Fault{Method: "GET", Path: "/api/v1/users/me", User: "member@chat.example.test",
		Status: 503, Code: "SERVICE_UNAVAILABLE", Msg: "try again", Times: 1})
	for range 2 {
		resp, err := ts.Client("member").Get(ts.URL + "/api/v1/users/me")
		if err != nil {
			panic(err)
		}
		resp.Body.Close()
		fmt.Println(resp.StatusCode)
	}
	fmt.Println(ts.Server.Verify(fakeserver.JournalFilter{Path: "/api/v1/users/me", User: "member@chat.example.test"}, 2))
	// Output:
	// 503
	// 200
	// <nil>
}

// ExampleCheckFixture starts the fake on a realm that already holds a conversation.
func ExampleCheckFixture() {
	f := fixtures.Default()
	f.Messages = []fixtures.Message{
		{Sender: 4, Channel: "general", Topic: "lunch", Content: "Pizza?"},
		{Sender: 1, Channel: "general", Topic: "lunch", Content: "Yes!", Reactions: []fixtures.Reaction{{User: 4, Emoji: "tada"}}},
	}
	if err := fakeserver.CheckFixture(f); err != nil {
		panic(err)
	}
	srv := fakeserver.New(fakeserver.WithFixture(f))
	member, _ := srv.As("member")
	lunch, _ := member.Messages("general", "lunch")
	fmt.Println(len(lunch), lunch[1].Content, lunch[1].Reactions[0].EmojiName)
	// Output: 2 <p>Yes!</p> tada
}
