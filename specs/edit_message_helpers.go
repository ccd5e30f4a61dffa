package specs

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/gavv/httpexpect/v2"

	"github.com/chatconform/chatconform/harness"
)

// msgOps gathers the requests the message editing, moving, muting, narrow and read-marking
// specs share. They are methods of one value (msgs) so their names cannot clash with the
// helpers of other spec files.
type msgOps struct{}

var msgs msgOps

// edit sends PATCH /messages/{id} as u with the given parameters.
func (o msgOps) edit(u harness.User, id int, kv ...any) *httpexpect.Response {
	return sendForm(u, "PATCH", "/messages/{id}", id, kv...)
}

// wholeMessageLevel is the level from which the real server's GET /messages/{id} answers the
// whole message (its changelog; only raw_content before).
const wholeMessageLevel = 120

// fetch returns the message object as u sees it: from GET /messages/{id}, or below the level
// where that answers the whole message, from GET /messages narrowed to the message, so that a
// spec about the message's fields holds on an older server too.
func (msgOps) fetch(u harness.User, id int, query ...any) *httpexpect.Object {
	GinkgoHelper()
	t := harness.Current()
	if t.FeatureLevel >= wholeMessageLevel {
		req := withQuery(t.As(u).GET("/messages/{id}", id), query...)
		return harness.Success(req.Expect()).Value("message").Object()
	}
	narrow := fmt.Sprintf(`[{"operator":"id","operand":"%d"}]`, id) // a string: integers from 194
	req := withQuery(t.As(u).GET("/messages"), append([]any{"anchor", id, "num_before", 0, "num_after", 0, "narrow", narrow}, query...)...)
	found := harness.Success(req.Expect()).Value("messages").Array()
	found.Length().IsEqual(1)
	return found.Value(0).Object()
}

// raw is the stored Markdown of a message as u reads it.
func (msgOps) raw(u harness.User, id int) string {
	GinkgoHelper()
	return harness.Success(harness.Current().As(u).GET("/messages/{id}", id).Expect()).Value("raw_content").String().Raw()
}

// flagsOf returns u's flags for a message.
func (o msgOps) flagsOf(u harness.User, id int) []string {
	GinkgoHelper()
	var flags []string
	for _, v := range o.fetch(u, id).Value("flags").Array().Iter() {
		flags = append(flags, v.String().Raw())
	}
	return flags
}

// where returns the channel ID and topic (as sent, empty topic allowed) of a message.
func (o msgOps) where(u harness.User, id int) (int, string) {
	GinkgoHelper()
	m := o.fetch(u, id, "allow_empty_topic_name", true)
	return int(m.Value("stream_id").Number().Raw()), m.Value("subject").String().Raw()
}

// topicIDs lists the IDs of the messages u can see in a channel's topic, oldest first, with
// GET /messages and a channel + topic narrow.
func (msgOps) topicIDs(u harness.User, ch harness.Channel, topic string) []int {
	GinkgoHelper()
	narrow, _ := json.Marshal([]map[string]any{
		{"operator": harness.Current().ChannelOperator(), "operand": ch.Name}, {"operator": "topic", "operand": topic},
	})
	obj := harness.Success(harness.Current().As(u).GET("/messages").
		WithQuery("anchor", "newest").WithQuery("num_before", 1000).WithQuery("num_after", 0).
		WithQuery("narrow", string(narrow)).WithQuery("allow_empty_topic_name", true).Expect())
	ids := harness.IntsOf(obj.Value("messages").Array(), "id")
	slices.Sort(ids)
	return ids
}

// topicNamesOf lists the names of a channel's topics as u sees them (empty topic allowed).
func (msgOps) topicNamesOf(u harness.User, ch harness.Channel) []string {
	GinkgoHelper()
	resp := harness.Current().As(u).GET("/users/me/{id}/topics", ch.ID).WithQuery("allow_empty_topic_name", true).Expect()
	return topicNames(resp)
}

// sha256Hex is the SHA-256 of text as lower-case hex, the form of prev_content_sha256.
func (msgOps) sha256Hex(text string) string {
	sum := sha256.Sum256([]byte(text))
	return hex.EncodeToString(sum[:])
}

// requireTopics makes topics required in the realm for the rest of the spec: topics_policy
// where the target has it, else the older mandatory_topics. The spec must be Serial.
func (msgOps) requireTopics(t *harness.Target) {
	GinkgoHelper()
	state := t.StateOf(t.User(harness.Admin), "realm").Raw()
	if _, ok := state["realm_topics_policy"]; ok {
		t.ChangeRealmSetting("topics_policy", "disable_empty_topic")
		return
	}
	t.ChangeRealmSetting("mandatory_topics", true)
}

// hideEditHistory turns off viewing edit history in the realm for the rest of the spec:
// message_edit_history_visibility_policy where the target has it, else allow_edit_history.
func (msgOps) hideEditHistory(t *harness.Target) {
	GinkgoHelper()
	state := t.StateOf(t.User(harness.Admin), "realm").Raw()
	if _, ok := state["realm_message_edit_history_visibility_policy"]; ok {
		t.ChangeRealmSetting("message_edit_history_visibility_policy", "none")
		return
	}
	t.ChangeRealmSetting("allow_edit_history", false)
}

// expectTopicOf asserts the topic of each message as u sees it.
func (o msgOps) expectTopicOf(u harness.User, topic string, ids ...int) {
	GinkgoHelper()
	for _, id := range ids {
		_, got := o.where(u, id)
		Expect(got).To(Equal(topic), "topic of message %d", id)
	}
}

// succeeded tells whether a response is a success envelope, for rules the document lets a
// server meet either by refusing or by accepting within bounds.
func (msgOps) succeeded(r *httpexpect.Response) bool {
	ok, _, _ := envelope(r)
	return ok
}

// msgIDText formats a message ID for JSON-encoded parameters.
func msgIDText(n int) string { return strconv.Itoa(n) }
