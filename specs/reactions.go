package specs

import (
	"regexp"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/gavv/httpexpect/v2"

	"github.com/chatconform/chatconform/harness"
	"github.com/chatconform/chatconform/specs/ops"
)

// unicodeEmojiCode is the documented form of a unicode_emoji code: dash-separated hex of the
// codepoints.
var unicodeEmojiCode = regexp.MustCompile(`^[0-9a-f]+(-[0-9a-f]+)*$`)

var _ = Describe("Reactions of a fetched message (POST /messages/{message_id}/reactions, GET /messages/{message_id})", func() {
	var (
		t  *harness.Target
		ch harness.Channel
		id int
	)
	BeforeEach(func() {
		t = harness.Current()
		ch = t.NewChannel(harness.Public, t.User(harness.Member), t.User(harness.Moderator), t.User(harness.Admin))
		id = t.SendToChannel(t.User(harness.Admin), ch, harness.UniqueName("reactions"), "react to me")
	})

	react := func(role harness.Role, emoji string) {
		GinkgoHelper()
		harness.Success(ops.React(t.User(role), id, "emoji_name", emoji))
	}

	It("lists reactions oldest to newest", harness.Req("MSG-28"), func() {
		react(harness.Member, "octopus")
		react(harness.Moderator, "heart")
		react(harness.Admin, "octopus")
		reactions := ops.MessageAs(t.User(harness.Member), id).Value("reactions").Array()
		Expect(harness.IntsOf(reactions, "user_id")).To(Equal([]int{
			t.User(harness.Member).ID, t.User(harness.Moderator).ID, t.User(harness.Admin).ID,
		}))
		Expect(harness.StringsOf(reactions, "emoji_name")).To(Equal([]string{"octopus", "heart", "octopus"}))
	})

	DescribeTable("describes a reaction",
		func(check func(r *httpexpect.Object)) {
			react(harness.Member, "tada")
			reactions := ops.MessageAs(t.User(harness.Admin), id).Value("reactions").Array()
			reactions.Length().IsEqual(1)
			check(reactions.Value(0).Object())
		},
		Entry("with emoji_name, emoji_code, reaction_type and the reacting user's user_id", harness.Req("MSG-44"), func(r *httpexpect.Object) {
			r.Value("emoji_name").String().IsEqual("tada")
			r.Value("emoji_code").String()
			r.Value("reaction_type").String()
			r.Value("user_id").Number().IsInt().IsEqual(t.User(harness.Member).ID)
		}),
		Entry("with a documented reaction_type, unicode_emoji for a Unicode emoji", harness.Req("MSG-45"), func(r *httpexpect.Object) {
			Expect(r.Value("reaction_type").String().Raw()).To(BeElementOf("unicode_emoji", "realm_emoji", "zulip_extra_emoji"))
			r.Value("reaction_type").String().IsEqual("unicode_emoji")
		}),
		// A reaction keeps its namespace: the zulip emoji is an extra emoji, not a Unicode one.
		Entry("with reaction_type zulip_extra_emoji for the zulip emoji", harness.Req("MSG-45"), func(*httpexpect.Object) {
			harness.Success(ops.React(t.User(harness.Admin), id,
				"emoji_name", "zulip", "emoji_code", "zulip", "reaction_type", "zulip_extra_emoji"))
			extra := ops.MessageAs(t.User(harness.Admin), id).Value("reactions").Array().Value(1).Object()
			extra.Value("emoji_name").String().IsEqual("zulip")
			extra.Value("reaction_type").String().IsEqual("zulip_extra_emoji")
		}),
		// The codepoints of the emoji reacted with (tada is U+1F389), not merely of the form.
		Entry("with the codepoints of a Unicode emoji as emoji_code", harness.Req("MSG-46"), func(r *httpexpect.Object) {
			Expect(r.Value("emoji_code").String().Raw()).To(MatchRegexp(unicodeEmojiCode.String()))
			r.Value("emoji_code").String().IsEqual("1f389")
		}),
	)
})
