package explore

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
)

// generator draws the steps of a sequence from a seed. It knows what the run made (from the
// reference's answers, which are deterministic) and picks operations whose preconditions
// mostly hold, and sometimes ones whose preconditions do not: another actor, a message or
// channel that does not exist or is not visible, a value one past a bound.
//
// In a sequence of an even seed most steps are clean: every precondition the generator knows
// of holds and every value is valid, so that a few hundred steps build the state deep rules
// need (a topic muted and then unmuted, a user renamed by an administrator). The others are
// faulty, and their faults are drawn more often, so that each fault keeps the odds its site
// gives over a run (fault). In a sequence of an odd seed every step may carry faults.
type generator struct {
	rng *rand.Rand
	// faulty says the step being drawn may break a precondition or a bound; faultyPercent is
	// the share of such steps: 100 in a sequence of an odd seed (every site at its odds in
	// every step), cleanFaultyPercent in one of an even seed. The faults of the first kind
	// break the rules of single requests most often, the clean steps of the second build the
	// state deeper rules need: clean steps alone caught fewer of the mutants at the same
	// budget (51 against 60 of the first 125 entries of the catalogue, docs/explore.md).
	faulty        bool
	faultyPercent int
	// drawn counts the rule-hitting values drawn (rotate): each is drawn before any repeats.
	drawn map[string]int
	// opsDrawn counts the draws of each operation from the table, draws the draws of all
	// (pickOperation).
	opsDrawn map[string]int
	draws    int
	// maxTopic and maxMessage are the reference's bounds (from its registration state).
	maxTopic, maxMessage int
	channels             []channelInfo
	messages             []messageInfo
	nextChannel          int
	storageKeys          []string
	nextKey              int
	// groups are the user groups the run created, in order: their direct members and
	// subgroups, for membership questions whose answer goes through a subgroup.
	groups   []group
	nextName int
	// emptyName is the reference's realm_empty_topic_display_name: a topic of that name is
	// the empty topic.
	emptyName string
	// linkifiers are the patterns' names of the linkifiers the run added: topics that match
	// them carry topic links.
	linkifiers []string
	// uploads are the files the run uploaded, and who uploaded each.
	uploads []upload
	// users are the accounts the run created: their role, email and activity change without
	// touching the cast, which the reads and event queues rely on.
	users []*person
	// muted are the topics muted by a step that succeeded; reacted the messages with a
	// reaction: the next steps come back to them (unmute, mute again, a second reaction).
	muted   []muting
	reacted []string
	// pending is what the last step makes if it succeeds on the reference.
	pending func()
	// plan are steps drawn next, before any other: the rest of a scenario whose later steps
	// need what its first made (another sender's messages in the topic a move takes).
	plan []operation
	// presence allows presence data (the run's first sequence on a fake): otherwise presence
	// is only pinged.
	presence bool
	// control allows the control steps (a target with the capabilities they use: a fake);
	// limits are the editing time limits the run set, tokens who holds a video-call token.
	control bool
	limits  []int
	tokens  map[string]bool
	// devices are the client devices the run registered, for push registration; pushSet
	// says a step configured the fake's push service.
	devices []*device
	pushSet bool
	// vcallSet says a step configured the fake's video-call integration.
	vcallSet bool
	// pushForm is the form the next push registration takes, which a plan set ("" for any).
	pushForm string
	// jwt says both sides verify tokens with a key the run knows.
	jwt bool
	// crowd is the channel of more subscribers than wildcard mentions allow everyone.
	crowd string
}

type channelInfo struct {
	name    string // the token suffix: "c3"
	private bool
	// subscribers are the actors the reference subscribed, as far as the steps tell.
	subscribers map[string]bool
}

type muting struct{ actor, channel, topic string }

type group struct {
	members   []string
	subgroups []int
}

type upload struct{ name, actor string }

type person struct {
	name  string // the token suffix: "u3"
	email string // as a step writes it: "{name:u3}@chat.example.test"
	role  string // as the reference holds it
	// deactivated: a step deactivated it (and none reactivated it since).
	deactivated bool
}

type messageInfo struct {
	channel string // "" for a direct message
	topic   string
	content string
	sender  string
	// deleted: a step deleted it; it is no longer drawn.
	deleted bool
}

func newGenerator(seed uint64, maxTopic, maxMessage int, emptyName string) *generator {
	return &generator{rng: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)), maxTopic: maxTopic, maxMessage: maxMessage, emptyName: emptyName, tokens: map[string]bool{},
		drawn: map[string]int{}, opsDrawn: map[string]int{}, faultyPercent: map[bool]int{true: 100, false: cleanFaultyPercent}[seed%2 == 1]}
}

// operation is one kind of step and how often it is drawn.
type operation struct {
	name   string
	weight int
	build  func(g *generator) Step
}

// operations are the documented operations and the supporting ones the harness uses.
var operations = []operation{
	{"create_channel", 6, (*generator).createChannel},
	{"subscribe", 4, (*generator).subscribe},
	{"unsubscribe", 2, (*generator).unsubscribe},
	{"add_subscriber", 3, (*generator).addSubscriber},
	{"send_message", 14, (*generator).sendMessage},
	{"send_direct", 3, (*generator).sendDirect},
	{"edit_message", 10, (*generator).editMessage},          // operation 1
	{"edit_message_both", 1, (*generator).editBoth},         // operation 1, rule 1
	{"shared_topic_move", 4, (*generator).sharedTopicMove},  // operation 1: moves over others' messages
	{"protected_history", 2, (*generator).protectedHistory}, // operations 1, 6, 12, 15: history before subscribing
	{"topic_muting", 5, (*generator).topicMuting},           // operation 3
	{"update_presence", 6, (*generator).updatePresence},     // operation 4
	{"presence_scenario", 3, (*generator).presenceScenario}, // operation 4: what changed since
	{"matches_narrow", 3, (*generator).matchesNarrow},       // operation 5
	{"narrow_messages", 2, (*generator).narrowMessages},
	{"fetch_message", 4, (*generator).fetchMessage},          // operation 6
	{"delete_topic", 3, (*generator).deleteTopic},            // operation 8
	{"subscription_setting", 3, (*generator).subSetting},     // operation 10
	{"get_topics", 3, (*generator).getTopics},                // operation 12
	{"edit_typing", 2, (*generator).editTyping},              // operation 13
	{"typing", 2, (*generator).typing},                       // supporting: whose queues typing reaches
	{"create_reminder", 3, (*generator).createReminder},      // operation 15
	{"mark_all_as_read", 1, (*generator).markAllAsRead},      // operation 19
	{"bot_storage_put", 2, (*generator).botStoragePut},       // supporting operation 20
	{"bot_storage_remove", 4, (*generator).botStorageRemove}, // operation 20
	{"add_reaction", 4, (*generator).addReaction},
	{"add_playground", 3, (*generator).addPlayground},     // operation 14
	{"create_group", 2, (*generator).createGroup},         // supporting operation 16
	{"group_membership", 3, (*generator).groupMembership}, // operation 16
	{"remove_reaction", 2, (*generator).removeReaction},
	{"add_linkifier", 2, (*generator).addLinkifier},         // supporting operation 17
	{"get_linkifiers", 1, (*generator).getLinkifiers},       // operation 17
	{"upload_file", 3, (*generator).uploadFile},             // supporting operation 18
	{"delete_attachment", 2, (*generator).deleteAttachment}, // operation 18
	{"shared_file", 2, (*generator).sharedFile},             // operation 18 and attachments: a file two users link
	{"create_user", 3, (*generator).createUser},             // operation 11
	{"update_user", 5, (*generator).updateUser},             // operation 2
	{"deactivate_user", 2, (*generator).deactivateUser},     // supporting: user accounts
	{"create_vcall", 1, (*generator).createVcall},           // operation 21
	{"register_push", 6, (*generator).registerPush},         // operation 7
	{"legacy_push", 2, (*generator).legacyPush},             // supporting: operation 7, rule 3
	{"get_realm", 1, (*generator).getRealm},                 // the limits clients read
	{"get_server_settings", 1, (*generator).getServerSettings},
	{"set_email_visibility", 2, (*generator).setEmailVisibility}, // AUTH-18, AUTH-19
	{"own_email_visibility", 2, (*generator).ownEmailVisibility}, // AUTH-18, AUTH-19: senders' emails
}

// next draws the next step.
func (g *generator) next() Step {
	g.pending = nil
	// A scenario's steps build what its last needs: they are clean.
	g.faulty = len(g.plan) == 0 && g.chance(g.faultyPercent)
	if len(g.plan) > 0 {
		op := g.plan[0]
		g.plan = g.plan[1:]
		return op.draw(g)
	}
	ops := operations
	if g.control {
		ops = append(slices.Clone(operations), controlOperations...)
	}
	if g.control || g.jwt {
		ops = append(slices.Clone(ops), jwtOperations...)
	}
	return g.stray(g.pickOperation(ops).draw(g))
}

// strayPercent is the share of drawn steps that carry a parameter no operation takes: the
// server answers as without it and names it in ignored_parameters_unsupported (CONV-10,
// VER-04), on every method.
const strayPercent = 5

// stray adds that parameter to some steps; not to the fake's control API, and not to an
// upload, whose form is the file.
func (g *generator) stray(st Step) Step {
	if st.Control || st.Params["@file"] != "" || !g.chance(strayPercent) {
		return st
	}
	if st.Params == nil {
		st.Params = map[string]string{}
	}
	st.Params["stray_option"] = "true"
	return st
}

// pickOperation draws an operation by weight among those drawn less often than their share
// of the draws so far. A plain weighted draw leaves an operation of weight 1 (of about 140 to
// 160 in all) out of a sequence of 150 steps one time in three, and with it every rule only it reaches (the
// feature level's type was caught at one seed and missed at the next); drawn this way, each
// operation comes about as often as its weight says, in an order that is still random. There
// is always one behind its share: the counts add up to the draws before this one.
func (g *generator) pickOperation(ops []operation) operation {
	total := 0
	for _, op := range ops {
		total += op.weight
	}
	g.draws++
	var behind []operation
	weight := 0
	for _, op := range ops {
		if g.opsDrawn[op.name]*total < g.draws*op.weight {
			behind = append(behind, op)
			weight += op.weight
		}
	}
	n := g.rng.IntN(weight)
	for _, op := range behind {
		if n < op.weight {
			g.opsDrawn[op.name]++
			return op
		}
		n -= op.weight
	}
	panic("unreachable")
}

// draw builds the operation's step, named by the operation unless the step names itself.
func (op operation) draw(g *generator) Step {
	st := op.build(g)
	if st.Op == "" {
		st.Op = op.name
	}
	return st
}

// observe tells the generator whether the step it drew succeeded on the reference.
func (g *generator) observe(ok bool) {
	if ok && g.pending != nil {
		g.pending()
	}
	g.pending = nil
}

func (g *generator) chance(percent int) bool { return g.rng.IntN(100) < percent }

// cleanFaultyPercent is the share of faulty steps of a clean sequence. A fault site fires only
// in those, 100 / faultyPercent times as often as it says: a site's "fault(5)" breaks 5% of
// its steps, as a plain chance would, and the other steps stay clean instead of each carrying
// a few faults. Where a fault has several values, they rotate (rotate): each is drawn before
// any repeats.
const cleanFaultyPercent = 25

// fault says whether this step breaks the precondition or bound of a site whose odds are
// percent.
func (g *generator) fault(percent int) bool {
	return g.faulty && g.chance(min(100, percent*100/g.faultyPercent))
}

// rotate draws one of the values that hit a rule, the one drawn least often so far (a tie
// by chance): in a few hundred steps each is drawn, where a plain pick leaves some to luck.
func (g *generator) rotate(values ...string) string {
	least := -1
	var best []string
	for _, v := range values {
		switch n := g.drawn[v]; {
		case least < 0 || n < least:
			least, best = n, []string{v}
		case n == least:
			best = append(best, v)
		}
	}
	v := pick(g, best)
	g.drawn[v]++
	return v
}

func pick[T any](g *generator, list []T) T { return list[g.rng.IntN(len(list))] }

// actor is anyone, mostly the humans who hold the usual rights.
func (g *generator) actor() string {
	if g.fault(4) {
		return g.rotate("anonymous", "member-wrong-key", "bot-wrong-key", "member-with-guest-key")
	}
	return pick(g, []string{"owner", "administrator", "moderator", "member", "member", "member", "guest", "bot"})
}

// actorIn is mostly an actor subscribed to the channel, whose steps there can succeed, and
// now and then anyone.
func (g *generator) actorIn(ch string) string {
	info := g.channelNamed(ch)
	if info == nil || len(info.subscribers) == 0 || g.fault(25) {
		return g.actor()
	}
	if sub := g.subscriberOf(ch); sub != "" {
		return sub
	}
	return g.actor() // all of them left
}

// subscriberOf is one of the channel's subscribers, "" when it has none.
func (g *generator) subscriberOf(ch string) string {
	info := g.channelNamed(ch)
	if info == nil {
		return ""
	}
	var subs []string
	for _, a := range readers { // a fixed order: the same seed, the same pick
		if info.subscribers[a] {
			subs = append(subs, a)
		}
	}
	if len(subs) == 0 {
		return ""
	}
	return pick(g, subs)
}

func (g *generator) channelNamed(name string) *channelInfo {
	for i := range g.channels {
		if g.channels[i].name == name {
			return &g.channels[i]
		}
	}
	return nil
}

// subscribed records who the reference subscribed to a channel, or unsubscribed.
func (g *generator) subscribed(ch string, on bool, actors ...string) {
	if info := g.channelNamed(ch); info != nil {
		for _, a := range actors {
			info.subscribers[a] = on
		}
	}
}

// channel is a channel of the run, or now and then one that does not exist.
func (g *generator) channel() string {
	if len(g.channels) == 0 || g.fault(5) {
		return "nowhere"
	}
	return pick(g, g.channels).name
}

// missingMessage names a message (or group) the run never made: its token resolves to an ID
// no server has.
const missingMessage = "#none"

// message is a message of the run (its symbol), or now and then one that does not exist.
func (g *generator) message() (string, messageInfo) {
	var live []int
	for i, m := range g.messages {
		if !m.deleted {
			live = append(live, i)
		}
	}
	if len(live) == 0 || g.fault(5) {
		return missingMessage, messageInfo{}
	}
	i := pick(g, live)
	if g.chance(40) {
		i = live[len(live)-1] // the latest again: a second reaction, edit or mute of one thing
	}
	return messageRef(i), g.messages[i]
}

// readerOf is mostly one who may see the message (its sender, a subscriber of its channel),
// now and then anyone.
func (g *generator) readerOf(info messageInfo) string {
	if info.sender != "" && (info.channel == "" || g.chance(40)) && !g.fault(10) {
		return info.sender
	}
	return g.actorIn(info.channel)
}

// topicOtherThan is a topic other than old: moving to the same topic changes nothing.
func (g *generator) topicOtherThan(old string) string {
	for range 4 {
		if t := g.topic(); strings.TrimSpace(t) != strings.TrimSpace(old) {
			return t
		}
	}
	return strings.TrimSpace(old) + " 2"
}

// channelOtherThan is a channel other than old, when the run has one.
func (g *generator) channelOtherThan(old string) string {
	for range 4 {
		if ch := g.channel(); ch != old {
			return ch
		}
	}
	return "nowhere"
}

// topic is drawn to hit the rules: names used before, the empty topic (also by its display
// name), white space, the resolve prefix, characters HTML escapes, and lengths at and (a
// fault) one past the bound in multi-byte characters.
func (g *generator) topic() string {
	long := strings.Repeat("ü", g.maxTopic)
	if g.fault(2) {
		return long + "ü"
	}
	if g.chance(10) {
		return g.rotate("", "   ", g.emptyName, long, "✔ alpha", "✔ beta", "R&D <notes>")
	}
	if len(g.linkifiers) > 0 && g.chance(20) {
		return "see {name:" + pick(g, g.linkifiers) + "}-" + strconv.Itoa(g.rng.IntN(100))
	}
	return pick(g, []string{"alpha", "beta", "gamma", "alpha", "δέλτα"})
}

// content is drawn the same way: plain, /me, wildcard mentions, Markdown, at the length
// bound, and (a fault) empty, blank or one past the bound.
func (g *generator) content() string { return g.contentAt(5, 25) }

// contentAt is a message's content, past a bound or empty at the odds fault, at a bound or a
// rule's trigger at the odds hit. An edit's content takes higher odds: content edits are
// few in a sequence, and their bounds are rules of their own (LIMIT-02).
func (g *generator) contentAt(fault, hit int) string {
	long := strings.Repeat("é", g.maxMessage)
	if g.fault(fault) {
		return g.rotate("", " \n ", long+"é")
	}
	if g.chance(hit) {
		return g.rotate(long, "/me waves", "@**all** look", "@**topic** look", "**bold** and `code`")
	}
	return fmt.Sprintf("text %d", g.rng.IntN(1000))
}

// subscriptionOf is the subscriptions parameter naming one channel of the run.
// intList writes a JSON list of IDs (tokens), now and then with a space after each comma, as
// JSON allows and clients write.
func (g *generator) intList(ids []string) string {
	sep := ","
	if g.chance(30) {
		sep = ", "
	}
	return "[" + strings.Join(ids, sep) + "]"
}

func subscriptionOf(ch string) string {
	return jsonText([]map[string]string{{"name": "{name:" + ch + "}"}})
}

func jsonText(v any) string {
	data, _ := json.Marshal(v)
	return string(data)
}

func (g *generator) createChannel() Step {
	name := "c" + strconv.Itoa(g.nextChannel)
	g.nextChannel++
	private := g.chance(30)
	principals := []string{"{user:owner}"}
	subs := map[string]bool{"owner": true}
	for _, a := range []string{"administrator", "moderator", "member", "guest", "bot"} {
		if g.chance(60) {
			principals = append(principals, "{user:"+a+"}")
			subs[a] = true
		}
	}
	actor := pick(g, []string{"owner", "administrator", "member", "guest"})
	if actor != "owner" {
		principals = append(principals, "{user:"+actor+"}")
		subs[actor] = true
	}
	g.pending = func() { g.channels = append(g.channels, channelInfo{name, private, subs}) }
	return Step{Op: "create_channel", Actor: actor, Method: "POST", Path: "/users/me/subscriptions", Learn: name, Channel: name,
		Params: map[string]string{
			"subscriptions":                 subscriptionOf(name),
			"principals":                    "[" + strings.Join(principals, ",") + "]",
			"invite_only":                   strconv.FormatBool(private),
			"history_public_to_subscribers": strconv.FormatBool(!private || g.chance(50)),
		}}
}

func (g *generator) subscribe() Step {
	ch, actor := g.channel(), g.actor()
	g.pending = func() { g.subscribed(ch, true, actor) }
	return Step{Actor: actor, Method: "POST", Path: "/users/me/subscriptions", Channel: ch,
		Params: map[string]string{"subscriptions": subscriptionOf(ch)}}
}

// addSubscriber subscribes another actor: the way into a private channel, whose history the
// newcomer may or may not see.
func (g *generator) addSubscriber() Step {
	ch := g.channel()
	for _, c := range g.channels {
		if c.private && g.chance(30) { // a newcomer to a private channel: may they see its history?
			ch = c.name
		}
	}
	who := pick(g, []string{"moderator", "member", "guest", "bot"})
	// The channel's last message is read back too: may the newcomer see it?
	last := ""
	for i, m := range g.messages {
		if m.channel == ch {
			last = messageRef(i)
		}
	}
	g.pending = func() { g.subscribed(ch, true, who) }
	return Step{Actor: pick(g, []string{"owner", "administrator", "member", "guest"}), Method: "POST", Path: "/users/me/subscriptions", Channel: ch, Message: last,
		Params: map[string]string{"subscriptions": subscriptionOf(ch), "principals": "[{user:" + who + "}]"}}
}

func (g *generator) unsubscribe() Step {
	ch := g.channel()
	actor := g.actorIn(ch)
	g.pending = func() { g.subscribed(ch, false, actor) }
	return Step{Actor: actor, Method: "DELETE", Path: "/users/me/subscriptions", Channel: ch,
		Params: map[string]string{"subscriptions": jsonText([]string{"{name:" + ch + "}"})}}
}

func (g *generator) sendMessage() Step {
	if len(g.channels) == 0 && g.chance(80) {
		return g.createChannel() // a message needs somewhere to go
	}
	ch, topic, content := g.channel(), g.topic(), g.content()
	file := ""
	if len(g.uploads) > 0 && g.chance(30) { // a link to an uploaded file: its attachment is referenced
		file = pick(g, g.uploads).name
		content = "the file [" + file + "](/user_uploads/{upload:" + file + "})"
	}
	st := g.sendTo(g.actorIn(ch), ch, topic, content)
	st.Upload = file
	return st
}

// sendTo sends a channel message, which the run records when it succeeds.
func (g *generator) sendTo(actor, ch, topic, content string) Step {
	g.pending = func() {
		g.messages = append(g.messages, messageInfo{channel: ch, topic: topic, content: content, sender: actor})
	}
	topicParam := "topic"
	if g.chance(8) {
		topicParam = "subject" // its alias
	}
	return Step{Op: "send_message", Actor: actor, Method: "POST", Path: "/messages", Channel: ch, Learn: "message" + messageRef(len(g.messages)),
		Params: map[string]string{"type": "stream", "to": "{channel:" + ch + "}", topicParam: topic, "content": content}}
}

// uploadFile uploads a file: a message may link it later, and its attachment be deleted.
func (g *generator) uploadFile() Step {
	g.nextName++
	name := "f" + strconv.Itoa(g.nextName)
	actor := pick(g, []string{"owner", "member", "member", "guest", "bot"})
	if g.fault(5) {
		actor = g.actor()
	}
	g.pending = func() { g.uploads = append(g.uploads, upload{name, actor}) }
	return Step{Actor: actor, Method: "POST", Path: "/user_uploads", Learn: "upload:" + name, Upload: name,
		Params: map[string]string{"@file": name + ".txt"}}
}

// deleteAttachment deletes an uploaded file's attachment, mostly as its uploader, now and
// then as someone else or one that does not exist.
func (g *generator) deleteAttachment() Step {
	if len(g.uploads) == 0 || g.fault(10) {
		return Step{Actor: g.actor(), Method: "DELETE", Path: "/attachments/{attachment:none}"}
	}
	u := pick(g, g.uploads)
	actor := u.actor
	if g.fault(40) {
		actor = g.actor()
	}
	return Step{Actor: actor, Method: "DELETE", Path: "/attachments/{attachment:" + u.name + "}", Upload: u.name}
}

func (g *generator) sendDirect() Step { return g.sendDirectAs(g.actor()) }

func (g *generator) sendDirectAs(actor string) Step {
	to := []string{"{user:" + pick(g, []string{"owner", "administrator", "member", "guest", "bot"}) + "}"}
	if g.chance(40) {
		to = append(to, "{user:"+pick(g, []string{"moderator", "member"})+"}")
	}
	content := g.content()
	g.pending = func() { g.messages = append(g.messages, messageInfo{content: content, sender: actor}) }
	return Step{Op: "send_direct", Actor: actor, Method: "POST", Path: "/messages", Learn: "message" + messageRef(len(g.messages)),
		Params: map[string]string{"type": "private", "to": g.intList(to), "content": content}}
}

func (g *generator) editMessage() Step {
	m, info := g.message()
	params := map[string]string{}
	moveCh := "" // the channel a channel move takes it to
	kind := g.rng.IntN(4)
	if uploadIn(info.content) != "" && g.chance(60) {
		kind = 0 // a new content detaches the file when this was its only link
	}
	switch kind {
	case 0:
		content := g.contentAt(30, 50)
		params["content"] = content
		g.guardContent(params, info.content)
		if m != missingMessage {
			g.pending = func() { g.messageAt(m).content = content }
		}
	case 1:
		params[pick(g, []string{"topic", "topic", "topic", "subject"})] = g.topicOtherThan(info.topic) // subject: its alias
	case 2:
		moveCh = g.channelOtherThan(info.channel)
		params["stream_id"] = "{channel:" + moveCh + "}"
	default: // resolve or unresolve the topic
		params["topic"] = pick(g, []string{"✔ " + info.topic, strings.TrimPrefix(info.topic, "✔ ")})
		params["propagate_mode"] = "change_all"
	}
	if _, set := params["propagate_mode"]; !set && g.chance(60) {
		params["propagate_mode"] = pick(g, []string{"change_one", "change_later", "change_all"})
		if g.fault(5) {
			params["propagate_mode"] = "change_some"
		}
	}
	if to, ok := moveOf(params, moveCh); ok && m != missingMessage && moveCh != "nowhere" {
		g.pending = func() { g.moved(m, to, params["propagate_mode"]) }
	}
	if g.chance(20) {
		params["send_notification_to_old_thread"] = "true"
	}
	if g.chance(20) {
		params["send_notification_to_new_thread"] = "false"
	}
	actor := g.actorIn(info.channel)
	if info.sender != "" && g.chance(40) {
		actor = info.sender // the one the time limits hold, when not a moderator
	}
	return Step{Actor: actor, Method: "PATCH", Path: "/messages/{message" + m + "}", Message: m, Channel: info.channel, Params: params,
		Upload: uploadIn(info.content)}
}

// guardContent now and then sends the previous content's SHA-256 hash with an edit, as a
// client guarding against a conflicting edit would: the right one, or one of other content.
// Only for content without tokens, which the sides resolve each to its own.
func (g *generator) guardContent(params map[string]string, previous string) {
	if strings.Contains(previous, "{") || !g.chance(30) {
		return
	}
	if g.chance(30) {
		previous += " (stale)"
	}
	sum := sha256.Sum256([]byte(previous))
	params["prev_content_sha256"] = hex.EncodeToString(sum[:])
}

// messageAt is the run's record of a message by its symbol ("#3").
func (g *generator) messageAt(m string) *messageInfo {
	n, _ := strconv.Atoi(strings.TrimPrefix(m, ":m"))
	return &g.messages[n]
}

// messageRef names the run's i-th message ("{message:m3}"), which each side binds to the ID
// its send answered (Learn). A number by order of appearance ("#3") would drift from the
// generator's count as soon as another message showed first: a reminder's delivery, a
// message of an earlier sequence; the step then acted on another message than it meant.
func messageRef(i int) string { return ":m" + strconv.Itoa(i) }

// uploadIn is the file a message's content links, if any.
func uploadIn(content string) string {
	_, rest, ok := strings.Cut(content, "{upload:")
	name, _, _ := strings.Cut(rest, "}")
	if !ok {
		return ""
	}
	return name
}

func (g *generator) editBoth() Step {
	m, info := g.message()
	return Step{Actor: g.actor(), Method: "PATCH", Path: "/messages/{message" + m + "}", Message: m, Channel: info.channel,
		Params: map[string]string{"content": g.content(), "stream_id": "{channel:" + g.channel() + "}"}}
}

func (g *generator) topicMuting() Step { return g.mutingStep(50) }

// mutingStep mutes or unmutes a topic; at the odds again, one the run muted before.
func (g *generator) mutingStep(again int) Step {
	ch, topic := g.channel(), g.topic()
	if _, info := g.message(); info.channel != "" && g.chance(60) && len([]rune(info.topic)) <= g.maxTopic {
		ch, topic = info.channel, info.topic
	}
	actor := g.actorIn(ch)
	if sub := g.subscriberOf(ch); sub != "" && !g.fault(20) {
		actor = sub // who may mute it
	}
	if g.chance(25) {
		// At the bound and (a fault) one past.
		topic = strings.Repeat("ü", g.maxTopic)
		if g.fault(40) {
			topic += "ü"
		}
	}
	op := pick(g, []string{"add", "add", "remove"})
	if g.fault(5) {
		op = "toggle"
	}
	revisit := len(g.muted) > 0 && g.chance(again)
	if revisit {
		m := pick(g, g.muted)
		actor, ch, topic = m.actor, m.channel, m.topic
		op = strings.TrimPrefix(g.rotate("again:remove", "again:add"), "again:") // unmute, or mute again
	}
	if op == "add" {
		g.pending = func() { g.muted = append(g.muted, muting{actor, ch, topic}) }
		if !revisit && g.chance(50) {
			// Then come back to it at once: the pair's second half (unmute, mute again) is
			// rare otherwise in a few hundred steps.
			g.plan = append(g.plan, operation{"topic_muting", 0, func(g *generator) Step { return g.mutingStep(100) }})
		}
	}
	params := map[string]string{"topic": topic, "op": op}
	if g.fault(5) {
		delete(params, "op")
	}
	switch {
	case g.fault(30): // neither, or both: refused
		if g.chance(50) {
			params["stream"], params["stream_id"] = "{name:"+ch+"}", "{channel:"+ch+"}"
		}
	case g.chance(25):
		params["stream"] = "{name:" + ch + "}"
	default:
		params["stream_id"] = "{channel:" + ch + "}"
	}
	return Step{Actor: actor, Method: "PATCH", Path: "/users/me/subscriptions/muted_topics", Params: params}
}

// updatePresence updates the actor's presence: with ping_only (no data back), or asking for
// the data in the modern format (last_update_id, or slim_presence) or the legacy one.
func (g *generator) updatePresence() Step {
	params := map[string]string{"status": pick(g, []string{"active", "idle", "idle", "away"})}
	op := "update_presence"
	switch n := g.rng.IntN(4); {
	case n == 0 || !g.presence:
		params["ping_only"] = "true"
	case n == 1:
		op = "update_presence_legacy"
		if g.chance(30) {
			params["slim_presence"] = "false"
		}
	default:
		op = "update_presence_modern"
		if g.chance(25) {
			params["slim_presence"] = "true"
		} else {
			params["last_update_id"] = pick(g, []string{"-1", "-1", "0", "1", "1", "1000"})
		}
	}
	if g.chance(30) {
		params["history_limit_days"] = pick(g, []string{"1", "14", "30"})
	}
	if g.chance(30) {
		params["new_user_input"] = strconv.FormatBool(g.chance(50))
	}
	actor := pick(g, humans) // bots have no presence
	if g.fault(10) {
		actor = g.actor()
	}
	if params["last_update_id"] == "1" {
		params["last_update_id"] = "{update:" + actor + "}" // what the actor last received
	}
	return Step{Op: op, Actor: actor, Method: "POST", Path: "/users/me/presence", Params: params}
}

// presenceScenario, in a sequence that explores presence: a human asks for everything, a
// second one reports, the first asks for what changed since its last answer, twice (the
// second time nothing did), and, where the clock can move, asks again about two weeks later,
// with and without history_limit_days.
func (g *generator) presenceScenario() Step {
	if !g.presence {
		return g.updatePresence()
	}
	a, b := pick(g, humans), pick(g, humans)
	ask := func(last string, extra map[string]string) operation {
		return operation{"update_presence_modern", 0, func(g *generator) Step {
			params := map[string]string{"status": "active"}
			if last != "" {
				params["last_update_id"] = last
			}
			maps.Copy(params, extra)
			return Step{Op: "update_presence_modern", Actor: a, Method: "POST", Path: "/users/me/presence", Params: params}
		}}
	}
	since := "{update:" + a + "}"
	// Now and then the reporter hides its real email first (the sequence's end puts it back),
	// and the asker then asks in the legacy format too, which is keyed by email.
	hide := g.chance(40)
	if hide {
		hidden := strings.TrimPrefix(g.rotate("hide:3", "hide:4", "hide:5"), "hide:")
		g.plan = append(g.plan, operation{"own_email_visibility", 0, func(*generator) Step {
			return Step{Op: "own_email_visibility", Actor: b, Method: "PATCH", Path: "/settings", Params: map[string]string{"email_address_visibility": hidden}}
		}})
	}
	g.plan = append(g.plan,
		operation{"update_presence", 0, func(g *generator) Step {
			return Step{Op: "update_presence", Actor: b, Method: "POST", Path: "/users/me/presence",
				Params: map[string]string{"status": pick(g, []string{"active", "idle"}), "ping_only": "true"}}
		}},
		ask(since, nil), ask(since, nil))
	if hide { // before the clock moves past the presence reported
		g.plan = append(g.plan, operation{"update_presence_legacy", 0, func(*generator) Step {
			return Step{Op: "update_presence_legacy", Actor: a, Method: "POST", Path: "/users/me/presence", Params: map[string]string{"status": "active"}}
		}})
	}
	if g.control {
		g.plan = append(g.plan, operation{"advance_clock", 0, func(g *generator) Step {
			return g.advanceBy(pick(g, []int{13*86400 + 43200, 15 * 86400}))
		}})
		extra := map[string]string{}
		// Rotated values share one count: "days:" is none, unlike content's empty one.
		if days := strings.TrimPrefix(g.rotate("days:", "days:13", "days:14", "days:15"), "days:"); days != "" {
			extra["history_limit_days"] = days
		}
		g.plan = append(g.plan, ask("-1", extra), ask(since, extra))
	}
	if g.rotate("last_update_id=-1", "slim_presence") == "slim_presence" {
		return ask("", map[string]string{"slim_presence": "true"}).build(g) // modern, without an update ID
	}
	return ask("-1", nil).build(g)
}

// matchesNarrow asks, mostly as one who may read it, whether a message and others match a
// narrow drawn from it (its channel, topic, a word of it).
func (g *generator) matchesNarrow() Step {
	m, info := g.message()
	ids := []string{"{message" + m + "}"}
	for range g.rng.IntN(3) {
		other, _ := g.message()
		ids = append(ids, "{message"+other+"}")
	}
	return Step{Actor: g.readerOf(info), Method: "GET", Path: "/messages/matches_narrow",
		Params: map[string]string{"msg_ids": g.intList(ids), "narrow": jsonText(g.narrowOf(info))}}
}

// narrowMessages fetches a channel's messages through a narrow of one to four terms.
func (g *generator) narrowMessages() Step {
	return Step{Op: "get_messages", Actor: g.actor(), Method: "GET", Path: "/messages", Params: map[string]string{
		"anchor": "newest", "num_before": "30", "num_after": "0", "narrow": jsonText(g.narrow()), "apply_markdown": "false"}}
}

// narrow is a narrow of one to four terms: a channel of the run first (what it matches is
// the run's own), then topics, senders, a search word or resolved topics, each negated now
// and then.
func (g *generator) narrow() []map[string]any {
	_, info := g.message()
	return g.narrowOf(info)
}

// narrowOf is a narrow of one to four terms, mostly of the message's own channel, whose topic
// and search terms may match it.
func (g *generator) narrowOf(info messageInfo) []map[string]any {
	ch := g.channel()
	if info.channel != "" && g.chance(70) {
		ch = info.channel // the message's own: the topic and search terms may match
	}
	narrow := []map[string]any{{"operator": "stream", "operand": "{name:" + ch + "}"}}
	for range g.rng.IntN(4) {
		term := map[string]any{}
		switch g.rng.IntN(4) {
		case 0:
			term["operator"], term["operand"] = "topic", info.topic
		case 1:
			term["operator"], term["operand"] = "sender", "{email:"+pick(g, []string{"owner", "member", "guest", "bot"})+"}"
		case 2:
			words := []string{"text", "look", "waves", "file", "notes"}
			if fields := strings.Fields(info.topic + " " + info.content); len(fields) > 0 && g.chance(50) {
				words = fields // a word of the message's own
			}
			term["operator"], term["operand"] = "search", pick(g, words)
		default:
			term["operator"], term["operand"] = "is", "resolved"
		}
		if g.chance(30) {
			term["negated"] = true
		}
		narrow = append(narrow, term)
	}
	return narrow
}

func (g *generator) fetchMessage() Step {
	m, info := g.message()
	params := map[string]string{}
	op := "fetch_message_html" // HTML: its text is each server's own
	if g.chance(50) {
		params["apply_markdown"] = "false"
		op = "fetch_message"
	}
	if g.chance(50) {
		params["allow_empty_topic_name"] = strconv.FormatBool(g.chance(50))
	}
	return Step{Op: op, Actor: g.readerOf(info), Method: "GET", Path: "/messages/{message" + m + "}", Params: params}
}

func (g *generator) deleteTopic() Step {
	ch := g.channel()
	topic := g.topic()
	for _, m := range g.messages {
		if m.channel == ch && !m.deleted && g.chance(70) {
			topic = m.topic
		}
	}
	g.pending = func() {
		for i, m := range g.messages {
			if m.channel == ch && strings.EqualFold(strings.TrimSpace(m.topic), strings.TrimSpace(topic)) {
				g.messages[i].deleted = true
			}
		}
	}
	actor := pick(g, []string{"owner", "administrator", "administrator"}) // who may
	if g.fault(30) {
		actor = g.actor()
	}
	st := Step{Actor: actor, Method: "POST", Path: "/streams/{channel:" + ch + "}/delete_topic", Channel: ch,
		Params: map[string]string{"topic_name": topic}}
	if g.faulty {
		return st
	}
	// In a clean step one who may not tries first (refused, and nothing deleted), then one
	// who may.
	pending := g.pending
	g.pending = nil
	g.plan = append(g.plan, operation{"delete_topic", 0, func(g *generator) Step { g.pending = pending; return st }})
	refused := st
	refused.Params = maps.Clone(st.Params)
	refused.Actor = strings.TrimPrefix(g.rotate("delete:moderator", "delete:member"), "delete:")
	return refused
}

// subSetting changes a subscription property, mostly as a subscriber: the colour, the two
// muting ones (each the other's inverse), pinning and a notification setting, in turn.
func (g *generator) subSetting() Step {
	ch := g.channel()
	prop := g.rotate("color", "is_muted", "in_home_view", "pin_to_top", "notifications")
	if prop == "notifications" {
		prop = pick(g, []string{"desktop_notifications", "audible_notifications", "push_notifications", "email_notifications", "wildcard_mentions_notify", "is_loud"})
	}
	value := pick(g, []string{"true", "false"})
	if prop == "color" {
		value = g.rotate("#a1b2c3", "#ABCDEF", "#0f0f0f")
	}
	if g.fault(10) {
		value = g.rotate(map[bool][]string{true: {"red", "a1b2c3"}, false: {"#a1b2c3", "1", "t"}}[prop == "color"]...)
	}
	actor := g.actorIn(ch)
	if sub := g.subscriberOf(ch); sub != "" && !g.fault(20) {
		actor = sub
	}
	if !g.faulty && g.chance(50) {
		// The next property at once, and so on by halves: a run draws these a few times only.
		g.plan = append(g.plan, operation{"subscription_setting", 0, (*generator).subSetting})
	}
	return Step{Actor: actor, Method: "PATCH", Path: "/users/me/subscriptions/{channel:" + ch + "}", Channel: ch,
		Params: map[string]string{"property": prop, "value": value}}
}

func (g *generator) getTopics() Step {
	params := map[string]string{}
	if g.chance(50) {
		params["allow_empty_topic_name"] = strconv.FormatBool(g.chance(50))
	}
	ch := g.channel()
	return Step{Actor: g.actorIn(ch), Method: "GET", Path: "/users/me/{channel:" + ch + "}/topics", Params: params}
}

// typing says an actor is typing to a direct conversation or a channel's topic: the typing
// events reach the conversation's members or the channel's subscribers, no one else.
func (g *generator) typing() Step {
	params := map[string]string{"op": pick(g, []string{"start", "stop"})}
	if g.fault(10) {
		params["op"] = "pause"
	}
	if g.chance(50) {
		ch := g.channel()
		params["type"], params["stream_id"], params["topic"] = "stream", "{channel:"+ch+"}", g.topic()
		return Step{Actor: g.actorIn(ch), Method: "POST", Path: "/typing", Channel: ch, Params: params}
	}
	to := []string{"{user:" + pick(g, readers) + "}"}
	if g.chance(40) {
		to = append(to, "{user:"+pick(g, readers)+"}")
	}
	params["type"], params["to"] = "private", "["+strings.Join(slices.Compact(to), ",")+"]"
	return Step{Actor: g.actor(), Method: "POST", Path: "/typing", Params: params}
}

func (g *generator) editTyping() Step {
	m, info := g.message()
	actor := info.sender // who may edit the content may say it is editing it
	if actor == "" || g.fault(20) {
		actor = g.readerOf(info)
	}
	return Step{Actor: actor, Method: "POST", Path: "/messages/{message" + m + "}/typing",
		Params: map[string]string{"op": pick(g, []string{"start", "stop", "pause"})}}
}

func (g *generator) createReminder() Step {
	m, info := g.message()
	params := map[string]string{"message_id": "{message" + m + "}", "scheduled_delivery_timestamp": pick(g, []string{"{now+3600}", "{now+86400}"})}
	if g.fault(30) {
		params["scheduled_delivery_timestamp"] = "{now-3600}"
	}
	if g.chance(60) {
		params["note"] = g.rotate("remember", "", strings.Repeat("ñ", 1000))
	}
	return Step{Actor: g.readerOf(info), Method: "POST", Path: "/reminders", Message: m, Params: params}
}

func (g *generator) markAllAsRead() Step {
	return Step{Actor: g.actor(), Method: "POST", Path: "/mark_all_as_read"}
}

func (g *generator) botStoragePut() Step {
	k := "k" + strconv.Itoa(g.nextKey)
	g.nextKey++
	g.pending = func() { g.storageKeys = append(g.storageKeys, k) }
	actor := "bot"
	if g.fault(20) {
		actor = g.actor()
	}
	return Step{Actor: actor, Method: "PUT", Path: "/bot_storage",
		Params: map[string]string{"storage": jsonText(map[string]string{"{name:" + k + "}": "v"})}}
}

// botStorageRemove removes stored keys in each of the forms the rules tell apart, in turn:
// one key or two, a stored key beside a missing one (refused, and nothing removed), the empty
// list (nothing removed), a key as a human (refused from the level where storage is for bots
// only), keys omitted (everything removed: only against a fake, never a shared server, where
// it would remove other runs' data too), and a missing key alone.
func (g *generator) botStorageRemove() Step {
	if len(g.storageKeys) == 0 && !g.fault(50) {
		// Something to remove first.
		g.plan = append(g.plan, operation{"bot_storage_remove", 0, (*generator).botStorageRemove})
		return g.botStoragePut()
	}
	forms := []string{"keys:stored", "keys:with-missing", "keys:empty", "keys:missing", "keys:by-human"}
	if g.control {
		forms = append(forms, "keys:omitted")
	}
	form := "keys:missing"
	if len(g.storageKeys) > 0 {
		form = g.rotate(forms...)
	}
	var removed []string
	stored := func() string {
		k := pick(g, g.storageKeys)
		removed = append(removed, k)
		return "{name:" + k + "}"
	}
	keys := []string{}
	switch form {
	case "keys:stored":
		keys = []string{stored()}
		if g.chance(50) {
			keys = append(keys, stored())
		}
	case "keys:omitted", "keys:by-human":
		keys = []string{stored()}
	case "keys:with-missing":
		keys = []string{stored(), "{name:missing}"}
	case "keys:missing":
		keys = []string{"{name:missing}"}
	}
	g.pending = func() {
		g.storageKeys = slices.DeleteFunc(g.storageKeys, func(k string) bool { return slices.Contains(removed, k) })
	}
	actor := "bot"
	if g.fault(25) {
		actor = g.actor()
	}
	if form == "keys:by-human" { // a bot's storage, asked for by a human
		actor = pick(g, humans)
	}
	params := map[string]string{"keys": jsonText(keys)}
	if form == "keys:omitted" {
		delete(params, "keys")
		g.pending = func() { g.storageKeys = nil }
	}
	return Step{Actor: actor, Method: "DELETE", Path: "/bot_storage", Params: params}
}

func (g *generator) addReaction() Step {
	m, info := g.message()
	if len(g.reacted) > 0 && g.chance(50) {
		m = pick(g, g.reacted)
		n, _ := strconv.Atoi(m[1:])
		info = g.messages[n]
	}
	if m != missingMessage {
		g.pending = func() { g.reacted = append(g.reacted, m) }
	}
	return Step{Actor: g.actorIn(info.channel), Method: "POST", Path: "/messages/{message" + m + "}/reactions", Message: m, Channel: info.channel,
		Params: map[string]string{"emoji_name": g.emoji()}}
}

// emoji is an emoji's name, or (a fault) no emoji's.
func (g *generator) emoji() string {
	if g.fault(25) {
		return "not_an_emoji"
	}
	return pick(g, []string{"smile", "octopus", "+1"})
}

func (g *generator) removeReaction() Step {
	m, info := g.message()
	return Step{Actor: g.actorIn(info.channel), Method: "DELETE", Path: "/messages/{message" + m + "}/reactions", Message: m, Channel: info.channel,
		Params: map[string]string{"emoji_name": pick(g, []string{"smile", "octopus"})}}
}

// name is a fresh name of the run, for things the realm names (playgrounds, groups).
func (g *generator) name(kind string) string {
	g.nextName++
	return "{name:" + kind + strconv.Itoa(g.nextName) + "}"
}

func (g *generator) addPlayground() Step {
	bad := g.fault(50)
	if !bad { // then one its rules refuse, at once: a run draws playgrounds a few times only
		g.plan = append(g.plan, operation{"add_playground", 0, func(g *generator) Step { return g.playground(true) }})
	}
	return g.playground(bad)
}

// playground adds a code playground, with a URL template its rules refuse when bad.
func (g *generator) playground(bad bool) Step {
	template, language := "https://play.example.com/?c={code}", pick(g, []string{"Python", "Rust"})
	if bad {
		template = g.rotate("https://play.example.com/?c={code}&x={other}", "https://play.example.com/", "not a template {code", "https://play.example.com/?c={lang}")
	}
	if g.fault(10) {
		language = ""
	}
	actor := pick(g, []string{"owner", "administrator", "administrator"})
	if g.fault(30) {
		actor = pick(g, []string{"member", "guest"})
	}
	return Step{Actor: actor, Method: "POST", Path: "/realm/playgrounds", Learn: "playgrounds",
		Params: map[string]string{"name": g.name("p"), "pygments_language": language, "url_template": template}}
}

// createGroup creates a user group of some actors, now and then with the run's last group
// as a subgroup.
func (g *generator) createGroup() Step {
	var gr group
	var members []string
	for _, a := range append([]string{"moderator", "member", "guest", "bot"}, g.userNames()...) {
		if g.chance(40) && !slices.Contains(gr.members, a) {
			gr.members = append(gr.members, a)
			members = append(members, "{user:"+a+"}")
		}
	}
	params := map[string]string{"name": g.name("g"), "description": "explore", "members": g.intList(members)}
	if len(g.groups) > 0 && g.chance(60) {
		sub := g.rng.IntN(len(g.groups))
		gr.subgroups = []int{sub}
		params["subgroups"] = "[{group#" + strconv.Itoa(sub) + "}]"
	}
	g.pending = func() { g.groups = append(g.groups, gr) }
	actor := pick(g, []string{"owner", "administrator", "member"})
	if g.fault(20) {
		actor = "guest"
	}
	return Step{Actor: actor, Method: "POST", Path: "/user_groups/create", Params: params}
}

// groupMembership asks whether someone is a member of a group: mostly one of its direct
// members or a member of a subgroup, whose answer direct_member_only decides.
func (g *generator) groupMembership() Step {
	sym, gr := missingMessage, group{}
	if len(g.groups) > 0 && !g.fault(10) {
		n := g.rng.IntN(len(g.groups))
		sym, gr = "#"+strconv.Itoa(n), g.groups[n]
	}
	params := map[string]string{}
	if g.chance(60) {
		params["direct_member_only"] = strconv.FormatBool(g.chance(50))
	}
	who := pick(g, append([]string{"owner", "moderator", "member", "guest", "bot"}, g.userNames()...))
	if len(gr.members) > 0 && g.chance(40) {
		who = pick(g, gr.members)
	}
	for _, sub := range gr.subgroups {
		if len(g.groups[sub].members) > 0 && g.chance(60) {
			who = pick(g, g.groups[sub].members)
		}
	}
	return Step{Actor: g.actor(), Method: "GET", Path: "/user_groups/{group" + sym + "}/members/{user:" + who + "}", Params: params}
}

// addLinkifier adds a linkifier whose pattern starts with the run's prefix (a topic drawn
// later may match it): in a clean step one of the valid forms in turn and then, at once, one
// of the refused ones in turn; in a faulty step mostly a refused one, or by someone who may not.
func (g *generator) addLinkifier() Step {
	if !g.faulty { // then one its rules refuse, at once: a run draws linkifiers a few times only
		g.plan = append(g.plan, operation{"add_linkifier", 0, func(g *generator) Step {
			return g.linkifier(g.rotate("lk:bad-pattern", "lk:bad-template", "lk:reverse-without-example"))
		}})
		return g.linkifier(g.rotate("lk:plain", "lk:reverse", "lk:reverse-braces", "lk:alternatives"))
	}
	return g.linkifier(g.rotate("lk:bad-pattern", "lk:bad-template", "lk:reverse-without-example", "lk:plain"))
}

// linkifier adds a linkifier of one form: plain, with the reverse fields (its braces doubled
// or not), with alternative URL templates, or one its rules refuse.
func (g *generator) linkifier(form string) Step {
	g.nextName++
	name := "l" + strconv.Itoa(g.nextName)
	params := map[string]string{
		"pattern":      "{name:" + name + "}-(?P<id>[0-9]+)",
		"url_template": "https://tracker.example.com/" + name + "/{id}",
	}
	switch form {
	case "lk:bad-pattern":
		params["pattern"] = "{name:" + name + "}-(?P<id>[0-9+"
	case "lk:bad-template":
		params["url_template"] = "https://tracker.example.com/{other}"
	case "lk:reverse-without-example": // a reverse template needs an example
		params["reverse_template"] = "{name:" + name + "}-{id}"
	case "lk:reverse", "lk:reverse-braces":
		params["example_input"] = "{name:" + name + "}-12"
		params["reverse_template"] = "{name:" + name + "}-{id}"
		if form == "lk:reverse-braces" {
			params["reverse_template"] = "{{" + params["reverse_template"] + "}}" // braces doubled
		}
	case "lk:alternatives":
		params["alternative_url_templates"] = jsonText([]string{"https://alt.example.com/" + name + "/{id}"})
	}
	g.pending = func() { g.linkifiers = append(g.linkifiers, name) }
	actor := pick(g, []string{"owner", "administrator", "administrator"})
	if g.fault(25) {
		actor = "member"
	}
	return Step{Op: "add_linkifier", Actor: actor, Method: "POST", Path: "/realm/filters", Params: params}
}

func (g *generator) getLinkifiers() Step {
	return Step{Actor: g.actor(), Method: "GET", Path: "/realm/linkifiers"}
}

// active are the token names of the accounts the run created that are not deactivated.
func (g *generator) active() []string {
	var out []string
	for _, u := range g.users {
		if !u.deactivated {
			out = append(out, u.name)
		}
	}
	return out
}

// userNames are the token names of the accounts the run created, each twice: they are
// drawn as often as the cast.
func (g *generator) userNames() []string {
	var out []string
	for _, u := range g.users {
		out = append(out, u.name, u.name)
	}
	return out
}

// createUser creates an account (as someone who may, mostly), now and then with the email of
// one the run already created.
func (g *generator) createUser() Step {
	g.nextName++
	u := &person{name: "u" + strconv.Itoa(g.nextName), role: "400"}
	u.email = "{name:" + u.name + "}@chat.example.test"
	email := u.email
	if len(g.users) > 0 && g.fault(15) {
		email = pick(g, g.users).email // already used, also by a deactivated account: refused
	}
	actor := "owner" // who holds can_create_users
	if g.fault(25) {
		actor = pick(g, []string{"administrator", "member"})
	}
	params := map[string]string{"email": email, "password": "Explore-pass-1234", "full_name": "{name:" + u.name + "} Person"}
	if g.fault(5) {
		delete(params, "password")
	}
	g.pending = func() { g.users = append(g.users, u) }
	return Step{Op: "create_user", Actor: actor, Method: "POST", Path: "/users", Learn: "user:" + u.name,
		User: u.name, Params: params}
}

// updateUser updates an account by email (operation 2): its name, role, custom profile data
// or email, mostly one the run created, by administrators and owners mostly; now and then the
// only owner's role, or an account named by its dummy address.
func (g *generator) updateUser() Step {
	if len(g.users) == 0 && (g.chance(60) || !g.control) {
		return g.createUser()
	}
	actor := pick(g, []string{"owner", "owner", "administrator", "administrator"})
	if g.fault(30) {
		actor = pick(g, []string{"moderator", "member"})
	}
	otherOwner := slices.ContainsFunc(g.users, func(u *person) bool { return u.role == "100" && !u.deactivated })
	if g.control && !otherOwner && (len(g.users) == 0 || g.chance(10)) {
		// The only owner's role: refused whoever asks; the cast is never changed. Only on a
		// fake, whose one owner is the cast's (the cleanup demotes the run's accounts), while
		// no account of the run is an owner: a realm with another owner makes the change.
		return Step{Actor: actor, Method: "PATCH", Path: "/users/{email:owner}", User: "owner",
			Params: map[string]string{"role": pick(g, []string{"200", "400"})}}
	}
	u := pick(g, g.users)
	path := "/users/" + u.email
	if g.chance(10) {
		path = "/users/{dummy:" + u.name + "}"
	}
	params := map[string]string{}
	// The kinds of change in turn: each has rules of its own, and an account is updated only
	// a few times in a sequence.
	switch g.rotate("update:name", "update:role", "update:role-and-name", "update:profile", "update:email") {
	case "update:name":
		params["full_name"] = "{name:" + u.name + "} Renamed " + strconv.Itoa(g.rng.IntN(100))
		if g.fault(40) {
			params["full_name"] = g.rotate("", "  ", strings.Repeat("ñ", 61))
		}
	case "update:role":
		params["role"] = pick(g, []string{"100", "200", "300", "400", "600", "600"})
		if g.fault(10) {
			params["role"] = "250"
		}
	case "update:role-and-name": // owner by an administrator: refused, and the name with it
		params["role"], params["full_name"] = pick(g, []string{"100", "200", "600"}), "{name:"+u.name+"} Both"
	case "update:profile":
		params["profile_data"] = g.profileData()
	default: // update:email
		email := "{name:" + u.name + "-new}@chat.example.test"
		params["new_email"] = email
		g.pending = func() { u.email = email }
	}
	if role, ok := params["role"]; ok {
		if u.role == "600" && (role == "100" || role == "200") {
			// Whether a guest may become an administrator is open: the document gives the
			// refusal as an example, the real server makes the change (OP02-14).
			params["role"] = "300"
		}
		g.pending = func() { u.role = params["role"] }
	}
	return Step{Actor: actor, Method: "PATCH", Path: path, User: u.name, Params: params}
}

type profileField struct{ name, valid, invalid string }

// profileFields are the custom profile fields of the fake's fixture, each with a valid value
// and one its type refuses.
var profileFields = []profileField{
	{"Website", `"https://example.com/me"`, `"not a link"`},
	{"Mentor", "[{user:member}]", "[987654321]"},
	{"Phone number", `"555 0100"`, `""`},
	{"Birthday", `"2000-01-31"`, `"yesterday"`},
}

// profileData sets one or two custom profile fields: a valid value, null (which removes
// that field's value alone) or an invalid one.
func (g *generator) profileData() string {
	var items []string
	for range 1 + g.rng.IntN(2) {
		f := pick(g, profileFields)
		value := pick(g, []string{f.valid, f.valid, "null"})
		if g.fault(25) { // each field's invalid value in turn
			name := strings.TrimPrefix(g.rotate("invalid:Website", "invalid:Mentor", "invalid:Phone number", "invalid:Birthday"), "invalid:")
			f = profileFields[slices.IndexFunc(profileFields, func(p profileField) bool { return p.name == name })]
			value = f.invalid
		}
		items = append(items, `{"id":{field:`+f.name+`},"value":`+value+`}`)
	}
	return "[" + strings.Join(items, ",") + "]"
}

// deactivateUser deactivates or reactivates an account the run created.
func (g *generator) deactivateUser() Step {
	actor := pick(g, []string{"owner", "administrator", "administrator"})
	if g.fault(25) {
		actor = "member"
	}
	if len(g.users) == 0 {
		return Step{Actor: actor, Method: "DELETE", Path: "/users/{user:nobody}"}
	}
	u := pick(g, g.users)
	if g.chance(40) {
		g.pending = func() { u.deactivated = false }
		return Step{Op: "reactivate_user", Actor: actor, Method: "POST", Path: "/users/{user:" + u.name + "}/reactivate", User: u.name}
	}
	g.pending = func() { u.deactivated = true }
	return Step{Actor: actor, Method: "DELETE", Path: "/users/{user:" + u.name + "}", User: u.name}
}

// moved records a move that succeeded: the message, the later ones of its topic or the whole
// topic now carry the new topic, or are in the new channel (a later resolve or unresolve,
// or a move back, starts from there).
func (g *generator) moved(m string, to moveTo, mode string) {
	n, _ := strconv.Atoi(m[1:])
	from := *g.messageAt(m)
	for i := range g.messages {
		same := g.messages[i].channel == from.channel && g.messages[i].topic == from.topic
		if i == n || same && (mode == "change_all" || mode == "change_later" && i > n) {
			if to.topic != nil {
				g.messages[i].topic = *to.topic
			}
			if to.channel != "" {
				g.messages[i].channel = to.channel
			}
		}
	}
}

// moveTo is where a move takes messages: a topic, a channel, or both.
type moveTo struct {
	topic   *string
	channel string
}

// moveOf is where an edit's parameters move its message, if anywhere.
func moveOf(params map[string]string, ch string) (moveTo, bool) {
	var to moveTo
	for _, k := range []string{"topic", "subject"} {
		if t, ok := params[k]; ok {
			to.topic = &t
		}
	}
	if ch != "" {
		to.channel = ch
	}
	return to, to.topic != nil || to.channel != ""
}

// createVcall creates a video call, as a holder of a token mostly, once the run gave any.
func (g *generator) createVcall() Step {
	if g.control && !g.vcallSet {
		// A fake has no video-call integration until configured: a call without it, then
		// configure it and call again.
		g.vcallSet = true
		again := operation{"create_vcall", 0, (*generator).createVcall}
		g.plan = append(g.plan, again, operation{"set_vcall_config", 0, func(*generator) Step {
			return configStep("set_vcall_config", map[string]string{"video_calls_configured": "true"})
		}}, again)
		return configStep("set_vcall_config", map[string]string{"video_calls_configured": "false"})
	}
	actor := g.actor()
	for _, a := range readers {
		if g.tokens[a] && g.chance(40) {
			actor = a
		}
	}
	return Step{Actor: actor, Method: "POST", Path: "/calls/vcall/create"}
}

// getRealm reads the registration's realm state: the limits the document tells clients to
// read there.
func (g *generator) getRealm() Step {
	return Step{Actor: g.actor(), Method: "POST", Path: "/register", Params: map[string]string{
		"event_types": `["realm"]`, "fetch_event_types": `["realm"]`}}
}

func (g *generator) getServerSettings() Step {
	return Step{Actor: pick(g, []string{"anonymous", "member"}), Method: "GET", Path: "/server_settings"}
}

// setEmailVisibility changes the email visibility new accounts get: the accounts the run
// creates afterwards show their email, or their dummy address, by the viewer's role. The run
// puts the realm's default back at its end.
// ownEmailVisibility has a human of the cast choose who may see its real email (PATCH
// /settings, from level 163), and then send to a channel, or a direct message: the messages'
// sender_email, avatar_url and display_recipient, and its presence, then read back as each
// viewer may see them. The sequence's end puts the old value back.
func (g *generator) ownEmailVisibility() Step {
	actor := pick(g, humans)
	value := g.rotate("1", "2", "3", "4", "5")
	if g.fault(10) {
		value = g.rotate("0", "6", "everyone")
	}
	g.plan = append(g.plan, operation{"send_message", 0, func(g *generator) Step {
		if g.chance(30) {
			return g.sendDirectAs(actor)
		}
		ch := g.channel()
		return g.sendTo(actor, ch, "topic "+strconv.Itoa(g.rng.IntN(5)), "visible "+strconv.Itoa(g.rng.IntN(1000)))
	}})
	return Step{Actor: actor, Method: "PATCH", Path: "/settings", Params: map[string]string{"email_address_visibility": value}}
}

func (g *generator) setEmailVisibility() Step {
	actor := pick(g, []string{"owner", "administrator", "administrator"})
	if g.fault(25) {
		actor = "member"
	}
	if actor != "member" {
		g.plan = append(g.plan, operation{"create_user", 0, (*generator).createUser}) // an account that gets it
	}
	return Step{Actor: actor, Method: "PATCH", Path: "/realm/user_settings_defaults",
		Params: map[string]string{"email_address_visibility": pick(g, []string{"1", "2", "3", "4", "5", "5", "9"})}}
}
