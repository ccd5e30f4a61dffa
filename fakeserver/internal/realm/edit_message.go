package realm

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"unicode/utf8"

	"github.com/chatconform/chatconform/fakeserver/internal/apierr"
	"github.com/chatconform/chatconform/fakeserver/internal/markdown"
	"github.com/chatconform/chatconform/fakeserver/internal/mutation"
)

// editGraceSeconds is the real server's allowance past the edit and move time limits, for
// clients that offer an edit at the last moment.
const editGraceSeconds = 20

// Propagate modes of a topic or channel change.
const (
	ChangeOne   = "change_one"
	ChangeLater = "change_later"
	ChangeAll   = "change_all"
)

// EditRequest is a PATCH /messages/{id} request; nil fields were not sent.
type EditRequest struct {
	Content           *string
	Topic             *string
	StreamID          *int
	PropagateMode     string
	NotifyOldThread   bool
	NotifyNewThread   bool
	PrevContentSHA256 *string
}

// editPlan is a checked edit, ready to apply: nothing is changed until every check passed.
type editPlan struct {
	req         EditRequest
	editor      *User
	target      *Message
	content     *string // normalized new content
	rendered    renderedContent
	topic       *string // new topic (differs from the current one)
	toChannel   *Channel
	fromChannel *Channel
	resolved    bool // the topic change only adds the resolved prefix
	unresolved  bool // the topic change only removes it
	contentEdit bool
	moved       bool
	streamGiven bool // stream_id was sent, even if it names the current channel
	pre         preRendered
}

type renderedContent struct {
	html     string
	mentions mentionSet
}

// UpdateMessage edits a message's content and/or moves it to another topic or channel, with
// the real server's checks in its order. It returns the uploads the edit detached (never nil).
func (s *MessageState) UpdateMessage(editorID, messageID int, req EditRequest) ([]DetachedUpload, error) {
	// New content is rendered under the read lock, before the write lock, as Send renders.
	var pre preRendered
	if req.Content != nil {
		s.mu.RLock()
		content := s.editedContent(*req.Content)
		pre = preRendered{content: content, result: s.render(content), done: true}
		s.mu.RUnlock()
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	// The plan is filled in place (planEdit), where a plan returned would be one more object per edit.
	var p editPlan
	if err := s.planEdit(&p, editorID, messageID, req, pre); err != nil {
		return nil, err
	}
	return s.applyEdit(&p), nil
}

// preRendered is content rendered before the write lock was taken (done false: none was).
type preRendered struct {
	content string
	result  markdown.Result
	done    bool
}

// planEdit runs every check of an edit and fills p with what to change.
func (s *MessageState) planEdit(p *editPlan, editorID, messageID int, req EditRequest, pre preRendered) error {
	u := s.accts.users[editorID]
	m, err := s.accessibleMessage(u, messageID)
	if err != nil {
		return err
	}
	if mutation.On("content-edit-senders-latest") && req.Content != nil {
		m = s.sendersLatest(u, m)
	}
	*p = editPlan{req: req, editor: u, target: m, streamGiven: req.StreamID != nil, pre: pre}
	if req.PropagateMode == "" {
		p.req.PropagateMode = ChangeOne
	}
	if req.Content != nil {
		if err := s.checkCanEditContent(u, m, editGraceSeconds); err != nil {
			return err
		}
	}
	// A topic or channel equal to the current one changes nothing, as on the real server.
	if req.Topic != nil {
		topic := s.topicNamed(*req.Topic)
		if mutation.On("edit-topic-display-name-literal") {
			topic = *req.Topic
		}
		if topic == "" && (!s.atLeast(LevelEmptyTopic) || mutation.On("empty-topic-refused-in-edits")) {
			return errEmptyTopic()
		}
		if topic != m.Topic {
			p.topic = &topic
		}
	}
	if req.StreamID != nil && !m.IsDirect && *req.StreamID == m.ChannelID {
		p.req.StreamID = nil
	}
	if p.req.StreamID != nil && !m.IsDirect {
		ch := s.chans.channels[*req.StreamID]
		if ch == nil || !ch.canAccess(u) {
			// Checked again, with the real server's message, once the request is validated.
			ch = &Channel{ID: *req.StreamID}
		}
		p.toChannel = ch
	}
	if err := s.validateEditPayload(p); err != nil {
		return err
	}
	if err := s.buildEdit(p); err != nil {
		return err
	}
	if err := s.checkMovePermissions(p); err != nil {
		if mutation.On("refused-move-applied") && !p.contentEdit {
			s.applyEdit(p)
		}
		return err
	}
	return nil
}

// checkCanEditContent: editing must be on, the editor the sender, and the message younger
// than the content edit limit plus grace.
func (s *MessageState) checkCanEditContent(u *User, m *Message, grace int64) error {
	if !s.org.editing.AllowMessageEditing {
		return apierr.BadRequest("Your organization has turned off message editing")
	}
	if mutation.On("edit-others-content-code") && m.SenderID != u.ID {
		return apierr.Of(apierr.KindInvalid, "UNAUTHORIZED_PRINCIPAL", "You don't have permission to edit this message")
	}
	if m.SenderID != u.ID && !(mutation.On("admins-edit-any-content") && u.IsAdmin()) {
		return apierr.BadRequest("You don't have permission to edit this message")
	}
	if limit := s.org.editing.MessageContentEditLimitSeconds; limit != nil && !mutation.On("content-edit-limit-ignored") && s.Now()-m.Timestamp > int64(*limit)+grace {
		return apierr.BadRequest("The time limit for editing this message has passed")
	}
	return nil
}

// validateEditPayload checks that the request is well-formed (not permissions).
func (s *MessageState) validateEditPayload(p *editPlan) error {
	req, m := p.req, p.target
	if p.topic == nil && req.Content == nil && req.StreamID == nil {
		return apierr.BadRequest("Nothing to change")
	}
	if mutation.On("direct-message-topic-edit-accepted") && m.IsDirect && req.StreamID == nil {
		p.topic = nil
	}
	if m.IsDirect {
		if req.StreamID != nil {
			return apierr.BadRequest("Direct messages cannot be moved to channels.")
		}
		if p.topic != nil {
			return apierr.BadRequest("Direct messages cannot have topics.")
		}
	}
	if p.req.PropagateMode != ChangeOne && p.topic == nil && req.StreamID == nil && !mutation.On("content-edit-propagate-mode-accepted") {
		return apierr.BadRequest("Invalid propagate_mode without topic edit")
	}
	if p.topic != nil {
		resolvedEmpty := strings.TrimSpace(ResolvedTopicPrefix)
		if (*p.topic == resolvedEmpty && !mutation.On("empty-topic-bare-mark-resolvable") || *p.topic == ResolvedTopicPrefix+s.settings.EmptyTopicDisplayName) && !mutation.On("empty-topic-resolvable") {
			return apierr.BadRequest("General chat cannot be marked as resolved")
		}
		if err := checkTopicCharacters(*p.topic); err != nil {
			return err
		}
	}
	// Rule 1 of the document: content and stream_id together are refused, even when
	// stream_id names the message's own channel.
	if p.streamGiven && req.Content != nil && !mutation.On("content-and-stream-accepted") {
		return apierr.BadRequest("Cannot change message content while changing channel")
	}
	if req.Content != nil && len(m.Submessages) > 0 {
		return apierr.BadRequest("Widgets cannot be edited.")
	}
	if req.PrevContentSHA256 != nil {
		sum := sha256.Sum256([]byte(m.Content))
		if mutation.On("prev-content-sha256-of-rendered") {
			sum = sha256.Sum256([]byte(m.Rendered))
		}
		if !strings.EqualFold(*req.PrevContentSHA256, hex.EncodeToString(sum[:])) {
			return apierr.Of(apierr.KindInvalid, "EXPECTATION_MISMATCH", "'prev_content_sha256' value does not match the expected value.")
		}
	}
	return nil
}

// checkTopicCharacters refuses control characters, as the real server does.
func checkTopicCharacters(topic string) error {
	for i, r := range []rune(topic) {
		if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) || r == utf8.RuneError {
			return apierr.BadRequest("Invalid character in topic, at position %d!", i+1)
		}
	}
	return nil
}

// editedContent is new content as an edit stores it: trimmed, "(deleted)" for none, truncated.
func (s *MessageState) editedContent(raw string) string {
	content := strings.TrimRightFunc(raw, func(r rune) bool { return r == ' ' || r == '\t' || r == '\n' || r == '\r' })
	if strings.TrimSpace(content) == "" {
		content = "(deleted)"
	}
	if mutation.On("edit-content-limit-in-bytes") {
		return truncateBytes(content, s.settings.MaxMessageLength, "\n[message truncated]")
	}
	if mutation.On("edit-content-one-over-limit") {
		return truncate(content, s.settings.MaxMessageLength+1, "\n[message truncated]")
	}
	return truncate(content, s.settings.MaxMessageLength, "\n[message truncated]")
}

// buildEdit normalizes the new content and topic and resolves the target channel.
func (s *MessageState) buildEdit(p *editPlan) error {
	m := p.target
	if p.req.Content != nil {
		content := s.editedContent(*p.req.Content)
		p.content, p.contentEdit = &content, true
	}
	if m.IsDirect {
		return nil
	}
	p.fromChannel = s.chans.channels[m.ChannelID]
	if p.topic != nil {
		requested := *p.topic
		topic := truncate(requested, s.settings.MaxTopicLength, "...")
		p.topic = &topic
		old := m.Topic
		p.resolved = strings.HasPrefix(topic, ResolvedTopicPrefix) && !strings.HasPrefix(old, ResolvedTopicPrefix) &&
			strings.TrimPrefix(requested, ResolvedTopicPrefix) == old
		p.unresolved = strings.HasPrefix(old, ResolvedTopicPrefix) && !strings.HasPrefix(topic, ResolvedTopicPrefix) &&
			strings.TrimPrefix(old, ResolvedTopicPrefix) == topic
	}
	if p.toChannel != nil {
		ch := s.chans.channels[p.toChannel.ID]
		if ch == nil || !ch.canAccess(p.editor) {
			return apierr.InvalidChannel
		}
		p.toChannel = ch
	}
	p.moved = p.topic != nil || p.toChannel != nil
	target := p.targetTopic()
	if (p.topic != nil || p.toChannel != nil) && s.org.editing.TopicsPolicy == "disable_empty_topic" && (target == "" || target == "(no topic)") && !mutation.On("required-topic-not-enforced-on-move") {
		return apierr.BadRequest("Sending messages to %s is not allowed in this channel.", s.settings.EmptyTopicDisplayName)
	}
	return nil
}

// targetTopic is the topic the message ends in.
func (p *editPlan) targetTopic() string {
	if p.topic != nil {
		return *p.topic
	}
	return p.target.Topic
}

// targetChannel is the channel the message ends in.
func (p *editPlan) targetChannel() *Channel {
	if p.toChannel != nil {
		return p.toChannel
	}
	return p.fromChannel
}

// checkMovePermissions applies the group settings and time limits to topic and channel
// changes, the wildcard mention rules to new content, and the whole-topic time limit.
func (s *MessageState) checkMovePermissions(p *editPlan) error {
	u, m := p.editor, p.target
	now := s.Now()
	if p.topic != nil {
		if p.resolved || p.unresolved {
			group, refusal := s.org.editing.CanResolveTopicsGroup, "You don't have permission to resolve topics in this channel."
			if !s.atLeast(LevelResolveTopicsGroup) { // a topic edit like any other before
				group, refusal = s.org.editing.CanMoveMessagesBetweenTopicsGroup, "You don't have permission to edit this message"
			}
			if mutation.On("resolve-by-topic-movers") {
				group = s.org.editing.CanMoveMessagesBetweenTopicsGroup
			}
			if mutation.On("unresolve-refused") && p.unresolved {
				return apierr.BadRequest("%s", refusal)
			}
			if !s.org.inGroupSetting(u.ID, group) {
				return apierr.BadRequest("%s", refusal)
			}
		} else {
			if !s.org.inGroupSetting(u.ID, s.org.editing.CanMoveMessagesBetweenTopicsGroup) && !mutation.On("topic-move-group-ignored") {
				return apierr.BadRequest("You don't have permission to edit this message")
			}
			if limit, _ := s.org.moveLimits(); limit != nil && !u.IsModerator() && now-m.Timestamp > int64(*limit)+editGraceSeconds {
				return apierr.BadRequest("The time limit for editing this message's topic has passed.")
			}
		}
	}
	if p.contentEdit {
		var rendered markdown.Result
		if p.pre.done && p.pre.content == *p.content {
			rendered = p.pre.result
		} else {
			rendered = s.render(*p.content)
		}
		p.rendered = renderedContent{html: rendered.HTML, mentions: mentionsOf(rendered)}
		if !m.IsDirect {
			sender := s.userOrBot(m.SenderID)
			checked := p.rendered.mentions
			if mutation.On("edit-topic-wildcard-unchecked") {
				checked.TopicWildcard = false
			}
			if err := s.checkWildcardMentions(sender, p.fromChannel, m.Topic, checked); err != nil {
				return err
			}
		}
	}
	if m.IsDirect {
		return nil
	}
	if p.toChannel != nil {
		if !s.org.inGroupSetting(u.ID, s.org.editing.CanMoveMessagesBetweenChannelsGroup) && !mutation.On("channel-move-group-ignored") {
			return apierr.BadRequest("You don't have permission to move this message")
		}
		if _, limit := s.org.moveLimits(); limit != nil && (!u.IsModerator() || mutation.On("channel-move-limit-binds-moderators") && !u.IsAdmin()) && now-m.Timestamp > int64(*limit)+editGraceSeconds {
			return apierr.BadRequest("The time limit for editing this message's channel has passed")
		}
	}
	if mutation.On("whole-topic-limit-binds-moderators") && p.req.PropagateMode == ChangeAll && u.IsModerator() && p.moved && !p.resolved && !p.unresolved {
		return s.checkWholeTopicTimeLimit(p)
	}
	if mutation.On("whole-topic-limit-topic-moves-only") && p.toChannel != nil {
		return nil
	}
	if p.req.PropagateMode == ChangeAll && !u.IsModerator() && p.moved && !p.resolved && !p.unresolved && s.atLeast(LevelWholeTopicTimeLimit) && !mutation.On("change-all-limit-target-only") {
		return s.checkWholeTopicTimeLimit(p)
	}
	return nil
}
