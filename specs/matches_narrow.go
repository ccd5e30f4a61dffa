package specs

import (
	"html"
	"maps"
	"slices"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/gavv/httpexpect/v2"

	"github.com/chatconform/chatconform/harness"
	"github.com/chatconform/chatconform/specs/ops"
)

var _ = Describe("Operation 5: check if messages match a narrow (GET /messages/matches_narrow)", func() {
	var (
		t      *harness.Target
		member harness.User
		ch     harness.Channel
		topic  string
		mine   int // sent by the member: "the quick brown fox"
		theirs int // sent by the administrator: "a lazy dog sleeps"
		elsewh int // in another topic
		ids    []int
		keyOf  = func(id int) string { return ops.MsgIDText(id) }
	)
	BeforeEach(func() {
		t, member, ch, topic = ops.MemberChannel("narrow")
		mine = t.SendToChannel(t.User(harness.Member), ch, topic, "the quick brown fox")
		theirs = t.SendToChannel(t.User(harness.Admin), ch, topic, "a lazy dog sleeps")
		elsewh = t.SendToChannel(t.User(harness.Admin), ch, harness.UniqueName("other"), "the quick grey wolf")
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

	// The document shows only the search operator; the others are not shown (channel exists on
	// the real server only from level 250), so the rule is checked with search.
	DescribeTable("lists only the messages that match",
		func(terms func() [][2]any, want func() []int) {
			var expected []string
			for _, id := range want() {
				expected = append(expected, keyOf(id))
			}
			Expect(keys(ops.MatchesNarrowTerms(member, ids, terms()...))).To(ConsistOf(expected))
		},
		Entry("search for a word of two messages", harness.Req("OP05-04"),
			func() [][2]any { return [][2]any{{"search", "quick"}} }, func() []int { return []int{mine, elsewh} }),
		Entry("search for a word of one message", harness.Req("OP05-04"),
			func() [][2]any { return [][2]any{{"search", "lazy"}} }, func() []int { return []int{theirs} }),
		Entry("search for a word of none", harness.Req("OP05-04"),
			func() [][2]any { return [][2]any{{"search", "zebra"}} }, func() []int { return nil }),
	)

	// Operators the document does not show: a server may not know them (or know them under
	// another name before some level), so what it answers is information. Whatever it answers
	// lists no message that was not asked about.
	It("records what other narrow operators match, as information", harness.Req("OP05-04"), func() {
		others := []struct {
			name  string
			terms [][2]any
			want  []int
		}{
			{"channel", [][2]any{{"channel", ch.Name}}, ids},
			{"channel and topic", [][2]any{{"channel", ch.Name}, {"topic", topic}}, []int{mine, theirs}},
			{"sender", [][2]any{{"sender", t.APIEmail(t.User(harness.Member), member.ID)}}, []int{mine}},
			{"is:dm", [][2]any{{"is", "dm"}}, nil},
			{"has:reaction", [][2]any{{"has", "reaction"}}, nil},
		}
		var asked []string
		for _, id := range ids {
			asked = append(asked, keyOf(id))
		}
		for _, o := range others {
			raw := ops.MatchesNarrowTerms(member, ids, o.terms...).JSON().Object().Raw()
			found, ok := raw["messages"].(map[string]any)
			if raw["result"] != "success" || !ok {
				harness.Info("narrow operator "+o.name, "not accepted: %v", raw["msg"])
				continue
			}
			got := slices.Sorted(maps.Keys(found))
			Expect(asked).To(ContainElements(got), "narrow %s lists only messages asked about", o.name)
			var want []string
			for _, id := range o.want {
				want = append(want, keyOf(id))
			}
			slices.Sort(want)
			harness.Info("narrow operator "+o.name, "matched %v; the usual meaning matches %v", got, want)
		}
	})

	It("maps each message ID to match_content (HTML) and match_subject (the topic)", harness.Req("OP05-03"), func() {
		id := t.SendToChannel(t.User(harness.Member), ch, topic, "escaped: 1 < 2 & 3 in the quick message")
		found := harness.Success(ops.MatchesNarrowTerms(member, []int{id}, [2]any{"search", "quick"})).Value("messages").Object()
		entry := found.Value(keyOf(id)).Object()
		// HTML, whatever its markup and character references: the text is there, with < and &
		// escaped.
		content := entry.Value("match_content").String().Raw()
		Expect(ops.HTMLText(content)).To(ContainSubstring("escaped: 1 < 2 & 3 in the quick message"))
		Expect(content).NotTo(ContainSubstring("1 < 2"), "match_content is HTML: the text's < is escaped")
		Expect(ops.AmpersandsEscaped(content)).To(BeTrue(), "match_content is HTML: the text's & is escaped: %s", content)
		entry.Value("match_subject").String().IsEqual(topic)
	})

	It("HTML-escapes match_subject", harness.Req("OP05-03"), func() {
		odd := harness.UniqueName("t") + ` <b> & "q"`
		id := t.SendToChannel(t.User(harness.Member), ch, odd, "escaped")
		found := harness.Success(ops.MatchesNarrowTerms(member, []int{id}, [2]any{"search", "escaped"})).Value("messages").Object()
		subject := found.Value(keyOf(id)).Object().Value("match_subject").String().Raw()
		// The topic is text in HTML: no element of it, and every character of it there, in
		// whichever character reference the server writes it.
		Expect(subject).To(ops.EqualHTML(html.EscapeString(odd)), "match_subject is the topic, HTML-escaped")
		Expect(subject).NotTo(ContainSubstring("<b>"))
		Expect(ops.AmpersandsEscaped(subject)).To(BeTrue(), "the topic's & is escaped: %s", subject)
	})

	It("wraps search matches in <span class=\"highlight\">", harness.Req("OP05-05"), func() {
		found := harness.Success(ops.MatchesNarrowTerms(member, []int{mine}, [2]any{"search", "brown"})).Value("messages").Object()
		content := found.Value(keyOf(mine)).Object().Value("match_content").String().Raw()
		highlighted := ops.HTMLElementsWith(content, "", "class", "highlight")
		Expect(highlighted).To(HaveLen(1), "only the word searched for is highlighted: %s", content)
		Expect(highlighted[0].Tag).To(Equal("span"))
		Expect(highlighted[0].Text).To(Equal("brown"))
	})

	It("requires msg_ids", harness.Req("OP05-01"), func() {
		harness.Fails(ops.MatchesNarrow(t.User(harness.Member), "narrow", `[{"operator":"search","operand":"quick"}]`))
	})

	It("requires narrow", harness.Req("OP05-02"), func() {
		harness.Fails(ops.MatchesNarrow(t.User(harness.Member), "msg_ids", "["+keyOf(mine)+"]"))
	})
})
