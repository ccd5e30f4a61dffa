package explore

import (
	"cmp"
	"slices"
	"strconv"
)

// controlOperations are drawn only against a target with the control capabilities (a fake):
// they move the clock past the realm's time limits and change those limits, hand out and take
// back video-call tokens, configure the video-call integration and bound the batches of
// delete-topic and mark-all-as-read, as the specs do through the control API.
var controlOperations = []operation{
	{"advance_clock", 4, (*generator).advanceClock},
	{"set_edit_limit", 3, (*generator).setEditLimit},       // LIMIT-05, LIMIT-06, LIMIT-07
	{"set_group_setting", 4, (*generator).setGroupSetting}, // AUTH-15, AUTH-16, AUTH-17, EVENT-04
	{"set_vcall_token", 2, (*generator).setVcallToken},
	{"set_vcall_config", 1, (*generator).setVcallConfig},
	{"set_batches", 2, (*generator).setBatches},
	{"set_push_config", 1, (*generator).setPushConfig},
	{"create_vcall", 2, (*generator).createVcall}, // operation 21, now that tokens exist
	{"delete_topic", 2, (*generator).deleteTopic}, // operation 8, long enough to stop early
	{"mark_all_as_read", 1, (*generator).markAllAsRead},
	{"crowded_channel", 1, (*generator).crowdedChannel}, // wildcard mentions past the threshold
}

// editLimits are the realm's time limits on editing, moving and deleting messages.
var editLimits = []string{"message_content_edit_limit_seconds", "move_messages_within_stream_limit_seconds",
	"move_messages_between_streams_limit_seconds", "message_content_delete_limit_seconds"}

// advanceClock moves both clocks forward: often by a limit the run set, at it and one past,
// so that the messages sent before are exactly at the bound, or just older; where the run
// explores presence, past the days presence data covers.
func (g *generator) advanceClock() Step {
	advance := pick(g, []int{1, 30, 601, 3601, 86401, 259201})
	switch {
	case len(g.limits) > 0 && g.chance(60):
		advance = pick(g, g.limits) + g.rng.IntN(2)
	case g.presence && g.chance(30):
		// Presence reported before is then between 13 and 14 days old, or older than the 14
		// days presence data covers by default (history_limit_days).
		advance = pick(g, []int{13*86400 + 43200, 15 * 86400})
	}
	return g.advanceBy(advance)
}

func (g *generator) advanceBy(seconds int) Step {
	return Step{Op: "advance_clock", Actor: "owner", Control: true, Method: "POST", Path: "/_fake/clock",
		Params: map[string]string{"advance": strconv.Itoa(seconds)}}
}

// setMoveLimits sets the two move time limits, as the owner: one to 600 seconds, the other
// to an hour, so that a move after 600 seconds is refused of one kind only.
func (g *generator) setMoveLimits() Step {
	short, long := editLimits[1], editLimits[2]
	if g.chance(50) {
		short, long = long, short
	}
	g.pending = func() { g.limits = append(g.limits, 600, 3600) }
	return Step{Actor: "owner", Method: "PATCH", Path: "/realm", Params: map[string]string{short: "600", long: "3600"}}
}

// setEditLimit changes one of the realm's editing time limits (PATCH /realm), mostly as an
// administrator, now and then as one who may not or to a value it refuses.
func (g *generator) setEditLimit() Step {
	name := pick(g, editLimits)
	limit := pick(g, []int{60, 600, 3600, 86400})
	value := strconv.Itoa(limit)
	switch {
	case g.chance(12):
		value = "unlimited"
	case g.fault(12):
		value = g.rotate("0", "-60", "soon")
	}
	if value == strconv.Itoa(limit) {
		g.pending = func() { g.limits = append(g.limits, limit) }
	}
	actor := pick(g, []string{"owner", "administrator", "administrator"})
	if g.fault(40) {
		actor = pick(g, []string{"moderator", "member"})
	}
	return Step{Actor: actor, Method: "PATCH", Path: "/realm",
		Params: map[string]string{name: value}}
}

// groupSettings are the realm's group settings that govern editing: who may resolve topics,
// move messages within and between channels, and mention everyone in a crowded channel.
var groupSettings = []string{"can_resolve_topics_group", "can_move_messages_between_topics_group", "can_move_messages_between_channels_group",
	"can_mention_many_users_group"}

// setGroupSetting gives one of them to a group of the run, or to one human of the cast (an
// anonymous group), as the owner mostly, and then someone acts under it: a move of the kind
// it governs (a mention of everyone in the crowded channel, for mentions), in a channel the
// mover is subscribed to, by the one it names or by another. The sequence's end puts the old
// value back.
func (g *generator) setGroupSetting() Step {
	name := pick(g, groupSettings)
	named := pick(g, humans)
	value := `{"direct_members":[{user:` + named + `}],"direct_subgroups":[]}`
	if len(g.groups) > 0 && g.chance(50) {
		i := g.rng.IntN(len(g.groups))
		value = "{group#" + strconv.Itoa(i) + "}"
		named = "" // one of its members the run can act as
		for _, m := range g.groups[i].members {
			if slices.Contains(humans, m) && (named == "" || g.chance(50)) {
				named = m
			}
		}
	}
	actor := "owner"
	if g.fault(25) {
		actor = pick(g, []string{"moderator", "member"})
	}
	if name == "can_mention_many_users_group" && g.crowd != "" {
		g.plan = append(g.plan, operation{"send_message", 0, func(g *generator) Step {
			return g.sendTo(pick(g, []string{cmp.Or(named, "member"), "member", "moderator"}), g.crowd, "crowd 0", "@**all** now")
		}})
	} else {
		kind := map[string]int{"can_resolve_topics_group": moveResolve, "can_move_messages_between_topics_group": moveTopic,
			"can_move_messages_between_channels_group": moveChannel}[name]
		g.plan = append(g.plan, operation{"edit_message", 0, func(g *generator) Step { return g.moveUnder(kind, named) }})
	}
	return Step{Actor: actor, Method: "PATCH", Path: "/realm", Params: map[string]string{name: `{"new":` + value + `}`}}
}

// moveUnder moves a message of a channel, mostly as one of its subscribers: half the time the
// one a group setting just named, else another.
func (g *generator) moveUnder(kind int, named string) Step {
	mover := pick(g, humans)
	if named != "" && g.chance(50) {
		mover = named
	}
	var mine []int
	for i, m := range g.messages {
		if info := g.channelNamed(m.channel); info != nil && info.subscribers[mover] && !m.deleted {
			mine = append(mine, i)
		}
	}
	if len(mine) == 0 {
		_, info := g.message()
		return g.moveIn(info.channel, info.topic, kind, mover)
	}
	m := g.messages[pick(g, mine)]
	return g.moveIn(m.channel, m.topic, kind, mover)
}

// setVcallToken gives an actor a token from the video-call provider, or takes it back: the
// actor reads back has_vcall_token, and its event queue gets the event.
func (g *generator) setVcallToken() Step {
	who := pick(g, readers)
	has := g.chance(65)
	g.pending = func() { g.tokens[who] = has }
	return Step{Actor: who, Control: true, Method: "POST", Path: "/_fake/vcall_token",
		Params: map[string]string{"user_id": "{user:" + who + "}", "has_token": strconv.FormatBool(has)}}
}

// setVcallConfig configures the video-call integration, or takes it away.
func (g *generator) setVcallConfig() Step {
	return configStep("set_vcall_config", map[string]string{"video_calls_configured": strconv.FormatBool(g.chance(80))})
}

// setBatches bounds the work of one delete-topic or mark-all-as-read request to a few
// batches of a few messages, as the real server's time budget does: a topic of the run's
// messages then takes more than one request (complete = false until the last).
func (g *generator) setBatches() Step {
	return configStep("set_batches", map[string]string{"delete_batch_size": pick(g, []string{"1", "2", "3"}), "max_batches_per_request": pick(g, []string{"1", "2", "0"})})
}

// setPushConfig gives the server a push notification service, mostly, or takes it away:
// registrations go past PUSH_SERVICE_NOT_CONFIGURED to the rules of operation 7.
func (g *generator) setPushConfig() Step {
	return configStep("set_push_config", map[string]string{"push_configured": strconv.FormatBool(g.chance(85))})
}

// exploreJWTKey is the key a control step gives both fakes: the run signs tokens with it.
const exploreJWTKey = "chatconform-explore-jwt-key"

// setJWTKey gives the fake a JWT key the run knows, so that its tokens log users in.
func (g *generator) setJWTKey() Step {
	return configStep("set_jwt_key", map[string]string{"jwt_key": exploreJWTKey})
}

// configStep changes the fake's configuration as the owner (PATCH /_fake/config).
func configStep(op string, params map[string]string) Step {
	return Step{Op: op, Actor: "owner", Control: true, Method: "PATCH", Path: "/_fake/config", Params: params}
}
