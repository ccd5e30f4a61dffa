package specs

import (
	"encoding/json"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/gavv/httpexpect/v2"

	"github.com/chatconform/chatconform/harness"
)

// matchesNarrow sends GET /messages/matches_narrow as u with the message IDs and narrow terms
// (operator, operand pairs).
func (msgOps) matchesNarrow(u harness.User, ids []int, terms ...[2]any) *httpexpect.Response {
	narrow := make([]map[string]any, 0, len(terms))
	for _, term := range terms {
		narrow = append(narrow, map[string]any{"operator": term[0], "operand": term[1]})
	}
	idsJSON, _ := json.Marshal(ids)
	narrowJSON, _ := json.Marshal(narrow)
	return harness.Current().AsUser(u).GET("/messages/matches_narrow").
		WithQuery("msg_ids", string(idsJSON)).WithQuery("narrow", string(narrowJSON)).Expect()
}

var _ = Describe("Operation 5: check if messages match a narrow (GET /messages/matches_narrow)", func() {
	var (
		t      *harness.Target
		member harness.User
		ch     harness.Channel
		topic  string
		mine   int // sent by the member: "the quick brown fox"
		theirs int // sent by the owner: "a lazy dog sleeps"
		elsewh int // in another topic
		ids    []int
		keyOf  = func(id int) string { return msgIDText(id) }
	)
	BeforeEach(func() {
		t, member, ch, topic = memberChannel("narrow")
		mine = t.SendToChannel(harness.Member, ch, topic, "the quick brown fox")
		theirs = t.SendToChannel(harness.Owner, ch, topic, "a lazy dog sleeps")
		elsewh = t.SendToChannel(harness.Owner, ch, harness.UniqueName("other"), "the quick grey wolf")
		ids = []int{mine, theirs, elsewh}
	})

	keys := func(resp *httpexpect.Response) []string {
		GinkgoHelper()
		var out []string
		for key := range harness.Success(resp).Value("messages").Object().Raw() {
			out = append(out, key)
		}
		return out
	}

	DescribeTable("lists only the messages that match",
		func(terms func() [][2]any, want func() []int) {
			var expected []string
			for _, id := range want() {
				expected = append(expected, keyOf(id))
			}
			Expect(keys(msgs.matchesNarrow(member, ids, terms()...))).To(ConsistOf(expected))
		},
		Entry("channel", harness.Req("OP05-04", "OP05-01", "OP05-02"),
			func() [][2]any { return [][2]any{{"channel", ch.Name}} }, func() []int { return ids }),
		Entry("channel and topic", harness.Req("OP05-04"),
			func() [][2]any { return [][2]any{{"channel", ch.Name}, {"topic", topic}} }, func() []int { return []int{mine, theirs} }),
		// Operands are strings: the sender by the email the requester sees for them.
		Entry("sender", harness.Req("OP05-04"),
			func() [][2]any { return [][2]any{{"sender", t.APIEmail(harness.Member, member.ID)}} }, func() []int { return []int{mine} }),
		Entry("search", harness.Req("OP05-04"),
			func() [][2]any { return [][2]any{{"search", "quick"}} }, func() []int { return []int{mine, elsewh} }),
		Entry("search and topic", harness.Req("OP05-04"),
			func() [][2]any { return [][2]any{{"topic", topic}, {"search", "quick"}} }, func() []int { return []int{mine} }),
		Entry("is:dm (none here)", harness.Req("OP05-04"),
			func() [][2]any { return [][2]any{{"is", "dm"}} }, func() []int { return nil }),
		Entry("has:reaction (none here)", harness.Req("OP05-04"),
			func() [][2]any { return [][2]any{{"has", "reaction"}} }, func() []int { return nil }),
	)

	It("maps each message ID to match_content (HTML) and match_subject (the topic)", harness.Req("OP05-03"), func() {
		found := harness.Success(msgs.matchesNarrow(member, []int{mine}, [2]any{"channel", ch.Name})).Value("messages").Object()
		entry := found.Value(keyOf(mine)).Object()
		entry.Value("match_content").String().Contains("quick brown fox").Contains("<p>")
		entry.Value("match_subject").String().IsEqual(topic)
	})

	It("HTML-escapes match_subject", harness.Req("OP05-03"), func() {
		odd := harness.UniqueName("t") + ` <b> & "q"`
		id := t.SendToChannel(harness.Member, ch, odd, "escaped")
		found := harness.Success(msgs.matchesNarrow(member, []int{id}, [2]any{"topic", odd})).Value("messages").Object()
		subject := found.Value(keyOf(id)).Object().Value("match_subject").String().Raw()
		Expect(subject).To(ContainSubstring("&lt;b&gt;"))
		Expect(subject).To(ContainSubstring("&amp;"))
		Expect(subject).NotTo(ContainSubstring("<b>"))
	})

	It("wraps search matches in <span class=\"highlight\">", harness.Req("OP05-05"), func() {
		found := harness.Success(msgs.matchesNarrow(member, []int{mine}, [2]any{"search", "brown"})).Value("messages").Object()
		content := found.Value(keyOf(mine)).Object().Value("match_content").String().Raw()
		Expect(content).To(MatchRegexp(`<span class="highlight">brown</span>`))
		Expect(strings.Count(content, `class="highlight"`)).To(Equal(1), "only the word searched for is highlighted")
	})

	It("requires msg_ids", harness.Req("OP05-01"), func() {
		harness.Fails(t.As(harness.Member).GET("/messages/matches_narrow").
			WithQuery("narrow", `[{"operator":"channel","operand":"`+ch.Name+`"}]`).Expect())
	})

	It("requires narrow", harness.Req("OP05-02"), func() {
		harness.Fails(t.As(harness.Member).GET("/messages/matches_narrow").WithQuery("msg_ids", "["+keyOf(mine)+"]").Expect())
	})
})
