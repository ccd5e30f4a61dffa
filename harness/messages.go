package harness

import (
	"fmt"
	"net/url"
	"strconv"

	"github.com/onsi/ginkgo/v2"
	"github.com/onsi/gomega"
)

// SendToEmptyTopic sends a channel message with the empty topic (valid from
// feature level 334) as u and returns its id.
func (t *Target) SendToEmptyTopic(u User, ch Channel) int {
	ginkgo.GinkgoHelper()
	return t.send(u, url.Values{
		"type": {"stream"}, "to": {strconv.Itoa(ch.ID)}, "topic": {""}, "content": {"empty topic " + UniqueName("m")},
	}, "to channel "+strconv.Quote(ch.Name)+" with the empty topic")
}

// SendToChannel sends a channel message as u and returns its id. Failure fails the spec.
func (t *Target) SendToChannel(u User, ch Channel, topic, content string) int {
	ginkgo.GinkgoHelper()
	return t.send(u, url.Values{
		"type": {"stream"}, "to": {strconv.Itoa(ch.ID)}, "topic": {topic}, "content": {content},
	}, fmt.Sprintf("to channel %q topic %q", ch.Name, topic))
}

// SendDirect sends a direct message from the user from to the users to and returns its id.
// Failure fails the spec.
func (t *Target) SendDirect(from User, to []User, content string) int {
	ginkgo.GinkgoHelper()
	ids := userIDs(to)
	return t.send(from, url.Values{
		"type": {t.DirectMessageType()}, "to": {jsonParam(ids)}, "content": {content},
	}, fmt.Sprintf("directly to users %v", ids))
}

// send posts a message as sender and returns its id.
func (t *Target) send(sender User, params url.Values, what string) int {
	ginkgo.GinkgoHelper()
	obj, err := t.api("POST", "/messages", &sender, params)
	g.Expect(err).NotTo(gomega.HaveOccurred(), "harness: sending a message as %s %s", who(sender), what)
	id, ok := obj.int("id")
	g.Expect(ok).To(gomega.BeTrue(), "harness: POST /messages returned no integer id")
	return id
}
