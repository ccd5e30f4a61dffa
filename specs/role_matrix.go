package specs

import (
	"encoding/json"
	"fmt"
	"slices"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/gavv/httpexpect/v2"

	"github.com/chatconform/chatconform/harness"
	"github.com/chatconform/chatconform/specs/ops"
)

// The role matrix: every role-restricted operation of the document (Authentication rule 4)
// against every role of the cast, each cell asserting exactly the documented outcome — the
// operation succeeds and takes effect, or it is refused (with the documented code where the
// document gives one) and changes nothing. Adding an operation is adding a restrictedOp.

// restrictedOp is one role-restricted operation.
type restrictedOp struct {
	name string
	reqs []string
	// reqsOf, where set, names a role's cell's requirements instead of reqs: where the
	// document gives a rule of its own to some of the roles.
	reqsOf func(role harness.Role) []string
	// allowed are the roles the document lets through (for the realm setting of setup).
	allowed []harness.Role
	// refusal is the documented error code for the others; "" where the document shows none.
	refusal string
	// serial marks operations whose setup changes a realm-wide setting.
	serial bool
	// ownerPermission is a special permission the document requires of the owner beyond
	// the role (the owner is the suite's setting); an owner without it makes the owner's
	// cell need setup rather than fail. "" for none.
	ownerPermission string
	// setup runs before the attempt (realm settings); nil for none. Feature levels come
	// from the catalog entries of reqs (every spec gates on its requirements).
	setup func(t *harness.Target)
	// actor is who attempts the operation for a role; nil means the cast member of the role.
	actor func(t *harness.Target, role harness.Role) harness.User
	// attempt sends the request as u and returns the response and a check of whether the
	// operation took effect (nil when there is nothing to look at for this actor).
	attempt func(t *harness.Target, u harness.User) (*httpexpect.Response, func() bool)
}

var (
	matrixAdmins     = []harness.Role{harness.Owner, harness.Admin}
	matrixModerators = []harness.Role{harness.Owner, harness.Admin, harness.Moderator}
	matrixOthers     = []harness.Role{harness.Admin, harness.Moderator, harness.Member, harness.Guest, harness.Bot}
)

// matrixSetup is what matrixChannel made: a public channel every role is subscribed to, a
// fresh topic and the administrator's message in it.
type matrixSetup struct {
	ch      harness.Channel
	topic   string
	message int
}

// matrixChannel makes a public channel every role is subscribed to, with one message of the
// administrator's in a fresh topic.
func matrixChannel(t *harness.Target) matrixSetup {
	GinkgoHelper()
	ch := t.NewChannel(harness.Public, t.UsersOf(matrixOthers...)...)
	topic := harness.UniqueName("matrix")
	return matrixSetup{ch: ch, topic: topic, message: t.SendToChannel(t.User(harness.Admin), ch, topic, "role matrix")}
}

// matrixGroupSetting points a realm permission group setting at the moderators (and those
// above) for the spec, so the cast splits into members and non-members of the group.
func matrixGroupSetting(name string) func(t *harness.Target) {
	return func(t *harness.Target) {
		t.ChangeRealmGroupSetting(name, t.SystemGroupID("role:moderators"))
	}
}

var restrictedOps = []restrictedOp{
	{
		name: "delete topic (operation 8)", reqs: []string{"AUTH-09"}, allowed: matrixAdmins, refusal: "UNAUTHORIZED_PRINCIPAL",
		attempt: func(t *harness.Target, u harness.User) (*httpexpect.Response, func() bool) {
			m := matrixChannel(t)
			ch, topic := m.ch, m.topic
			resp := t.As(u).POST("/streams/{id}/delete_topic", ch.ID).WithFormField("topic_name", topic).Expect()
			return resp, func() bool {
				return !slices.Contains(ops.TopicNames(ops.TopicsOf(t.User(harness.Admin), ch.ID)), topic)
			}
		},
	},
	{
		name: "update a user by email (operation 2)", reqs: []string{"AUTH-10", "OP02-01"}, allowed: matrixAdmins,
		attempt: func(t *harness.Target, u harness.User) (*httpexpect.Response, func() bool) {
			subject, name := t.Spare(harness.Member), "Matrix "+harness.UniqueName("n")
			resp := ops.UpdateByEmail(u, subject.Email, "full_name", name)
			return resp, func() bool {
				return ops.UserAs(t.User(harness.Admin), subject.ID).Value("full_name").String().Raw() == name
			}
		},
	},
	{
		// Any administrator other than the owner is a new one, which holds no special
		// permission.
		name: "create a user (operation 11)", allowed: []harness.Role{harness.Owner},
		reqsOf: func(role harness.Role) []string {
			switch role {
			case harness.Owner:
				return []string{"AUTH-11"}
			case harness.Admin:
				return []string{"AUTH-11", "OP11-02"} // an administrator without can_create_users
			}
			return []string{"AUTH-11", "OP11-01"} // not an administrator
		},
		ownerPermission: "can_create_users",
		actor: func(t *harness.Target, role harness.Role) harness.User {
			if role == harness.Admin {
				return t.Spare(harness.Admin) // made by the harness, never given a permission
			}
			return t.User(role)
		},
		attempt: func(t *harness.Target, u harness.User) (*httpexpect.Response, func() bool) {
			a := ops.FreshAccount()
			resp := ops.CreateUser(u, a)
			return resp, func() bool { return ops.AccountExists(a.Email) }
		},
	},
	{
		name: "add the owner role (operation 2)", reqs: []string{"AUTH-12", "OP02-06"}, allowed: []harness.Role{harness.Owner},
		attempt: func(t *harness.Target, u harness.User) (*httpexpect.Response, func() bool) {
			subject := t.Spare(harness.Member)
			resp := ops.UpdateByEmail(u, subject.Email, "role", 100)
			isOwner := func() bool { return ops.RoleCodeOf(subject) == 100 }
			DeferCleanup(func() {
				if isOwner() {
					harness.Success(ops.UpdateByEmail(t.User(harness.Owner), subject.Email, "role", 400))
				}
			})
			return resp, isOwner
		},
	},
	{
		name: "remove the owner role (operation 2)", reqs: []string{"AUTH-12", "OP02-06"}, allowed: []harness.Role{harness.Owner},
		attempt: func(t *harness.Target, u harness.User) (*httpexpect.Response, func() bool) {
			subject := t.NewOwner()
			resp := ops.UpdateByEmail(u, subject.Email, "role", 200)
			return resp, func() bool { return ops.RoleCodeOf(subject) != 100 }
		},
	},
	{
		name: "new_email (operation 2)", reqs: []string{"AUTH-13", "OP02-12"}, allowed: []harness.Role{harness.Owner},
		ownerPermission: "can_change_user_emails",
		attempt: func(t *harness.Target, u harness.User) (*httpexpect.Response, func() bool) {
			// A new user where the change is to be made (it moves the address a spare is found
			// by), a spare where it is to be refused.
			subject, moved := t.Spare(harness.Member), ops.FreshAccount().Email
			if u.Role == harness.Owner {
				subject = t.NewUser(harness.Member)
			}
			resp := ops.UpdateByEmail(u, subject.Email, "new_email", moved)
			return resp, func() bool {
				// An administrator reads: every email visibility treats one as an owner.
				email, _ := ops.UserAs(t.User(harness.Admin), subject.ID).Value("delivery_email").Raw().(string)
				return email == moved
			}
		},
	},
	{
		name: "remove a bot's stored data (operation 20)", reqs: []string{"AUTH-14"}, allowed: []harness.Role{harness.Bot}, refusal: "PERMISSION_DENIED",
		// A bot of its own, so that no other spec's storage is touched.
		actor: func(t *harness.Target, role harness.Role) harness.User {
			if role == harness.Bot {
				return t.NewUser(harness.Bot) // bots are not kept as spares: no API hands a key back at every level
			}
			return t.User(role)
		},
		attempt: func(t *harness.Target, u harness.User) (*httpexpect.Response, func() bool) {
			if u.Role != harness.Bot {
				return t.As(u).DELETE("/bot_storage").Expect(), nil
			}
			stored, _ := json.Marshal(map[string]string{"matrix": "value"})
			harness.Success(t.As(u).PUT("/bot_storage").WithFormField("storage", string(stored)).Expect())
			resp := t.As(u).DELETE("/bot_storage").Expect()
			return resp, func() bool {
				return len(harness.Success(t.As(u).GET("/bot_storage").Expect()).Value("storage").Object().Raw()) == 0
			}
		},
	},
	{
		name: "resolve a topic (operation 1) with can_resolve_topics_group = moderators", reqs: []string{"AUTH-15"},
		allowed: matrixModerators, serial: true,
		setup: matrixGroupSetting("can_resolve_topics_group"),
		attempt: func(t *harness.Target, u harness.User) (*httpexpect.Response, func() bool) {
			m := matrixChannel(t)
			topic, id := m.topic, m.message
			resp := ops.EditMessage(u, id, "topic", "✔ "+topic, "propagate_mode", "change_all")
			return resp, func() bool { _, now := ops.Where(t.User(harness.Admin), id); return now == "✔ "+topic }
		},
	},
	{
		name: "move messages between topics (operation 1) with can_move_messages_between_topics_group = moderators", reqs: []string{"AUTH-16"},
		allowed: matrixModerators, serial: true,
		setup: matrixGroupSetting("can_move_messages_between_topics_group"),
		attempt: func(t *harness.Target, u harness.User) (*httpexpect.Response, func() bool) {
			id := matrixChannel(t).message
			moved := harness.UniqueName("moved")
			resp := ops.EditMessage(u, id, "topic", moved)
			return resp, func() bool { _, now := ops.Where(t.User(harness.Admin), id); return now == moved }
		},
	},
	{
		name: "move messages between channels (operation 1) with can_move_messages_between_channels_group = moderators", reqs: []string{"AUTH-17"},
		allowed: matrixModerators, serial: true,
		setup: matrixGroupSetting("can_move_messages_between_channels_group"),
		attempt: func(t *harness.Target, u harness.User) (*httpexpect.Response, func() bool) {
			id := matrixChannel(t).message
			target := t.NewChannel(harness.Public, t.UsersOf(matrixOthers...)...)
			resp := ops.EditMessage(u, id, "stream_id", target.ID)
			return resp, func() bool { now, _ := ops.Where(t.User(harness.Admin), id); return now == target.ID }
		},
	},
}

var _ = Describe("Role matrix: every role-restricted operation against every role", func() {
	for _, op := range restrictedOps {
		var decorators []any
		if op.serial {
			decorators = append(decorators, Serial)
		}
		var entries []TableEntry
		for _, role := range harness.Roles {
			outcome := "is refused"
			if slices.Contains(op.allowed, role) {
				outcome = "succeeds"
			}
			reqs := op.reqs
			if op.reqsOf != nil {
				reqs = op.reqsOf(role)
			}
			entries = append(entries, Entry(fmt.Sprintf("%s %s", role, outcome), harness.Req(reqs...), role))
		}
		args := append(append(decorators, func(role harness.Role) {
			t := harness.Current()
			if op.setup != nil {
				op.setup(t)
			}
			actor := t.User(role)
			if op.actor != nil {
				actor = op.actor(t, role)
			}
			if role == harness.Owner && op.ownerPermission != "" {
				ops.OwnerNeeds(op.ownerPermission)
			}
			resp, tookEffect := op.attempt(t, actor)
			if slices.Contains(op.allowed, role) {
				harness.Success(resp)
				if tookEffect != nil {
					Expect(tookEffect()).To(BeTrue(), "the %s's request succeeded but took no effect", role)
				}
				return
			}
			if op.refusal != "" {
				harness.FailsWith(resp, op.refusal)
			} else {
				harness.Fails(resp)
			}
			if tookEffect != nil {
				Expect(tookEffect()).To(BeFalse(), "the %s's refused request took effect", role)
			}
		}), matrixArgs(entries)...)
		DescribeTable(op.name, args...)
	}
})

func matrixArgs(entries []TableEntry) []any {
	out := make([]any, len(entries))
	for i, e := range entries {
		out[i] = e
	}
	return out
}
