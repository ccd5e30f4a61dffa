package realm

import (
	"fmt"
	"maps"
	"net/url"
	"slices"
	"strings"

	"github.com/chatconform/chatconform/fakeserver/internal/apierr"
	"github.com/chatconform/chatconform/fakeserver/internal/events"
	"github.com/chatconform/chatconform/fakeserver/internal/mutation"
)

// resolveUndoSeconds is how soon after a resolve notice an unresolve (or the reverse) deletes
// that notice instead of posting another, as the real server's grace period does.
const resolveUndoSeconds = 60

// topicMessages are the messages of a channel's topic (case-insensitive) that u can read,
// oldest first.
func (s *MessageState) topicMessages(u *User, channelID int, topic string) []*Message {
	var out []*Message
	for _, id := range s.topicMessageIDs(channelID, topic) {
		if m := s.messages.get(id); s.canRead(u, m) {
			out = append(out, m)
		}
	}
	return out
}

// checkWholeTopicTimeLimit is the real server's rule for change_all by a user who is not a
// moderator: when part of the topic (as far as the user can see it) is older than the
// applicable move limit, the move is refused with how much the user may move instead.
func (s *MessageState) checkWholeTopicTimeLimit(p *editPlan) error {
	var deadline *int64
	consider := func(limit *int) {
		if limit == nil {
			return
		}
		d := int64(*limit) + editGraceSeconds
		if deadline == nil || d < *deadline {
			deadline = &d
		}
	}
	within, between := s.org.moveLimits()
	if p.topic != nil {
		consider(within)
	}
	if p.toChannel != nil {
		consider(between)
	}
	if deadline == nil {
		return nil
	}
	all := s.topicMessages(p.editor, p.target.ChannelID, p.target.Topic)
	if mutation.On("whole-topic-limit-counts-inaccessible") {
		all = s.everyTopicMessage(p.target.ChannelID, p.target.Topic)
	}
	oldest := s.Now() - *deadline
	var allowed []*Message
	for _, m := range all {
		if m.Timestamp > oldest {
			allowed = append(allowed, m)
		}
	}
	if len(allowed) == len(all) {
		return nil
	}
	slices.SortStableFunc(allowed, func(a, b *Message) int { return int(a.Timestamp - b.Timestamp) })
	var first any
	if len(allowed) > 0 {
		first = allowed[0].ID
	}
	if mutation.On("first-movable-id-newest") && len(allowed) > 0 {
		first = allowed[len(allowed)-1].ID
	}
	if mutation.On("movable-count-off-by-one") {
		allowed = append(allowed, nil)
	}
	return apierr.Of(apierr.KindInvalid, "MOVE_MESSAGES_TIME_LIMIT_EXCEEDED",
		"You only have permission to move the %d/%d most recent messages in this topic.", len(allowed), len(all)).
		With("first_message_id_allowed_to_move", first).
		With("total_messages_allowed_to_move", len(allowed)).
		With("total_messages_in_topic", len(all))
}

// messagesToMove selects the messages a move changes: the target alone (change_one), the
// target and every later message of its topic (change_later) or the whole topic
// (change_all), as far as the editor can read them.
func (s *MessageState) messagesToMove(p *editPlan) []*Message {
	if p.req.PropagateMode == ChangeOne {
		return []*Message{p.target}
	}
	if mutation.On("change-all-spares-earlier") && p.req.PropagateMode == ChangeAll {
		p.req.PropagateMode = ChangeLater
	}
	if mutation.On("change-all-moves-own-messages-only") && p.req.PropagateMode == ChangeAll {
		return sentBy(s.topicMessages(p.editor, p.target.ChannelID, p.target.Topic), p.editor.ID)
	}
	if mutation.On("change-later-moves-whole-topic") && p.req.PropagateMode == ChangeLater {
		return s.topicMessages(p.editor, p.target.ChannelID, p.target.Topic)
	}
	if mutation.On("move-takes-inaccessible") && p.req.PropagateMode == ChangeAll {
		return s.everyTopicMessage(p.target.ChannelID, p.target.Topic)
	}
	var out []*Message
	for _, m := range s.topicMessages(p.editor, p.target.ChannelID, p.target.Topic) {
		if p.req.PropagateMode == ChangeAll || (m.ID >= p.target.ID) != mutation.On("change-later-moves-earlier") || m == p.target {
			out = append(out, m)
		}
	}
	return out
}

// applyEdit carries out a checked edit: content, topic and channel, edit history, rows,
// events, topic visibility settings and the notification bot's notices.
func (s *MessageState) applyEdit(p *editPlan) []DetachedUpload {
	now, m, editor := s.Now(), p.target, p.editor
	entry := EditEntry{UserID: editor.ID, Timestamp: now}
	detached := []DetachedUpload{}
	var orig struct{ content, rendered string }
	if p.contentEdit {
		orig.content, orig.rendered = m.Content, m.Rendered
		entry.PrevContent, entry.PrevRendered = &orig.content, &orig.rendered
		if mutation.On("prev-rendered-content-inline") {
			entry.PrevRendered = inlineHTML(orig.rendered)
		}
		if mutation.On("edit-history-without-prev-content") {
			entry.PrevContent, entry.PrevRendered = nil, nil
		}
		m.Content, m.Rendered, m.LastEditTime = sharedContent(*p.content, p.rendered.html), p.rendered.html, now
		if mutation.On("content-edit-rendered-stale") {
			m.Rendered = orig.rendered
		}
		s.applyMentionFlags(m, p.rendered.mentions)
		detached = s.uploads.afterContentEdited(m, orig.content)
	}
	if m.IsDirect {
		m.EditHistory = append(m.EditHistory, entry)
		if ev := s.updateEvent(p, now, orig.content, orig.rendered); ev != nil {
			ev["message_ids"] = []int{m.ID}
			audience := s.messageAudience(m)
			if mutation.On("direct-edit-event-to-everyone") {
				audience = s.accts.activeUserIDs()
			}
			s.publishUpdate(ev, m, audience)
		}
		return detached
	}

	from, to := p.fromChannel, p.targetChannel()
	oldTopic, newTopic := m.Topic, p.targetTopic()
	// The audience is taken before a move to another channel changes the rows; without one,
	// it is the same after, and it is taken only for an event that is built.
	var audience []int
	if p.toChannel != nil {
		audience = s.messageAudience(m)
	}
	moved := []*Message{m}
	if p.moved {
		moved = s.messagesToMove(p)
		if !slices.Contains(moved, m) {
			moved = append(moved, m)
		}
	}
	ids := make([]int, 0, len(moved))
	s.moveIndexed(moved, func(mm *Message) {
		e := EditEntry{UserID: editor.ID, Timestamp: now}
		if mm == m {
			e = entry
		}
		if p.toChannel != nil {
			e.PrevStream, e.Stream = from.ID, to.ID
			mm.ChannelID, mm.RecipientID = to.ID, to.RecipientID
		}
		if p.topic != nil {
			prev, next := mm.Topic, newTopic
			e.PrevTopic, e.Topic = &prev, &next
			mm.Topic = newTopic
		}
		mm.EditHistory = append(mm.EditHistory, e)
		if mutation.On("resolve-sets-last-moved") && (p.resolved || p.unresolved) {
			mm.LastMoveTime = now
		}
		if p.toChannel != nil || (p.topic != nil && !p.resolved && !p.unresolved && !mutation.On("last-moved-channel-moves-only")) {
			mm.LastMoveTime = now
		}
		ids = append(ids, mm.ID)
	})
	if movedTopicsKept() {
		s.keepEmptiedTopics(movedFrom(moved, from.ID, oldTopic))
	}
	slices.Sort(ids)
	losing := []int{}
	if p.toChannel != nil {
		losing = s.moveRows(moved, from, to)
		if !mutation.On("move-event-to-users-losing-access") {
			audience = slices.DeleteFunc(audience, func(id int) bool { return slices.Contains(losing, id) })
		}
		for _, id := range s.messageAudience(m) {
			if !slices.Contains(audience, id) {
				audience = append(audience, id)
			}
		}
		if len(losing) > 0 {
			readable := make(map[int][]int, len(losing))
			for _, id := range losing {
				readable[id] = ids
			}
			s.publishDeletion(readable, from, oldTopic)
		}
		s.refreshFirstMessageID(from)
		s.refreshFirstMessageID(to)
	}
	if ev := s.updateEvent(p, now, orig.content, orig.rendered); ev != nil {
		ev["stream_id"], ev["stream_name"] = from.ID, from.Name
		if p.moved {
			ev["propagate_mode"] = p.req.PropagateMode
		}
		if p.toChannel != nil {
			ev["new_stream_id"] = to.ID
		}
		if p.topic != nil {
			links := "topic_links"
			if !s.atLeast(LevelTopicNames) {
				links = "subject_links"
			}
			ev["orig_subject"], ev["subject"], ev[links] = oldTopic, newTopic, s.org.topicLinks(newTopic)
		}
		ev["message_ids"] = ids
		if p.toChannel == nil {
			audience = s.messageAudience(m)
		}
		slices.Sort(audience)
		s.publishUpdate(ev, m, audience)
	}
	if !p.moved {
		return detached
	}
	movedAll := p.req.PropagateMode == ChangeAll || len(s.topicMessages(editor, from.ID, oldTopic)) == 0
	if movedAll {
		s.moveTopicVisibility(from, oldTopic, to, newTopic, losing)
	}
	s.sendMoveNotices(p, moved, movedAll, from, oldTopic, to, newTopic)
	return detached
}

// updateEvent is the start of an edit's update_message event, the fields of every edit; nil
// when no queue exists (events.Idler), so that an edit builds no event for nobody. origContent
// and origRendered are the content before a content edit.
func (s *MessageState) updateEvent(p *editPlan, now int64, origContent, origRendered string) events.Event {
	if s.noQueues() {
		return nil
	}
	m := p.target
	ev := events.Event{
		"type": "update_message", "user_id": p.editor.ID, "edit_timestamp": now, "message_id": m.ID, "rendering_only": false,
	}
	if p.contentEdit {
		ev["orig_content"], ev["orig_rendered_content"] = origContent, origRendered
		ev["content"], ev["rendered_content"] = m.Content, m.Rendered
		ev["is_me_message"] = strings.HasPrefix(m.Content, "/me ")
	}
	return ev
}

// publishUpdate sends an update_message event to each user with their flags for the message,
// built only for the queues that exist.
func (s *MessageState) publishUpdate(ev events.Event, m *Message, userIDs []int) {
	s.events.PublishEach(func(id int, _ events.Client) []events.Event {
		each := maps.Clone(ev)
		each["flags"] = viewFlags(m, id)
		return []events.Event{each}
	}, userIDs...)
}

// moveRows updates the per-user rows of messages moved from one channel to another, as the
// real server does: subscribers of the old channel who are not subscribed to the new one
// lose their rows, and a new channel with protected history gives its subscribers rows
// (read). It returns the users who lost access to the messages.
func (s *MessageState) moveRows(moved []*Message, from, to *Channel) []int {
	var losingRows, losingAccess []int
	for id := range from.Subscribers {
		if to.subscribed(s.accts.users[id]) {
			continue
		}
		losingRows = append(losingRows, id)
		if to.InviteOnly || s.accts.users[id].IsGuest() {
			losingAccess = append(losingAccess, id)
		}
	}
	for _, mm := range moved {
		for _, id := range losingRows {
			if id != mm.SenderID || to.InviteOnly {
				s.dropRow(mm, id)
			}
		}
		if !to.HistoryPublicToSubscribers {
			for id := range to.Subscribers {
				if !mm.Rows.has(id) {
					s.putRow(mm, id, flagRead)
				}
			}
		}
	}
	slices.Sort(losingAccess)
	return losingAccess
}

// moveTopicVisibility carries users' visibility settings of a topic that moved entirely
// over to its new place; users who lost access lose the setting.
func (s *MessageState) moveTopicVisibility(from *Channel, oldTopic string, to *Channel, newTopic string, losing []int) {
	if from == to && strings.EqualFold(oldTopic, newTopic) {
		return
	}
	for userID, list := range s.userData.userTopics {
		for _, t := range list {
			if t.ChannelID != from.ID || !strings.EqualFold(t.Topic, oldTopic) {
				continue
			}
			policy := t.Policy
			s.userData.setTopicVisibility(userID, from, t.Topic, VisibilityInherit)
			if !slices.Contains(losing, userID) {
				s.userData.setTopicVisibility(userID, to, newTopic, policy)
			}
			break
		}
	}
}

// sendMoveNotices posts the notification bot's notices: "marked as resolved" for a resolve,
// else the moved-here notice in the new thread (unless turned off) and the moved-away notice
// in the old one (when asked for), worded as the real server words them.
func (s *MessageState) sendMoveNotices(p *editPlan, moved []*Message, movedAll bool, from *Channel, oldTopic string, to *Channel, newTopic string) {
	editor := p.editor
	who := fmt.Sprintf("@_**%s|%d**", editor.FullName, editor.ID)
	var resolveNotice *Message
	if p.topic != nil && !p.contentEdit && p.toChannel == nil && (p.resolved || p.unresolved) {
		resolveNotice = s.sendResolveNotice(p, to, newTopic, who)
	}
	n := len(moved)
	newLoc, oldLoc := topicLinkSyntax(to, newTopic), topicLinkSyntax(from, oldTopic)
	if p.req.NotifyNewThread && (p.toChannel != nil || (p.topic != nil && (mutation.On("resolve-notifies-new-thread") || !p.resolved && !p.unresolved))) {
		preexisting := 0
		for _, mm := range s.topicMessages(editor, to.ID, newTopic) {
			if !slices.Contains(moved, mm) && mm != resolveNotice {
				preexisting++
			}
		}
		var text string
		switch {
		case preexisting == 0 && movedAll:
			text = fmt.Sprintf("This topic was moved here from %s by %s.", oldLoc, who)
		case n == 1:
			text = fmt.Sprintf("[A message](%s) was moved here from %s by %s.", messageLink(to, newTopic, p.target.ID), oldLoc, who)
		default:
			text = fmt.Sprintf("%d messages were moved here from %s by %s.", n, oldLoc, who)
		}
		s.sendNotification(to, newTopic, text, editor.ID)
	}
	if p.req.NotifyOldThread {
		var text string
		switch {
		case movedAll:
			text = fmt.Sprintf("This topic was moved to %s by %s.", newLoc, who)
		case n == 1:
			text = fmt.Sprintf("A message was moved from this topic to %s by %s.", newLoc, who)
		default:
			text = fmt.Sprintf("%d messages were moved from this topic to %s by %s.", n, newLoc, who)
		}
		s.sendNotification(from, oldTopic, text, editor.ID)
	}
}

// sendResolveNotice posts "marked this topic as resolved/unresolved", or, when the topic's
// last message is such a notice posted moments ago, deletes it instead: undoing a resolve by
// mistake leaves no trace. Resolve notices are read for everyone but the topic's followers.
func (s *MessageState) sendResolveNotice(p *editPlan, ch *Channel, topic, who string) *Message {
	msgs := s.topicMessages(s.botUser(), ch.ID, topic)
	if len(msgs) > 0 {
		last := msgs[len(msgs)-1]
		if last.ResolveNotice && s.Now()-last.Timestamp <= resolveUndoSeconds {
			s.deleteMessages([]*Message{last})
			return nil
		}
	}
	text := who + " has marked this topic as resolved."
	if p.unresolved {
		text = who + " has marked this topic as unresolved."
	}
	var readers []int
	for id := range ch.Subscribers {
		if !s.followsTopic(id, ch.ID, topic) {
			readers = append(readers, id)
		}
	}
	notice := s.sendNotification(ch, topic, text, readers...)
	notice.ResolveNotice = true
	return notice
}

// followsTopic reports whether the user follows the topic.
func (s *MessageState) followsTopic(userID, channelID int, topic string) bool {
	return slices.ContainsFunc(s.userData.userTopics[userID], func(t *userTopic) bool {
		return t.ChannelID == channelID && strings.EqualFold(t.Topic, topic) && t.Policy == VisibilityFollowed
	})
}

// topicLinkSyntax is the Markdown the real server uses to link to a channel's topic.
func topicLinkSyntax(ch *Channel, topic string) string {
	return fmt.Sprintf("#**%s>%s**", ch.Name, topic)
}

// messageLink is the relative link of a message in its topic.
func messageLink(ch *Channel, topic string, id int) string {
	return fmt.Sprintf("#narrow/channel/%d-%s/topic/%s/near/%d", ch.ID, url.PathEscape(ch.Name), url.PathEscape(topic), id)
}
