package realm

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// TestMessageViewAppendJSON: a view's AppendJSON writes exactly encoding/json's bytes (HTML
// escaping off), every field set and every field left zero, and strings of every byte.
func TestMessageViewAppendJSON(t *testing.T) {
	var every strings.Builder
	for b := range 256 {
		every.WriteByte(byte(b))
	}
	odd := every.String() + "naïve \u2028 \u2029 😀 \x7f a\xffb\xc0 <p>&amp;</p>"
	links := []TopicLink{{Text: "#1", URL: "https://x.test/1?a=1&b=<2>"}, {Text: odd, URL: ""}}
	empty, nilLinks := []TopicLink{}, []TopicLink(nil)
	one, text := 1, "match <b>x</b>"
	full := MessageView{
		ID: 12, Type: "stream", StreamID: 3, Subject: odd, TopicLinks: &links, SubjectLinks: &empty,
		Content: "<p>hi</p>\n" + odd, ContentType: "text/html", Timestamp: 1700000000, SenderID: 9,
		SenderEmail: "a@b.test", SenderFullName: odd, SenderRealmStr: "zulip", AvatarURL: "https://x/a.png?s=1&t=<2>",
		Client: odd, DisplayRecipient: []Recipient{{ID: 1, Email: "e", FullName: odd}}, RecipientID: 4,
		IsMeMessage: true, Flags: flagList{"read", "mentioned", odd},
		Reactions:   reactionList{{EmojiName: "smile", EmojiCode: "1f604", ReactionType: UnicodeEmoji, UserID: 3, User: map[string]any{"id": 3}}},
		Submessages: []SubmessageView{{ID: 1, MessageID: 12, SenderID: 9, MsgType: "widget", Content: `{"a":1}`}},
		EditHistory: []EditEntryView{{UserID: &one, Timestamp: 5, PrevContent: &text, Topic: &text},
			{Timestamp: 6, PrevContent: &odd, PrevRenderedContent: &odd, PrevStream: 2, Stream: 3, PrevTopic: &odd, Topic: &text, PrevSubject: &odd}},
		LastEditTimestamp: 7, LastMovedTimestamp: 8, MatchContent: &text, MatchSubject: &text,
	}
	// A field added to MessageView must be set here, and written by AppendJSON.
	for i, f := range reflect.VisibleFields(reflect.TypeFor[MessageView]()) {
		if reflect.ValueOf(full).Field(i).IsZero() {
			t.Errorf("the full view leaves %s zero", f.Name)
		}
	}
	views := map[string]MessageView{
		"full": full,
		"zero": {},
		"usual": {ID: 1, Type: "stream", StreamID: 1, Subject: "topic 7", TopicLinks: &empty, Content: "<p>x</p>",
			ContentType: "text/html", AvatarURL: nil, DisplayRecipient: "general", Flags: flagList{"read"},
			Reactions: reactionList{}, Submessages: []SubmessageView{}, EditHistory: []EditEntryView{}},
		"nil lists": {TopicLinks: &nilLinks, SubjectLinks: &nilLinks, Flags: flagList{}, DisplayRecipient: 7},
	}
	for name, v := range views {
		var want bytes.Buffer
		enc := json.NewEncoder(&want)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(v); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		got, err := v.AppendJSON([]byte("prefix"))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !bytes.Equal(got, append([]byte("prefix"), bytes.TrimSuffix(want.Bytes(), []byte("\n"))...)) {
			t.Errorf("%s:\n got  %s\n want prefix%s", name, got, want.Bytes())
		}
	}
}
