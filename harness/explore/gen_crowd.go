package explore

import (
	"slices"
	"strconv"
	"strings"
)

// crowdSize is one more subscriber than the document's "few" for wildcard mentions (15):
// a channel wildcard there is for those can_mention_many_users_group names.
const crowdSize = 16

// crowdedChannel fills a channel past the wildcard threshold, on a fake only (the accounts it
// needs would stay on a shared server): accounts until the cast and the run's own make
// crowdSize, a channel of all of them, then a message of one of its members and wildcard
// mentions in a new message and in an edit of that one. Drawn again, it mentions there again.
func (g *generator) crowdedChannel() Step {
	actor := pick(g, []string{"member", "member", "moderator", "administrator"})
	topic := "crowd " + strconv.Itoa(g.rng.IntN(3))
	mention := pick(g, []string{"@**all** look", "@**channel** look", "@**topic** look", "@_**all** silent"})
	plain := "text " + strconv.Itoa(g.rng.IntN(1000))
	ops := []operation{
		{"send_message", 0, func(g *generator) Step { return g.sendTo(actor, g.crowd, topic, plain) }},
		{"send_message", 0, func(g *generator) Step { return g.sendTo(actor, g.crowd, topic, mention) }},
		{"edit_message", 0, func(g *generator) Step { return g.editLatest(actor, plain, mention) }},
	}
	if g.crowd == "" {
		g.crowd = "c" + strconv.Itoa(g.nextChannel)
		g.nextChannel++
		var fill []operation
		for range max(0, crowdSize-len(readers)-len(g.active())) {
			fill = append(fill, operation{"create_user", 0, (*generator).createUser})
		}
		ops = append(append(fill, operation{"create_channel", 0, (*generator).fillCrowd}), ops...)
	}
	g.plan = append(g.plan, ops[1:]...)
	return ops[0].draw(g)
}

// fillCrowd creates the crowded channel with the whole cast and every account of the run.
func (g *generator) fillCrowd() Step {
	subs := map[string]bool{}
	var principals []string
	for _, a := range append(slices.Clone(readers), g.active()...) {
		subs[a] = true
		principals = append(principals, "{user:"+a+"}")
	}
	name := g.crowd
	g.pending = func() { g.channels = append(g.channels, channelInfo{name, false, subs}) }
	return Step{Op: "create_channel", Actor: "owner", Method: "POST", Path: "/users/me/subscriptions", Learn: name, Channel: name,
		Params: map[string]string{"subscriptions": subscriptionOf(name), "principals": "[" + strings.Join(principals, ",") + "]"}}
}

// editLatest edits the actor's latest live message of content to content2.
func (g *generator) editLatest(actor, content, content2 string) Step {
	m, info := missingMessage, messageInfo{}
	for i, msg := range g.messages {
		if msg.sender == actor && msg.content == content && !msg.deleted {
			m, info = messageRef(i), msg
		}
	}
	if m != missingMessage {
		g.pending = func() { g.messageAt(m).content = content2 }
	}
	return Step{Actor: actor, Method: "PATCH", Path: "/messages/{message" + m + "}", Message: m, Channel: info.channel,
		Params: map[string]string{"content": content2}}
}
