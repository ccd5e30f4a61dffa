package specs

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/gavv/httpexpect/v2"

	"github.com/chatconform/chatconform/harness"
	"github.com/chatconform/chatconform/specs/ops"
)

// visibilityExtremes are the settings a spec changes a user's email_address_visibility from,
// so that each value is reached both ways: widened from nobody, narrowed from everyone.
var visibilityExtremes = []int{harness.VisibleToNobody, harness.VisibleToEveryone}

var _ = Describe("Email visibility: the email each role sees for another user", func() {
	// The user's own email_address_visibility, and delivery_email's rules, exist from 163 on the
	// real server (a realm setting before).

	// delivery_email (RES-06) is where the real address is shown to exactly the viewers the
	// visibility admits (AUTH-18): each assertion is one viewer's delivery_email.
	DescribeTable("shows the real address as delivery_email to the viewers the email_address_visibility admits, and null to the others",
		func(visibility int) {
			t := harness.Current()
			subject := t.Spare(harness.Member)
			viewers := roleViewers(t)
			for _, from := range visibilityExtremes {
				t.SetEmailVisibility(subject, from)
				t.SetEmailVisibility(subject, visibility)
				for _, viewerRole := range harness.Roles {
					viewer := viewers[viewerRole]
					what := fmt.Sprintf("as the %s seeing visibility %d, set after %d", viewerRole, visibility, from)
					delivery := ops.UserAs(viewer, subject.ID).Raw()["delivery_email"]
					var listDelivery any = "absent"
					for _, m := range harness.Success(t.As(viewer).GET("/users").Expect()).Value("members").Array().Iter() {
						if entry := m.Object().Raw(); entry["user_id"] == float64(subject.ID) {
							listDelivery = entry["delivery_email"]
						}
					}
					if !ops.CanSeeRealEmail(viewerRole, visibility) {
						Expect(delivery).To(BeNil(), "%s: delivery_email is null", what)
						Expect(listDelivery).To(BeNil(), "%s: delivery_email is null in the user list", what)
						continue
					}
					Expect(delivery).To(BeAssignableToTypeOf(""), what)
					Expect(strings.EqualFold(delivery.(string), subject.Email)).To(BeTrue(), "%s: delivery_email is the real email", what)
					Expect(listDelivery).To(Equal(delivery), "%s: the user list gives the same delivery_email", what)
				}
			}
		},
		Entry("everyone", harness.Req("AUTH-18", "RES-06"), harness.VisibleToEveryone),
		Entry("members", harness.Req("AUTH-18", "RES-06"), harness.VisibleToMembers),
		Entry("administrators", harness.Req("AUTH-18", "RES-06"), harness.VisibleToAdmins),
		Entry("moderators", harness.Req("AUTH-18", "RES-06"), harness.VisibleToModerators),
		Entry("nobody", harness.Req("RES-06"), harness.VisibleToNobody),
	)

	// email (RES-08) is one API email wherever the user appears, the dummy address for the
	// viewers the visibility excludes (AUTH-19).
	DescribeTable("gives one API email in users, user lists, messages and presence, the dummy address where the email_address_visibility excludes the viewer",
		func(visibility int) {
			t := harness.Current()
			subject := t.Spare(harness.Member)
			viewers := roleViewers(t)
			ch := t.NewChannel(harness.Public, viewers[harness.Owner], t.User(harness.Admin), t.User(harness.Moderator), t.User(harness.Member), t.User(harness.Guest), t.User(harness.Bot))
			t.Subscribe(ch, subject)
			channelMessage := t.SendToChannel(subject, ch, harness.UniqueName("visibility"), "who am I?")
			// A group direct message from the owner to the subject and every other role.
			var everyone []harness.User
			for _, r := range harness.Roles[1:] {
				everyone = append(everyone, viewers[r])
			}
			directMessage := t.SendDirect(viewers[harness.Owner], append(everyone, subject), "to all of us")
			harness.Success(ops.UpdatePresence(subject, "status", "active"))

			for _, from := range visibilityExtremes {
				t.SetEmailVisibility(subject, from)
				t.SetEmailVisibility(subject, visibility)
				checkEmailsSeen(viewers, subject, visibility, from, channelMessage, directMessage)
			}
		},
		Entry("everyone", harness.Req("RES-08"), harness.VisibleToEveryone),
		Entry("members", harness.Req("AUTH-19", "RES-08"), harness.VisibleToMembers),
		Entry("administrators", harness.Req("AUTH-19", "RES-08"), harness.VisibleToAdmins),
		Entry("moderators", harness.Req("AUTH-19", "RES-08"), harness.VisibleToModerators),
		Entry("nobody", harness.Req("AUTH-19", "RES-08"), harness.VisibleToNobody),
	)

	// The rule holds on every surface that carries the address: the events of a change of
	// address and the register state, not only the user object.
	It("keeps a changed real address out of the events and register state of a viewer the visibility excludes", harness.Req("RES-06"), func() {
		t := harness.Current()
		ops.NeedLevelOf(t, "OP02-12") // the address is changed through operation 2
		ops.OwnerNeeds("can_change_user_emails")
		// A new user: the change moves the address a spare is found by.
		subject := t.NewUser(harness.Member)
		t.SetEmailVisibility(subject, harness.VisibleToAdmins)
		member := t.User(harness.Member)
		events := t.Listen(member, "realm_user")
		moved := ops.FreshAccount().Email
		harness.Success(ops.UpdateByEmail(t.User(harness.Owner), subject.Email, "new_email", moved))
		shows := ContainSubstring(strings.ToLower(moved))
		for _, ev := range events.Collect(5 * time.Second) {
			encoded, _ := json.Marshal(ev)
			Expect(strings.ToLower(string(encoded))).NotTo(shows, "a realm_user event shows the member the real address")
		}
		entry := t.StateOf(member, "realm_user").Value("realm_users").Array().Find(func(_ int, u *httpexpect.Value) bool {
			return u.Object().Raw()["user_id"] == float64(subject.ID)
		}).Object().Raw()
		Expect(entry["delivery_email"]).To(BeNil(), "the member's register state shows delivery_email")
	})

	// Always: also when the bot's own email_address_visibility would hide a human's address
	// from every other viewer (a server may refuse the setting to a bot; the rule holds either way).
	// The new bot is made while the realm's default for new users hides their address from
	// everyone (where the server has those defaults): a server that gives bots a human's
	// visibility hides it then. Serial: the default would reach users other specs create.
	It("always shows a bot's real email as its delivery_email", Serial, harness.Req("RES-07"), func() {
		t := harness.Current()
		hideByDefault(t)
		// A bot of its own, as its settings change: bots are not kept as spares.
		for _, bot := range []harness.User{t.User(harness.Bot), t.NewUser(harness.Bot)} {
			if bot.ID != t.User(harness.Bot).ID {
				resp := ops.UpdateSettings(bot, "email_address_visibility", harness.VisibleToNobody)
				harness.Info("a bot's email_address_visibility", "nobody: %s", map[bool]string{true: "set", false: "refused"}[ops.Succeeded(resp)])
			}
			for _, viewer := range harness.Roles {
				ops.UserAs(t.User(viewer), bot.ID).Value("delivery_email").String().IsEqualFold(bot.Email)
			}
		}
	})

	// Presence events carry the user's email to clients that are not slim_presence: the API
	// email, never the real one where the visibility excludes the viewer. The subject comes
	// online, so that there is an event about them to look at.
	It("keeps the real address out of the presence events of a viewer the visibility excludes", Serial, harness.Req("RES-08", "AUTH-19"), func() {
		t := harness.Current()
		subject := ops.QuietMember(t)
		t.SetEmailVisibility(subject, harness.VisibleToNobody)
		events := t.Listen(t.User(harness.Member), "presence")
		harness.Success(ops.UpdatePresence(subject, "status", "active"))
		for _, ev := range presenceEventsAbout(t, events, subject.ID) {
			Expect(strings.ToLower(ops.JSONText(ev))).NotTo(ContainSubstring(strings.ToLower(subject.Email)), "a presence event shows the member the real address")
		}
	})
})

// hideByDefault sets the realm's email_address_visibility for new users to nobody until the
// spec ends, where the server has that default (PATCH /realm/user_settings_defaults); it
// records whether it could.
func hideByDefault(t *harness.Target) {
	GinkgoHelper()
	admin := t.User(harness.Admin)
	defaults, _ := t.StateOf(admin, "realm_user_settings_defaults").Raw()["realm_user_settings_defaults"].(map[string]any)
	was, ok := defaults["email_address_visibility"].(float64)
	if !ok {
		harness.Info("the realm's default email visibility", "register gives no realm_user_settings_defaults.email_address_visibility: the new bot is made under the server's own default")
		return
	}
	set := func(v int) *httpexpect.Response {
		return ops.SendForm(admin, "PATCH", "/realm/user_settings_defaults", nil, "email_address_visibility", v)
	}
	harness.Success(set(harness.VisibleToNobody))
	DeferCleanup(func() { harness.Success(set(int(was))) })
}

// roleViewers is a viewer of each role. The owner's view is any owner's: one made for the spec,
// so that the configured owner's requests are left to what only it may do.
func roleViewers(t *harness.Target) map[harness.Role]harness.User {
	GinkgoHelper()
	viewers := map[harness.Role]harness.User{harness.Owner: t.NewOwner()}
	for _, r := range harness.Roles[1:] {
		viewers[r] = t.User(r)
	}
	return viewers
}

// checkEmailsSeen checks, as each role, the API email of subject wherever it appears (the user,
// the user list, the register state, the two messages and presence): one address everywhere,
// the dummy one where visibility, set after from, excludes the viewer.
func checkEmailsSeen(viewers map[harness.Role]harness.User, subject harness.User, visibility, from, channelMessage, directMessage int) {
	GinkgoHelper()
	for _, viewerRole := range harness.Roles {
		viewer := viewers[viewerRole]
		seen := ops.EmailsSeenBy(viewer, subject, channelMessage, directMessage)
		what := fmt.Sprintf("as the %s seeing visibility %d, set after %d", viewerRole, visibility, from)
		Expect([]string{seen.ListEmail, seen.RegisterEmail, seen.SenderEmail, seen.RecipientEmail}).To(HaveEach(seen.Email), what)
		seesReal := ops.CanSeeRealEmail(viewerRole, visibility)
		if viewerRole != harness.Bot {
			// The legacy format is keyed by "user email": the API email, or the real one
			// where the viewer may see it.
			key := Equal(seen.Email)
			if seesReal {
				key = Or(key, WithTransform(strings.ToLower, Equal(strings.ToLower(subject.Email))))
			}
			Expect(seen.PresenceKeys).To(ContainElement(key), "%s: the legacy presence format has an entry keyed by the user's email", what)
		}
		if seesReal {
			continue
		}
		ops.ExpectDummyEmail(seen.Email, subject)
		for _, key := range seen.PresenceKeys {
			Expect(strings.EqualFold(key, subject.Email)).To(BeFalse(), "%s: presence shows the real email", what)
		}
	}
}
