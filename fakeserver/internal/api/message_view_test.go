package api_test

import (
	"reflect"
	"testing"

	"github.com/chatconform/chatconform/fakeserver"
)

// TestActorMessagesAreWholeCopies: Actor.Messages gives every documented field of
// fakeserver.Message, as the reader sees the message.
func TestActorMessagesAreWholeCopies(t *testing.T) {
	ts := fakeserver.Start(t)
	owner, _ := ts.Server.As("owner")
	member, _ := ts.Server.As("member")
	if err := owner.CreateChannel("copies", fakeserver.Public, "member@chat.example.test"); err != nil {
		t.Fatal(err)
	}
	id, err := owner.Send("copies", "fields", "hello @**Max Member**")
	if err != nil {
		t.Fatal(err)
	}
	if err := member.React(id, "octopus"); err != nil {
		t.Fatal(err)
	}
	var channelID int
	for _, s := range member.Subscriptions() {
		if s.Channel == "copies" {
			channelID = s.ChannelID
		}
	}
	msgs, err := member.Messages("copies", "fields")
	if err != nil || len(msgs) != 1 {
		t.Fatalf("messages %+v, %v", msgs, err)
	}
	want := fakeserver.Message{ID: id, ChannelID: channelID, Channel: "copies", Topic: "fields",
		Content:   `<p>hello <span class="user-mention" data-user-id="4">@Max Member</span></p>`,
		Timestamp: ts.Server.Clock().Unix(), SenderID: 1, SenderEmail: "owner@chat.example.test", SenderFullName: "Olivia Owner",
		Flags:     []string{"mentioned"},
		Reactions: []fakeserver.Reaction{{EmojiName: "octopus", EmojiCode: "1f419", ReactionType: "unicode_emoji", UserID: 4}}}
	if got := msgs[0]; channelID == 0 || !reflect.DeepEqual(got, want) {
		t.Errorf("the member's copy:\n got %+v\nwant %+v", got, want)
	}
}
