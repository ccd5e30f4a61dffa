package specs

import (
	"encoding/json"
	"fmt"
	"strconv"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/gavv/httpexpect/v2"

	"github.com/chatconform/chatconform/harness"
	"github.com/chatconform/chatconform/specs/ops"
)

var _ = Describe("Conventions: paths, parameter encoding and envelopes", func() {
	var t *harness.Target
	BeforeEach(func() { t = harness.Current() })

	It("serves the operations under {base_url}/api/v1", harness.Req("CONV-01", "VER-01"), func() {
		// The client's base URL is {base_url}/api/v1.
		harness.Success(t.As(t.User(harness.Member)).GET("/realm/linkifiers").Expect())
	})

	It("takes GET parameters from the query string", harness.Req("CONV-02"), func() {
		ch := t.NewChannel(harness.Public, t.User(harness.Member))
		id := t.SendToChannel(t.User(harness.Admin), ch, harness.UniqueName("topic"), "query *string*")
		m := ops.MessageAs(t.User(harness.Member), id, "apply_markdown", false)
		m.Value("content").String().IsEqual("query *string*")
	})

	It("takes PATCH parameters form-encoded in the body", harness.Req("CONV-03"), func() {
		subject := t.Spare(harness.Member)
		name := "Renamed " + harness.UniqueName("n")
		harness.Success(t.As(t.User(harness.Admin)).PATCH("/users/{id}", subject.ID).WithFormField("full_name", name).Expect())
		harness.Success(t.As(t.User(harness.Member)).GET("/users/{id}", subject.ID).Expect()).
			Value("user").Object().Value("full_name").String().IsEqual(name)
	})

	It("takes POST parameters form-encoded in the body", harness.Req("CONV-03"), func() {
		ch := t.NewChannel(harness.Public, t.User(harness.Member))
		topic := harness.UniqueName("form")
		id := harness.Success(t.As(t.User(harness.Member)).POST("/messages").
			WithFormField("type", "stream").WithFormField("to", ch.ID).
			WithFormField("topic", topic).WithFormField("content", "sent form-encoded").Expect()).
			Value("id").Number().IsInt().Raw()
		m := ops.MessageAs(t.User(harness.Member), int(id), "apply_markdown", false)
		m.Value("subject").String().IsEqual(topic)
		m.Value("content").String().IsEqual("sent form-encoded")
	})

	It("takes array and object parameters as JSON-encoded strings", harness.Req("CONV-04"), func() {
		name := harness.UniqueName("json-param")
		subscriptions, _ := json.Marshal([]map[string]string{{"name": name}})
		// With the whitespace Python's json.dumps writes: any JSON text of the list.
		principals := fmt.Sprintf("[%d, %d]", t.User(harness.Admin).ID, t.User(harness.Member).ID)
		harness.Success(t.As(t.User(harness.Admin)).POST("/users/me/subscriptions").
			WithFormField("subscriptions", string(subscriptions)).
			WithFormField("principals", principals).Expect())
		// The member was subscribed through the JSON list: the new channel is theirs to read.
		ch := t.ChannelByName(t.User(harness.Member), name)
		t.ArchiveAtEnd(ch)
		harness.Success(ops.TopicsOf(harness.Current().User(harness.Member), ch.ID))
	})

	// A list of integers with whitespace in its JSON text, on operation 5's msg_ids: JSON
	// allows it, and clients that encode with Python's json.dumps send it.
	It("takes a JSON-encoded list of integers written with whitespace", harness.Req("CONV-04"), func() {
		ch := t.NewChannel(harness.Public, t.User(harness.Member))
		a := t.SendToChannel(t.User(harness.Member), ch, harness.UniqueName("spaced"), "spaced one")
		b := t.SendToChannel(t.User(harness.Member), ch, harness.UniqueName("spaced"), "spaced two")
		// search, the operator the document shows (channel is the real server's from level 250).
		found := harness.Success(ops.MatchesNarrow(t.User(harness.Member), "msg_ids", fmt.Sprintf("[ %d, %d ]", a, b),
			"narrow", `[{"operator": "search", "operand": "spaced"}]`)).Value("messages").Object()
		found.Keys().ContainsOnly(strconv.Itoa(a), strconv.Itoa(b))
	})

	// Three read-only operations, on the process's shared channel (which has the shared
	// message's topic, so the topic list is not empty). The realm may have no linkifier: the
	// call adds one, so that the list is typed on an element.
	successes := []struct {
		name  string
		call  func() *httpexpect.Response
		typed func(body *httpexpect.Object)
	}{
		{"get linkifiers", func() *httpexpect.Response {
			t := harness.Current()
			t.AddLinkifier(harness.UniqueName("typed")+`-(?P<id>[0-9]+)`, "https://tracker.example.test/{id}")
			return t.As(t.User(harness.Member)).GET("/realm/linkifiers").Expect()
		}, func(body *httpexpect.Object) {
			harness.EachElement(body.Value("linkifiers").Array(), "linkifiers", func(l *httpexpect.Value) {
				l.Object().Value("id").Number().IsInt()
				l.Object().Value("pattern").String()
			})
		}},
		{"get topics", func() *httpexpect.Response {
			ops.FieldsMessage.Get(harness.Current())
			return ops.TopicsOf(harness.Current().User(harness.Member), harness.Current().SharedChannel().ID)
		}, func(body *httpexpect.Object) {
			harness.EachElement(body.Value("topics").Array(), "topics", func(l *httpexpect.Value) {
				l.Object().Value("name").String()
				l.Object().Value("max_id").Number().IsInt()
			})
		}},
		{"fetch a message", func() *httpexpect.Response {
			return ops.FetchMessage(harness.Current().User(harness.Member), ops.FieldsMessage.Get(harness.Current()))
		}, func(body *httpexpect.Object) {
			// Below the level where the real server answers the whole message, it answers
			// only raw_content (its changelog).
			if !ops.Reaches(harness.Current(), "OP06-07") {
				body.Value("raw_content").String()
				return
			}
			m := body.Value("message").Object()
			m.Value("id").Number().IsInt()
			m.Value("sender_id").Number().IsInt()
			m.Value("timestamp").Number().IsInt()
			m.Value("content").String()
			m.Value("flags").Array()
		}},
	}
	for _, op := range successes {
		It("wraps a success in result=success and msg=\"\": "+op.name, harness.Req("CONV-05"), func() {
			harness.Success(op.call())
		})
		It("carries the operation's fields with their documented types: "+op.name, harness.Req("CONV-06"), func() {
			op.typed(harness.Success(op.call()))
		})
	}

	DescribeTable("wraps an error in result=error with a code string and a msg string",
		func(call func() *httpexpect.Response) {
			harness.Fails(call())
		},
		Entry("a message that does not exist", harness.Req("CONV-07", "ERR-01"), func() *httpexpect.Response {
			return ops.FetchMessage(harness.Current().User(harness.Member), harness.UnusedID)
		}),
		Entry("a channel that does not exist", harness.Req("CONV-07", "ERR-01"), func() *httpexpect.Response {
			return ops.TopicsOf(harness.Current().User(harness.Member), harness.UnusedID)
		}),
		Entry("a request without credentials", harness.Req("CONV-07", "ERR-01"), func() *httpexpect.Response {
			return harness.Current().Anonymous().GET("/realm/linkifiers").Expect()
		}),
	)
})

var _ = Describe("Versioning and limits the server publishes", func() {
	var t *harness.Target
	BeforeEach(func() { t = harness.Current() })

	// The document does not say how to read them; the real server family publishes both in
	// GET /server_settings, so a target that does not is not applicable rather than failed.
	DescribeTable("numbers",
		func(field string, check func(v *httpexpect.Value)) {
			settings := harness.Success(t.Anonymous().GET("/server_settings").Expect())
			if settings.Raw()[field] == nil {
				Skip(harness.NotApplicablePrefix + " the target does not publish " + field + " in /server_settings")
			}
			check(settings.Value(field))
		},
		Entry("its feature level with an integer", harness.Req("VER-02"), "zulip_feature_level", func(v *httpexpect.Value) {
			v.Number().IsInt().Ge(1)
		}),
		Entry("its release with major.minor", harness.Req("VER-03"), "zulip_version", func(v *httpexpect.Value) {
			Expect(v.String().Raw()).To(MatchRegexp(`^\d+\.\d+`))
		}),
	)

	DescribeTable("gives clients the limits in the registration response",
		func(field string) {
			t.StateOf(t.User(harness.Member), "realm").Value(field).Number().IsInt().Gt(0)
		},
		Entry("max_topic_length", harness.Req("LIMIT-01"), "max_topic_length"),
		Entry("max_message_length", harness.Req("LIMIT-03"), "max_message_length"),
	)
})
