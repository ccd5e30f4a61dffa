package specs

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/gavv/httpexpect/v2"

	"github.com/chatconform/chatconform/harness"
	"github.com/chatconform/chatconform/specs/ops"
)

// unsupportedParameter is the parameter no operation of the document takes.
const unsupportedParameter = "chatconform_unsupported"

// ignoredParameterCall sends one operation with its supported parameters and the extra ones
// given, as name, value pairs; every call sets up what it needs afresh, so that the request
// with and the one without the extra parameter both succeed.
type ignoredParameterCall func(extra ...any) *httpexpect.Response

// Every operation of the document whose view parses its parameters on the real server (a
// parameterless one too: it lists everything sent), which is what lists the ones it does not
// take. Two operations are not here: the real server's views of get linkifiers (17) and
// delete an attachment (18) read no parameter at all, so their replies never list one and the
// document's "may" leaves that to the server.
var _ = Describe("ignored_parameters_unsupported on every operation that parses its parameters", func() {
	var t *harness.Target
	BeforeEach(func() { t = harness.Current() })

	// need names a requirement whose level the operation's route or form needs ("" none);
	// supported is a parameter the call sends that the operation takes ("" for an operation
	// without parameters).
	DescribeTable("succeeds despite a parameter the endpoint does not support, lists exactly it, and no supported one",
		func(need, supported string, call ignoredParameterCall) {
			if need != "" {
				ops.NeedLevelOf(t, need)
			}
			body := harness.Success(call(unsupportedParameter, "1"))
			ignored := body.Value("ignored_parameters_unsupported").Array().Raw()
			Expect(ignored).To(HaveLen(1), "the one unsupported parameter sent, and nothing else, is listed: %v", ignored)
			Expect(ignored).To(ContainElement(WithTransform(ops.JSONText, ContainSubstring(`"`+unsupportedParameter+`"`))),
				"an element names the unsupported parameter (the elements' shape is not shown)")

			plain := harness.Success(call())
			if list, present := plain.Raw()["ignored_parameters_unsupported"]; present {
				plain.Value("ignored_parameters_unsupported").Array()
				if supported != "" {
					Expect(list).NotTo(ContainElement(WithTransform(ops.JSONText, ContainSubstring(`"`+supported+`"`))),
						"a supported parameter is not listed")
				}
			}
		},
		Entry("edit a message (operation 1)", harness.Req("CONV-09", "CONV-10", "VER-04"), "", "content", ignoredParameterCall(func(extra ...any) *httpexpect.Response {
			_, member, ch, topic := ops.MemberChannel("params")
			id := t.SendToChannel(member, ch, topic, "before")
			return ops.EditMessage(member, id, append([]any{"content", harness.UniqueName("after")}, extra...)...)
		})),
		Entry("update a user by email (operation 2)", harness.Req("CONV-09", "CONV-10", "VER-04"), "OP02-01", "full_name", ignoredParameterCall(func(extra ...any) *httpexpect.Response {
			subject := t.Spare(harness.Member)
			return ops.UpdateByEmail(t.User(harness.Admin), subject.Email, append([]any{"full_name", "Renamed " + harness.UniqueName("n")}, extra...)...)
		})),
		Entry("topic muting (operation 3)", harness.Req("CONV-09", "CONV-10", "VER-04"), "", "op", ignoredParameterCall(func(extra ...any) *httpexpect.Response {
			_, member, ch, topic := ops.MemberChannel("params")
			return ops.MuteTopic(member, append([]any{"stream_id", ch.ID, "topic", topic, "op", "add"}, extra...)...)
		})),
		Entry("update your presence (operation 4)", harness.Req("CONV-09", "CONV-10", "VER-04"), "", "status", ignoredParameterCall(func(extra ...any) *httpexpect.Response {
			return ops.UpdatePresence(t.User(harness.Member), append([]any{"status", "active"}, extra...)...)
		})),
		Entry("check if messages match a narrow (operation 5)", harness.Req("CONV-09", "CONV-10", "VER-04"), "", "msg_ids", ignoredParameterCall(func(extra ...any) *httpexpect.Response {
			id := ops.FieldsMessage.Get(t)
			return ops.MatchesNarrow(t.User(harness.Member), append([]any{"msg_ids", "[" + ops.MsgIDText(id) + "]", "narrow", "[]"}, extra...)...)
		})),
		Entry("fetch a message (operation 6)", harness.Req("CONV-09", "CONV-10", "VER-04"), "", "apply_markdown", ignoredParameterCall(func(extra ...any) *httpexpect.Response {
			id := t.SendToChannel(t.User(harness.Admin), t.SharedChannel(), harness.UniqueName("params"), "x")
			return ops.FetchMessage(t.User(harness.Member), id, append([]any{"apply_markdown", false}, extra...)...)
		})),
		Entry("register an E2EE push device (operation 7)", Serial, harness.Req("CONV-09", "CONV-10", "VER-04"), "OP07-01", "device_id", ignoredParameterCall(func(extra ...any) *httpexpect.Response {
			t.UsePushService()
			user := t.Spare(harness.Member)
			more := pushFields{}
			for i := 0; i+1 < len(extra); i += 2 {
				more[extra[i].(string)] = extra[i+1]
			}
			return registerPush(user, newDevice(user), keyFields(), tokenFields("fcm", harness.UniqueName("token")), more)
		})),
		Entry("delete a topic (operation 8)", harness.Req("CONV-09", "CONV-10", "VER-04"), "", "topic_name", ignoredParameterCall(func(extra ...any) *httpexpect.Response {
			admin := t.User(harness.Admin)
			ch := t.NewChannel(harness.Public, admin)
			topic := harness.UniqueName("params")
			t.SendToChannel(admin, ch, topic, "to be deleted")
			return ops.DeleteTopic(admin, ch, append([]any{"topic_name", topic}, extra...)...)
		})),
		Entry("fetch an API key with a JWT (operation 9)", Serial, harness.Req("CONV-09", "CONV-10", "VER-04"), "OP09-01", "token", ignoredParameterCall(func(extra ...any) *httpexpect.Response {
			user := t.Spare(harness.Member)
			return ops.JwtFetch(append([]any{"token", t.NeedJWT().TokenFor(user.Email)}, extra...)...)
		})),
		Entry("update a subscription setting (operation 10)", harness.Req("CONV-09", "CONV-10", "VER-04"), "", "property", ignoredParameterCall(func(extra ...any) *httpexpect.Response {
			_, member, ch, _ := ops.MemberChannel("params")
			return ops.SetSubscription(member, ch.ID, append([]any{"property", "pin_to_top", "value", true}, extra...)...)
		})),
		Entry("create a user (operation 11)", harness.Req("CONV-09", "CONV-10", "VER-04"), "", "full_name", ignoredParameterCall(func(extra ...any) *httpexpect.Response {
			ops.OwnerNeeds("can_create_users")
			a := ops.FreshAccount()
			req := ops.WithForm(t.As(t.User(harness.Owner)).POST("/users"),
				append([]any{"email", a.Email, "password", a.Password, "full_name", a.FullName}, extra...)...)
			resp := req.Expect()
			ops.DeactivateCreatedAtEnd(resp, a.Email)
			return resp
		})),
		Entry("get topics in a channel (operation 12)", harness.Req("CONV-09", "CONV-10", "VER-04"), "", "allow_empty_topic_name", ignoredParameterCall(func(extra ...any) *httpexpect.Response {
			return ops.TopicsOf(t.User(harness.Member), t.SharedChannel().ID, append([]any{"allow_empty_topic_name", false}, extra...)...)
		})),
		Entry("set typing status for message editing (operation 13)", harness.Req("CONV-09", "CONV-10", "VER-04"), "OP13-01", "op", ignoredParameterCall(func(extra ...any) *httpexpect.Response {
			_, member, ch, topic := ops.MemberChannel("params")
			id := t.SendToChannel(member, ch, topic, "being edited")
			return ops.EditTyping(member, id, append([]any{"op", "start"}, extra...)...)
		})),
		Entry("add a code playground (operation 14)", harness.Req("CONV-09", "CONV-10", "VER-04"), "OP14-01", "url_template", ignoredParameterCall(func(extra ...any) *httpexpect.Response {
			return addPlayground(harness.UniqueName("playground"), "Python", playgroundTemplate, extra...)
		})),
		Entry("create a message reminder (operation 15)", harness.Req("CONV-09", "CONV-10", "VER-04"), "OP15-01", "message_id", ignoredParameterCall(func(extra ...any) *httpexpect.Response {
			_, member, ch, topic := ops.MemberChannel("params")
			id := t.SendToChannel(member, ch, topic, "remind me")
			return createReminder(member, id, t.Now().Add(reminderLead), "", extra...)
		})),
		Entry("get user group membership status (operation 16)", harness.Req("CONV-09", "CONV-10", "VER-04"), "OP16-01", "direct_member_only", ignoredParameterCall(func(extra ...any) *httpexpect.Response {
			member := t.Spare(harness.Member)
			group := t.NewGroup([]int{member.ID})
			return ops.GroupMembership(group, member.ID, append([]any{"direct_member_only", true}, extra...)...)
		})),
		Entry("mark all messages as read (operation 19)", harness.Req("CONV-09", "CONV-10", "VER-04"), "OP19-01", "", ignoredParameterCall(func(extra ...any) *httpexpect.Response {
			return ops.MarkAllAsRead(t.Spare(harness.Member), extra...)
		})),
		Entry("remove a bot's stored data (operation 20)", harness.Req("CONV-09", "CONV-10", "VER-04"), "OP20-01", "keys", ignoredParameterCall(func(extra ...any) *httpexpect.Response {
			// The run's bot, with a key no other spec uses: a bot is not kept across runs.
			bot, key := t.User(harness.Bot), harness.UniqueName("params")
			storeForBot(bot, map[string]string{key: "1"})
			return ops.WithForm(t.As(bot).DELETE("/bot_storage"), append([]any{"keys", `["` + key + `"]`}, extra...)...).Expect()
		})),
		Entry("create a video call (operation 21)", Serial, harness.Req("CONV-09", "CONV-10", "VER-04"), "", "", ignoredParameterCall(func(extra ...any) *httpexpect.Response {
			t.UseVideoCalls()
			user := t.Spare(harness.Member)
			t.SetVCallToken(user, true)
			return ops.WithForm(t.As(user).POST("/calls/vcall/create"), extra...).Expect()
		})),
	)
})
