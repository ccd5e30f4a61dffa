package realm

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chatconform/chatconform/fakeserver/internal/clock"
	"github.com/chatconform/chatconform/fakeserver/internal/events"
	"github.com/chatconform/chatconform/fixtures"
)

// The message index (message_index.go) and the rows (message_rows.go) must always say what a
// scan of every stored message says. These tests change the realm every way it can change
// (sends, notices, flag changes, reactions through public history, moves within and across
// channels, deletions, topic deletion, marking read, a reset) and after each step rebuild the
// index from the messages and compare; then they compare every kind of narrowed fetch, at many
// anchors and windows, with a scan.

// indexFixture is the default realm with two more channels: design (public, not every user)
// and secret (private, protected history), so moves across channels add and drop rows.
func indexFixture() *fixtures.Fixture {
	f := fixtures.Default()
	protected := false
	f.Channels = append(f.Channels,
		fixtures.Channel{Name: "design", Subscribers: []int{1, 2, 4}},
		fixtures.Channel{Name: "secret", InviteOnly: true, HistoryPublicToSubscribers: &protected, Subscribers: []int{1, 3}},
	)
	return f
}

// nobody is a publisher without queues.
type nobody struct{}

func (nobody) Publish(events.Event, ...int)                                {}
func (nobody) PublishEach(func(int, events.Client) []events.Event, ...int) {}

func newIndexedRealm(t *testing.T) *State {
	t.Helper()
	f := indexFixture()
	return New(f, clock.New(time.Unix(f.Realm.StartTime, 0)), nobody{})
}

// rebuiltIndex is the index as a scan of every stored message gives it.
func rebuiltIndex(s *State) messageIndex {
	x := newMessageIndex()
	for id, m := range s.messages.all() {
		x.all = x.all.with(id)
		addTo(x.senders, m.SenderID, id)
		if m.IsDirect {
			key := joinInts(m.Participants)
			addTo(x.directs, key, id)
		} else {
			addTo(x.channels, m.ChannelID, id)
			if x.topics[m.ChannelID] == nil {
				x.topics[m.ChannelID] = map[string]idList{}
			}
			key := topicKeyOf(m.Topic)
			addTo(x.topics[m.ChannelID], key, id)
		}
		for _, row := range m.Rows {
			if row.flags&flagRead == 0 {
				addTo(x.unread, int(row.userID), id)
			}
			x.newest[int(row.userID)] = id
		}
	}
	return x
}

func equalLists[K comparable](a, b map[K]idList) bool {
	return maps.EqualFunc(a, b, func(x, y idList) bool { return slices.Equal(x.ids(), y.ids()) })
}

// checkIndex fails the test where the kept index differs from the rebuilt one, or a message's
// rows are out of order.
func checkIndex(t *testing.T, s *State, step string) {
	t.Helper()
	want, got := rebuiltIndex(s), s.index
	if !slices.Equal(got.all.ids(), want.all.ids()) {
		t.Errorf("%s: every id: kept %v, scan %v", step, got.all.ids(), want.all.ids())
	}
	for name, pair := range map[string][2]map[int]idList{
		"channels": {got.channels, want.channels}, "senders": {got.senders, want.senders}, "unread": {got.unread, want.unread},
	} {
		if !equalLists(pair[0], pair[1]) {
			t.Errorf("%s: %s: kept %v, scan %v", step, name, pair[0], pair[1])
		}
	}
	if !equalLists(got.directs, want.directs) {
		t.Errorf("%s: directs: kept %v, scan %v", step, got.directs, want.directs)
	}
	if !maps.Equal(got.newest, want.newest) {
		t.Errorf("%s: newest rows: kept %v, scan %v", step, got.newest, want.newest)
	}
	for _, ch := range slices.Sorted(maps.Keys(s.channels)) {
		if !equalLists(got.topics[ch], want.topics[ch]) {
			t.Errorf("%s: topics of channel %d: kept %v, scan %v", step, ch, got.topics[ch], want.topics[ch])
		}
	}
	for id, m := range s.messages.all() {
		if !slices.IsSortedFunc(m.Rows, func(a, b messageRow) int { return int(a.userID) - int(b.userID) }) ||
			len(slices.CompactFunc(slices.Clone(m.Rows), func(a, b messageRow) bool { return a.userID == b.userID })) != len(m.Rows) {
			t.Errorf("%s: message %d: rows not sorted and unique: %v", step, id, m.Rows)
		}
	}
}

// changeRealm changes the realm every way the index must follow, checking it after each step.
// It returns the realm's channel ids by name.
func changeRealm(t *testing.T, s *State) map[string]int {
	t.Helper()
	ch := map[string]int{}
	for name, c := range s.channelsByName {
		ch[name] = c.ID
	}
	// chanIDs[i] is channel message i: in general for even i, design for odd; in topic alpha,
	// Beta or gamma by i%3, spelled in capitals when i%4 is 3.
	var chanIDs []int
	send := func(sender int, d Draft) int {
		t.Helper()
		d.Client = "test"
		id, err := s.Send(sender, d)
		if err != nil {
			t.Fatalf("send %+v: %v", d, err)
		}
		return id
	}
	for i := range 36 {
		channel := []string{"general", "design"}[i%2]
		topic := []string{"alpha", "Beta", "gamma"}[i%3]
		if i%4 == 3 {
			topic = strings.ToUpper(topic)
		}
		sender := []int{1, 2, 4, 1, 2}[i%5]
		content := fmt.Sprint("message ", i)
		if i%9 == 0 {
			content += " @**all**"
		}
		chanIDs = append(chanIDs, send(sender, Draft{Channel: channel, Topic: topic, TopicGiven: true, Content: content}))
		if i%6 == 0 {
			send(sender, Draft{Direct: true, Recipients: []int{4}, Content: fmt.Sprint("direct ", i)})
			send(4, Draft{Direct: true, Recipients: []int{1, 2}, Content: fmt.Sprint("group ", i)})
		}
	}
	checkIndex(t, s, "sends")

	step := func(name string, err error) {
		t.Helper()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		checkIndex(t, s, name)
	}
	_, _, apiErr := s.UpdateFlags(4, chanIDs[:10], true, "read")
	step("user 4 reads ten", apiErr)
	_, _, apiErr = s.UpdateFlags(2, []int{chanIDs[0], chanIDs[3], chanIDs[5]}, false, "read")
	step("user 2 marks three unread", apiErr)
	_, _, apiErr = s.UpdateFlags(3, []int{chanIDs[1]}, true, "starred")
	step("user 3 stars a design message (a row from public history)", apiErr)
	step("user 3 reacts to design's newest message (a row from public history, their newest)",
		s.AddReaction(3, chanIDs[35], ReactionRequest{EmojiName: "smile"}))

	topic, resolved := "delta", ResolvedTopicPrefix+"alpha"
	general, design, secret := ch["general"], ch["design"], ch["secret"]
	_, apiErr = s.UpdateMessage(1, chanIDs[4], EditRequest{Topic: &topic, PropagateMode: ChangeLater, NotifyNewThread: true})
	step("move the later Beta messages of general to delta", apiErr)
	_, apiErr = s.UpdateMessage(1, chanIDs[0], EditRequest{Topic: &resolved, PropagateMode: ChangeAll})
	step("resolve alpha in general (a notice)", apiErr)
	beta := "beta"
	_, apiErr = s.UpdateMessage(1, chanIDs[1], EditRequest{StreamID: &general, Topic: &beta, PropagateMode: ChangeAll, NotifyNewThread: true})
	step("move design's Beta into general's beta (across case)", apiErr)
	_, apiErr = s.UpdateMessage(1, chanIDs[2], EditRequest{StreamID: &secret, PropagateMode: ChangeOne})
	step("move one message into the protected channel (rows dropped and added)", apiErr)
	_, apiErr = s.UpdateMessage(1, chanIDs[6], EditRequest{StreamID: &design, PropagateMode: ChangeOne})
	step("move one message back out into design", apiErr)

	step("delete a message", s.DeleteMessage(1, chanIDs[7]))
	_, apiErr = s.DeleteTopic(1, design, "gamma", Batching{BatchSize: 2, MaxBatches: 1})
	step("delete part of a topic (bounded)", apiErr)
	_, apiErr = s.DeleteTopic(1, design, "gamma", Batching{})
	step("delete the rest of the topic", apiErr)

	step("user 4 marks a topic read", s.MarkTopicAsRead(4, general, "delta"))
	step("user 2 marks a channel read", s.MarkChannelAsRead(2, design))
	s.MarkAllAsRead(4, Batching{BatchSize: 3, MaxBatches: 2})
	checkIndex(t, s, "user 4 marks all read (bounded)")

	// The newest message of several users goes: their newest row is found again.
	step("delete the realm's newest message", s.DeleteMessage(1, s.index.all.Last()))
	newestInGeneral := s.index.channels[general].Last()
	_, apiErr = s.UpdateMessage(1, newestInGeneral, EditRequest{StreamID: &secret, PropagateMode: ChangeOne})
	step("move general's newest message into the protected channel", apiErr)
	return ch
}

func TestMessageIndexFollowsEveryChange(t *testing.T) {
	s := newIndexedRealm(t)
	changeRealm(t, s)
	if s.index.unread[2].Len() == 0 || s.index.unread[4].Len() == 0 {
		t.Fatalf("the scenario should leave unread messages for users 2 and 4: %v", s.index.unread)
	}
	s.MarkAllAsRead(2, Batching{})
	checkIndex(t, s, "user 2 marks all read")
	if s.index.unread[2].Len() != 0 {
		t.Errorf("user 2 still has unread %v", s.index.unread[2])
	}
	s.Load(indexFixture())
	checkIndex(t, s, "reset")
	if s.index.all.Len() != 0 || len(s.index.unread) != 0 || len(s.index.senders) != 0 {
		t.Errorf("a reset left %+v", s.index)
	}
	changeRealm(t, s)
}

// scanWindow is the GET /messages window by the definition: every message the narrow matches,
// in order, cut around the anchor.
func scanWindow(s *State, f *narrowFilter, q MessageQuery) (ids []int, anchor int, foundAnchor, foundOldest, foundNewest bool) {
	var all []int
	for id := range s.messages.all() {
		if m := s.messages.get(id); f.candidate(m) && f.matches(m) {
			all = append(all, id)
		}
	}
	anchor = idOfAnchor(q.Anchor)
	if anchor == AnchorFirstUnread {
		anchor = LargerThanMaxMessageID
		if i := slices.IndexFunc(all, func(id int) bool { return !flagsOf(s.messages.get(id), f.viewer.ID).has("read") }); i >= 0 {
			anchor = all[i]
		}
	}
	split, _ := slices.BinarySearch(all, anchor)
	before, rest := all[:split], all[split:]
	var at []int
	if len(rest) > 0 && rest[0] == anchor {
		foundAnchor, rest = true, rest[1:]
		if q.IncludeAnchor {
			at = []int{anchor}
		}
	}
	foundOldest, foundNewest = len(before) <= q.NumBefore, len(rest) <= q.NumAfter
	before, rest = before[max(0, len(before)-q.NumBefore):], rest[:min(len(rest), q.NumAfter)]
	return slices.Concat(before, at, rest), anchor, foundAnchor, foundOldest, foundNewest
}

func TestNarrowedFetchesEqualAScan(t *testing.T) {
	s := newIndexedRealm(t)
	ch := changeRealm(t, s)
	term := func(op, operand string) NarrowTerm { return NarrowTerm{Operator: op, Operand: operand} }
	not := func(t NarrowTerm) NarrowTerm { t.Negated = true; return t }
	narrows := [][]NarrowTerm{
		nil,
		{term("channel", "general")},
		{term("channel", fmt.Sprint(ch["design"]))},
		{term("channel", "secret")},
		{term("channel", "general"), term("topic", "BETA")},
		{term("channel", "general"), term("topic", ResolvedTopicPrefix+"alpha")},
		{term("channel", "design"), term("topic", "gamma")},
		{term("topic", "delta")},
		{term("sender", "2")},
		{term("sender", "1"), term("channel", "general")},
		{term("sender", "4"), not(term("channel", "general"))},
		{term("is", "unread")},
		{term("is", "unread"), term("channel", "design")},
		{not(term("is", "unread"))},
		{term("is", "starred")},
		{term("is", "dm")},
		{{Operator: "dm", Operand: []any{"4"}}},
		{{Operator: "dm", Operand: "2,4"}},
		{{Operator: "dm", Operand: []any{"5"}}},
		{not(NarrowTerm{Operator: "dm", Operand: []any{"4"}}), term("is", "dm")},
		{term("dm-including", "2")},
		{term("search", "message")},
		{not(term("channel", "general")), term("sender", "1")},
	}
	maxID := s.nextMessage
	anchors := []int{AnchorNewest, AnchorOldest, AnchorFirstUnread, 0, 1, maxID / 3, maxID / 2, maxID, maxID + 5, LargerThanMaxMessageID}
	windows := [][2]int{{0, 0}, {1, 0}, {0, 1}, {3, 3}, {5, 0}, {0, 5}, {1000, 1000}}
	compared := 0
	for _, viewer := range []int{1, 2, 3, 4, 5} {
		for _, narrow := range narrows {
			f, err := s.compileNarrow(s.users[viewer], narrow)
			if err != nil {
				continue // a channel the viewer cannot see: no window to compare
			}
			for _, anchor := range anchors {
				for _, w := range windows {
					for _, include := range []bool{true, false} {
						q := MessageQuery{Anchor: anchor, NumBefore: w[0], NumAfter: w[1], IncludeAnchor: include, Narrow: narrow}
						got, apiErr := s.Messages(viewer, q)
						if apiErr != nil {
							t.Fatalf("user %d, narrow %v: %v", viewer, narrow, apiErr)
						}
						var gotIDs []int
						for _, m := range got.Messages {
							gotIDs = append(gotIDs, m.ID)
						}
						ids, a, fa, fo, fn := scanWindow(s, f, q)
						if !slices.Equal(gotIDs, ids) || got.Anchor != a || got.FoundAnchor != fa || got.FoundOldest != fo || got.FoundNewest != fn {
							t.Errorf("user %d, narrow %v, anchor %d, window %v, include %v:\n indexed %v anchor %d found anchor/oldest/newest %v %v %v\n scan    %v anchor %d found anchor/oldest/newest %v %v %v",
								viewer, narrow, anchor, w, include, gotIDs, got.Anchor, got.FoundAnchor, got.FoundOldest, got.FoundNewest, ids, a, fa, fo, fn)
						}
						compared++
					}
				}
			}
		}
	}
	if compared < 5000 {
		t.Errorf("only %d windows compared", compared)
	}
}
