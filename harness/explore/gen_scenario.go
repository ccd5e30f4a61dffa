package explore

import (
	"strconv"
	"strings"
)

// Scenarios are operations of several steps: the first is returned, the rest queued in the
// generator's plan, drawn next. They build the preconditions single steps meet too rarely in
// a few hundred steps: a topic several senders wrote in before one of them moves part of it.

// sharedTopicMove sends to a fresh topic of a channel as two of its subscribers in turn, now
// and then lets the move time limit pass between the messages (against a fake), and then
// moves one of them: by one sender over the other's messages, with every propagate_mode.
func (g *generator) sharedTopicMove() Step {
	if len(g.channels) == 0 {
		return g.createChannel()
	}
	ch := pick(g, g.channels).name
	a, b := g.subscriberOf(ch), g.subscriberOf(ch)
	if info := g.channelNamed(ch); g.chance(60) {
		// Mostly one the time limits hold (not a moderator) moves.
		for _, who := range []string{"guest", "member"} {
			if info.subscribers[who] {
				a = who
			}
		}
	}
	if a == "" || a == b {
		b = pick(g, []string{"member", "moderator", "guest"})
	}
	if a == "" {
		a = "owner"
	}
	g.nextName++
	topic := "thread " + strconv.Itoa(g.nextName)
	send := func(actor string) operation {
		return operation{"send_message", 0, func(g *generator) Step { return g.sendTo(actor, ch, topic, "text "+strconv.Itoa(g.rng.IntN(1000))) }}
	}
	second := send(a)
	if g.chance(25) { // a topic wildcard, which reaches the topic's other sender
		second = operation{"send_message", 0, func(g *generator) Step { return g.sendTo(a, ch, topic, "@**topic** look") }}
	}
	g.plan = append(g.plan, send(b))
	if g.control && g.chance(50) {
		g.plan = append(g.plan, operation{"set_edit_limit", 0, (*generator).setMoveLimits},
			operation{"advance_clock", 0, func(g *generator) Step { return g.advanceBy(600 + g.rng.IntN(2)) }})
	}
	g.plan = append(g.plan, second, operation{"edit_message", 0, func(g *generator) Step { return g.moveIn(ch, topic, moveAny, a, b) }})
	return send(a).draw(g)
}

// The kinds of move moveIn makes: any of them (a topic move most often), or one.
const (
	moveAny = iota
	moveResolve
	moveChannel
	moveTopic
)

// moveIn moves a message of the channel's topic, mostly the middle one (messages before and
// after it, of both senders), as one of the topic's senders or someone else: to another
// topic, resolved, or to another channel.
func (g *generator) moveIn(ch, topic string, kind int, senders ...string) Step {
	var in []int
	for i, m := range g.messages {
		if m.channel == ch && m.topic == topic && !m.deleted {
			in = append(in, i)
		}
	}
	m, info := g.message()
	if len(in) > 0 {
		i := in[len(in)/2]
		if g.chance(25) {
			i = in[0]
		}
		m, info = messageRef(i), g.messages[i]
	}
	params := map[string]string{"propagate_mode": pick(g, []string{"change_later", "change_later", "change_all", "change_all", "change_one"})}
	moveCh := ""
	if kind == moveAny {
		kind = min(moveResolve+g.rng.IntN(5), moveTopic)
	}
	switch kind {
	case moveResolve: // or unresolve a resolved topic
		params["topic"] = "✔ " + info.topic
		if unresolved, ok := strings.CutPrefix(info.topic, "✔ "); ok {
			params["topic"] = unresolved
		}
	case moveChannel:
		moveCh = g.channelOtherThan(ch)
		params["stream_id"] = "{channel:" + moveCh + "}"
	default:
		params["topic"] = g.topicOtherThan(info.topic)
	}
	if to, ok := moveOf(params, moveCh); ok && m != missingMessage && moveCh != "nowhere" {
		mode := params["propagate_mode"]
		g.pending = func() { g.moved(m, to, mode) }
	}
	actor := pick(g, senders)
	if g.chance(40) {
		actor = pick(g, []string{"moderator", "administrator", "guest"})
	}
	return Step{Actor: actor, Method: "PATCH", Path: "/messages/{message" + m + "}", Message: m, Channel: ch, Params: params}
}

// protectedHistory makes a channel whose history is not public to subscribers, sends to it as
// a subscriber, subscribes a newcomer, and lets the newcomer reach for what came before: the
// old message fetched, the channel's topics, a reminder of it, a whole-topic move over it;
// then a message after, which the newcomer may see.
func (g *generator) protectedHistory() Step {
	name := "c" + strconv.Itoa(g.nextChannel)
	g.nextChannel++
	sender := pick(g, []string{"member", "administrator"})
	newcomer := pick(g, []string{"guest", "moderator", "member"})
	if newcomer == sender {
		newcomer = "guest"
	}
	g.nextName++
	topic := "before " + strconv.Itoa(g.nextName)
	reach := g.rng.IntN(4)
	send := func(content string) operation {
		return operation{"send_message", 0, func(g *generator) Step { return g.sendTo(sender, name, topic, content) }}
	}
	oldest := func() string { // the channel's first message, as the newcomer names it
		for i, m := range g.messages {
			if m.channel == name && !m.deleted {
				return messageRef(i)
			}
		}
		return missingMessage
	}
	g.plan = append(g.plan, send("old text"), send("old text 2"),
		operation{"add_subscriber", 0, func(g *generator) Step {
			g.pending = func() { g.subscribed(name, true, newcomer) }
			return Step{Actor: "owner", Method: "POST", Path: "/users/me/subscriptions", Channel: name,
				Params: map[string]string{"subscriptions": subscriptionOf(name), "principals": "[{user:" + newcomer + "}]"}}
		}},
		operation{"reach_back", 0, func(g *generator) Step {
			m := oldest()
			switch reach {
			case 0:
				return Step{Op: "fetch_message", Actor: newcomer, Method: "GET", Path: "/messages/{message" + m + "}", Params: map[string]string{"apply_markdown": "false"}}
			case 1:
				return Step{Op: "get_topics", Actor: newcomer, Method: "GET", Path: "/users/me/{channel:" + name + "}/topics"}
			case 2:
				return Step{Op: "create_reminder", Actor: newcomer, Method: "POST", Path: "/reminders", Message: m,
					Params: map[string]string{"message_id": "{message" + m + "}", "scheduled_delivery_timestamp": "{now+3600}"}}
			}
			after := "after " + strconv.Itoa(g.nextName)
			if m != missingMessage {
				g.pending = func() { g.moved(m, moveTo{topic: &after}, "change_all") }
			}
			return Step{Op: "edit_message", Actor: newcomer, Method: "PATCH", Path: "/messages/{message" + m + "}", Message: m, Channel: name,
				Params: map[string]string{"topic": after, "propagate_mode": "change_all"}}
		}},
		send("new text"))
	g.pending = func() {
		g.channels = append(g.channels, channelInfo{name, true, map[string]bool{"owner": true, sender: true}})
	}
	return Step{Op: "create_channel", Actor: "owner", Method: "POST", Path: "/users/me/subscriptions", Learn: name, Channel: name,
		Params: map[string]string{
			"subscriptions":                 subscriptionOf(name),
			"principals":                    "[{user:owner},{user:" + sender + "}]",
			"invite_only":                   "true",
			"history_public_to_subscribers": "false",
		}}
}

// sharedFile has a file linked by two subscribers of a channel: its uploader first, so that
// the second link is one the other may make, then the second. Then the second link is edited
// away (the file still referenced), and the uploader either edits its own link away (the
// last: the edit detaches the file) or not, and deletes the attachment, referenced or not.
func (g *generator) sharedFile() Step {
	if len(g.channels) == 0 {
		return g.createChannel()
	}
	ch := pick(g, g.channels).name
	a, b := g.subscriberOf(ch), g.subscriberOf(ch)
	if a == "" || a == "bot" {
		a = "owner"
	}
	if b == "" || b == a {
		b = "administrator"
		if a == b {
			b = "member"
		}
	}
	g.nextName++
	file := "f" + strconv.Itoa(g.nextName)
	link := "the file [" + file + "](/user_uploads/{upload:" + file + "})"
	topic := "file " + strconv.Itoa(g.nextName)
	send := func(actor string) operation {
		return operation{"send_message", 0, func(g *generator) Step {
			st := g.sendTo(actor, ch, topic, link+" from "+actor)
			st.Upload = file
			return st
		}}
	}
	unlink := func(actor string) operation {
		return operation{"edit_message", 0, func(g *generator) Step {
			st := g.editLatest(actor, link+" from "+actor, "no file now")
			st.Upload = file
			return st
		}}
	}
	g.plan = append(g.plan, send(a), send(b), unlink(b))
	if g.chance(50) {
		g.plan = append(g.plan, unlink(a))
	}
	g.plan = append(g.plan, operation{"delete_attachment", 0, func(*generator) Step {
		return Step{Actor: a, Method: "DELETE", Path: "/attachments/{attachment:" + file + "}", Upload: file}
	}})
	g.pending = func() { g.uploads = append(g.uploads, upload{file, a}) }
	return Step{Op: "upload_file", Actor: a, Method: "POST", Path: "/user_uploads", Learn: "upload:" + file, Upload: file,
		Params: map[string]string{"@file": file + ".txt"}}
}
