package realm

import (
	"strings"
	"testing"
	"unsafe"
)

// A stored message shares its topic with the topic's newest message when both spell it the
// same, and its client name with the message stored before when it is the same; another
// spelling or another name is kept as sent. Sharing never changes what a message holds.
func TestStoredMessagesShareTopicAndClient(t *testing.T) {
	s := newIndexedRealm(t)
	send := func(topic, client string) *Message {
		t.Helper()
		// Fresh copies, as a request's decoding makes them.
		topic, client = strings.Clone(topic), strings.Clone(client)
		id, err := s.Send(1, Draft{Channel: "general", Topic: topic, TopicGiven: true, Content: "hello", Client: client})
		if err != nil {
			t.Fatal(err)
		}
		m := s.messages.get(id)
		if m.Topic != topic || m.Client != client {
			t.Fatalf("stored topic %q client %q, sent %q %q", m.Topic, m.Client, topic, client)
		}
		return m
	}
	same := func(a, b string) bool { return unsafe.StringData(a) == unsafe.StringData(b) }
	a := send("lunch", "API")
	b := send("lunch", "API")
	if !same(a.Topic, b.Topic) || !same(a.Client, b.Client) {
		t.Error("two messages of one topic from one client keep two copies")
	}
	c := send("Lunch", "curl")
	if same(c.Topic, b.Topic) || c.Topic != "Lunch" || c.Client != "curl" {
		t.Errorf("another spelling shared: %q, client %q", c.Topic, c.Client)
	}
	d := send("lunch", "curl")
	if d.Topic != "lunch" || !same(d.Client, c.Client) {
		t.Errorf("topic %q, client shared %v", d.Topic, same(d.Client, c.Client))
	}
	if same(d.Topic, b.Topic) {
		t.Error("shared with a message that is not the topic's newest")
	}
	if e := send("Lunch", "API"); same(e.Topic, c.Topic) {
		t.Error("shared with a message that is not the topic's newest")
	}
}
