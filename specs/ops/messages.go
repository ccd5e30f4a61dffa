package ops

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"sync"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/gavv/httpexpect/v2"

	"github.com/chatconform/chatconform/harness"
)

// EditMessage sends PATCH /messages/{id} (operation 1) as u with the given parameters.
func EditMessage(u harness.User, id int, kv ...any) *httpexpect.Response {
	return SendForm(u, "PATCH", "/messages/{id}", id, kv...)
}

// FetchMessage sends GET /messages/{id} (operation 6) as u, with query parameters as name,
// value pairs: the one way the specs send it, for those that look at the whole response (an
// error, raw_content); MessageAs reads the message of a success.
func FetchMessage(u harness.User, id int, query ...any) *httpexpect.Response {
	return GetAs(u, "/messages/{id}", id, query...)
}

// FetchMessages sends GET /messages as u, with query parameters as name, value pairs.
func FetchMessages(u harness.User, query ...any) *httpexpect.Response {
	return WithQuery(harness.Current().As(u).GET("/messages"), query...).Expect()
}

// MessageAs returns the message object as u sees it: from GET /messages/{id}, or below the
// level where that answers the whole message, from GET /messages narrowed to the message, so
// that a spec about the message's fields holds on an older server too.
func MessageAs(u harness.User, id int, query ...any) *httpexpect.Object {
	GinkgoHelper()
	if Reaches(harness.Current(), "OP06-07") {
		return harness.Success(FetchMessage(u, id, query...)).Value("message").Object()
	}
	narrow := fmt.Sprintf(`[{"operator":"id","operand":"%d"}]`, id) // a string: integers from 194
	found := harness.Success(FetchMessages(u, append([]any{"anchor", id, "num_before", 0, "num_after", 0, "narrow", narrow}, query...)...)).Value("messages").Array()
	found.Length().IsEqual(1)
	return found.Value(0).Object()
}

// RawContent is the stored Markdown of a message as u reads it.
func RawContent(u harness.User, id int) string {
	GinkgoHelper()
	return harness.Success(FetchMessage(u, id)).Value("raw_content").String().Raw()
}

// FlagsOf returns u's flags for a message.
func FlagsOf(u harness.User, id int) []string {
	GinkgoHelper()
	var flags []string
	for _, v := range MessageAs(u, id).Value("flags").Array().Iter() {
		flags = append(flags, v.String().Raw())
	}
	return flags
}

// Where returns the channel ID and topic (as sent, empty topic allowed) of a message.
func Where(u harness.User, id int) (int, string) {
	GinkgoHelper()
	m := MessageAs(u, id, "allow_empty_topic_name", true)
	return int(m.Value("stream_id").Number().Raw()), m.Value("subject").String().Raw()
}

// TopicIDs lists the IDs of the messages u can see in a channel's topic, oldest first, with
// GET /messages and a channel + topic narrow.
func TopicIDs(u harness.User, ch harness.Channel, topic string) []int {
	GinkgoHelper()
	narrow, _ := json.Marshal([]map[string]any{
		{"operator": harness.Current().ChannelOperator(), "operand": ch.Name}, {"operator": "topic", "operand": topic},
	})
	obj := harness.Success(FetchMessages(u, "anchor", "newest", "num_before", 1000, "num_after", 0,
		"narrow", string(narrow), "allow_empty_topic_name", true))
	ids := harness.IntsOf(obj.Value("messages").Array(), "id")
	slices.Sort(ids)
	return ids
}

// TopicNamesOf lists the names of a channel's topics as u sees them (empty topic allowed).
func TopicNamesOf(u harness.User, ch harness.Channel) []string {
	GinkgoHelper()
	return TopicNames(TopicsOf(u, ch.ID, "allow_empty_topic_name", true))
}

// SHA256Hex is the SHA-256 of text as lower-case hex, the form of prev_content_sha256.
func SHA256Hex(text string) string {
	sum := sha256.Sum256([]byte(text))
	return hex.EncodeToString(sum[:])
}

// RequireTopics makes topics required in the realm for the rest of the spec: topics_policy
// where the target has it, else the older mandatory_topics. The spec must be Serial.
func RequireTopics(t *harness.Target) {
	GinkgoHelper()
	state := t.StateOf(t.User(harness.Admin), "realm").Raw()
	if _, ok := state["realm_topics_policy"]; ok {
		t.ChangeRealmSetting("topics_policy", "disable_empty_topic")
		return
	}
	t.ChangeRealmSetting("mandatory_topics", true)
}

// HideEditHistory turns off viewing edit history in the realm for the rest of the spec:
// message_edit_history_visibility_policy where the target has it, else allow_edit_history.
func HideEditHistory(t *harness.Target) {
	GinkgoHelper()
	state := t.StateOf(t.User(harness.Admin), "realm").Raw()
	if _, ok := state["realm_message_edit_history_visibility_policy"]; ok {
		t.ChangeRealmSetting("message_edit_history_visibility_policy", "none")
		return
	}
	t.ChangeRealmSetting("allow_edit_history", false)
}

// ExpectTopicOf asserts the topic of each message as u sees it.
func ExpectTopicOf(u harness.User, topic string, ids ...int) {
	GinkgoHelper()
	for _, id := range ids {
		_, got := Where(u, id)
		Expect(got).To(Equal(topic), "topic of message %d", id)
	}
}

// Succeeded tells whether a response is a success envelope, for rules the document lets a
// server meet either by refusing or by accepting within bounds.
func Succeeded(r *httpexpect.Response) bool {
	return Envelope(r).Success
}

// MsgIDText formats a message ID for JSON-encoded parameters.
func MsgIDText(n int) string { return strconv.Itoa(n) }

// DeleteTopic sends POST /streams/{id}/delete_topic as u with form fields as name, value
// pairs (topic_name among them, unless the spec leaves it out).
func DeleteTopic(u harness.User, ch harness.Channel, kv ...any) *httpexpect.Response {
	return SendForm(u, "POST", "/streams/{id}/delete_topic", ch.ID, kv...)
}

// DeleteMessage sends DELETE /messages/{id} as u.
func DeleteMessage(u harness.User, id int) *httpexpect.Response {
	return harness.Current().As(u).DELETE("/messages/{id}", id).Expect()
}

// MarkAllAsRead sends POST /mark_all_as_read as u, with form fields (none documented) as
// name, value pairs.
func MarkAllAsRead(u harness.User, kv ...any) *httpexpect.Response {
	return SendForm(u, "POST", "/mark_all_as_read", nil, kv...)
}

// SendMessage sends POST /messages as u with form fields as name, value pairs, for specs
// about the answer; the harness's SendToChannel and SendDirect send what a spec only needs.
func SendMessage(u harness.User, kv ...any) *httpexpect.Response {
	return SendForm(u, "POST", "/messages", nil, kv...)
}

// React sends POST /messages/{id}/reactions as u with form fields as name, value pairs.
func React(u harness.User, id int, kv ...any) *httpexpect.Response {
	return SendForm(u, "POST", "/messages/{id}/reactions", id, kv...)
}

// AddFlag sends POST /messages/flags as u, adding flag to the messages.
func AddFlag(u harness.User, flag string, ids ...int) *httpexpect.Response {
	return SendForm(u, "POST", "/messages/flags", nil, "messages", JSONText(ids), "op", "add", "flag", flag)
}

// MessageGone reports whether u can no longer fetch the message. A fetch that does not succeed must
// be the error envelope (result, code, msg): a crash or an empty reply proves no deletion.
func MessageGone(u harness.User, id int) bool {
	GinkgoHelper()
	r := FetchMessage(u, id)
	if Succeeded(r) {
		return false
	}
	harness.Fails(r)
	return true
}

// EditTyping sends POST /messages/{id}/typing as u with the given parameters.
func EditTyping(u harness.User, id int, kv ...any) *httpexpect.Response {
	return SendForm(u, "POST", "/messages/{id}/typing", id, kv...)
}

// MatchesNarrow sends GET /messages/matches_narrow (operation 5) as u with query parameters
// as name, value pairs.
func MatchesNarrow(u harness.User, query ...any) *httpexpect.Response {
	return WithQuery(harness.Current().As(u).GET("/messages/matches_narrow"), query...).Expect()
}

// MatchesNarrowTerms sends GET /messages/matches_narrow as u with the message IDs and narrow
// terms (operator, operand pairs).
func MatchesNarrowTerms(u harness.User, ids []int, terms ...[2]any) *httpexpect.Response {
	narrow := make([]map[string]any, 0, len(terms))
	for _, term := range terms {
		narrow = append(narrow, map[string]any{"operator": term[0], "operand": term[1]})
	}
	return MatchesNarrow(u, "msg_ids", JSONText(ids), "narrow", JSONText(narrow))
}

// MuteTopic sends the topic muting request as u with the given parameters.
func MuteTopic(u harness.User, kv ...any) *httpexpect.Response {
	return SendForm(u, "PATCH", "/users/me/subscriptions/muted_topics", nil, kv...)
}

// MutedTopics lists the topics u has muted in a channel, from the registration state:
// user_topics (visibility_policy 1 is muted), or the older muted_topics pairs.
func MutedTopics(u harness.User, ch harness.Channel) []string {
	GinkgoHelper()
	state := harness.Current().StateOf(u, "user_topic", "muted_topics").Raw()
	muted := []string{}
	if list, ok := state["user_topics"].([]any); ok {
		for _, item := range list {
			ut, _ := item.(map[string]any)
			if ut["stream_id"] == float64(ch.ID) && ut["visibility_policy"] == float64(1) {
				muted = append(muted, ut["topic_name"].(string))
			}
		}
		return muted
	}
	list, _ := state["muted_topics"].([]any)
	for _, item := range list {
		pair, _ := item.([]any)
		if len(pair) >= 2 && pair[0] == ch.Name {
			muted = append(muted, pair[1].(string))
		}
	}
	return muted
}

// TopicNames lists the names of a successful topics response, in order.
func TopicNames(resp *httpexpect.Response) []string {
	topics := harness.Success(resp).Value("topics").Array()
	return harness.StringsOf(topics, "name")
}

// UntilComplete repeats a batch operation (delete topic, mark all as read) while the server
// answers that it stopped early, complete = false (below level 211 result
// partially_completed), as the document tells clients to: batch sizes are the server's
// choice. It allows two requests per message the spec made and a few more (the requester
// may hold others), and fails the spec when the last still answers complete = false.
func UntilComplete(what string, messages int, send func() *httpexpect.Response) {
	GinkgoHelper()
	completes := !Reaches(harness.Current(), "VER-29") // partially_completed, until complete replaced it
	limit := 2*messages + 5
	for range limit {
		resp := send()
		if !completes && resp.JSON().Object().Value("result").String().Raw() == "partially_completed" {
			Partial(resp)
			continue
		}
		body := harness.Success(resp)
		if !completes || body.Value("complete").Boolean().Raw() {
			return
		}
	}
	Fail(fmt.Sprintf("%s still answers complete = false after %d requests for %d messages", what, limit, messages))
}

// Partial checks the envelope that replaced complete = false at level 211: result
// partially_completed and a code string.
func Partial(resp *httpexpect.Response) {
	GinkgoHelper()
	body := resp.JSON().Object()
	body.Value("result").String().IsEqual("partially_completed")
	body.Value("code").String().NotEmpty()
}

// TopicsOf sends GET /users/me/{stream_id}/topics as u; query holds name, value pairs.
func TopicsOf(u harness.User, channelID int, query ...any) *httpexpect.Response {
	return GetAs(u, "/users/me/{id}/topics", channelID, query...)
}

// SharedMessage is a channel message each process sends once to the shared channel, for the
// specs that only read it, one requirement each (docs/footprint.md).
type SharedMessage struct {
	sync.Once
	ID, Other int
	// Sender sent both and reads them: the first member of the crowd, subscribed to the
	// shared channel (at levels without GET /messages/{id} a message is read through a
	// narrow, which finds only the reader's own messages), and no rule of these specs is
	// the owner's.
	Sender  harness.User
	Channel harness.Channel
	Topic   string
}

// FieldsMessage is the shared message of operation 6's field specs; FieldsSource its Markdown.
var FieldsMessage SharedMessage

const FieldsSource = "Fetch **bold** check"

// Get sends the message (and another after it) on first use in the process; it returns its id.
func (f *SharedMessage) Get(t *harness.Target) int {
	GinkgoHelper()
	f.Do(func() {
		f.Channel = t.SharedChannel()
		f.Topic = harness.UniqueName("fields")
		f.Sender = t.Crowd(1)[0]
		f.ID = t.SendToChannel(f.Sender, f.Channel, f.Topic, FieldsSource)
		f.Other = t.SendToChannel(f.Sender, f.Channel, f.Topic, "another message")
	})
	return f.ID
}
