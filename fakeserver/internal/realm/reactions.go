package realm

import (
	"encoding/json"
	"regexp"
	"slices"
	"strconv"

	"github.com/chatconform/chatconform/fakeserver/internal/apierr"
	"github.com/chatconform/chatconform/fakeserver/internal/events"
	"github.com/chatconform/chatconform/fakeserver/internal/mutation"
)

// Reaction is one user's emoji reaction to a message.
type Reaction struct {
	UserID       int
	EmojiName    string
	EmojiCode    string
	ReactionType string
}

// ReactionView is a reaction as the API shows it.
type ReactionView struct {
	EmojiName    string `json:"emoji_name"`
	EmojiCode    string `json:"emoji_code"`
	ReactionType string `json:"reaction_type"`
	UserID       int    `json:"user_id"`
	// User is the legacy reacting-user object, left out from feature level 328 on.
	User map[string]any `json:"user,omitempty"`
}

// Reaction types.
const (
	UnicodeEmoji    = "unicode_emoji"
	RealmEmoji      = "realm_emoji"
	ZulipExtraEmoji = "zulip_extra_emoji"
)

// unicodeEmoji maps the emoji names the fake knows to their codes (dash-separated hex of the
// codepoints), with the real server's names. It is a small subset of the real server's set:
// enough for clients and specs to react with common emoji.
var unicodeEmoji = map[string]string{
	"+1": "1f44d", "thumbs_up": "1f44d", "-1": "1f44e", "thumbs_down": "1f44e", "heart": "2764",
	"octopus": "1f419", "tada": "1f389", "smile": "1f642", "smiley": "1f603", "grinning": "1f600",
	"laughing": "1f606", "joy": "1f602", "thinking": "1f914", "eyes": "1f440", "fire": "1f525",
	"rocket": "1f680", "check": "2705", "cross_mark": "274c", "star": "2b50", "wave": "1f44b",
	"clap": "1f44f", "pray": "1f64f", "100": "1f4af", "cake": "1f370", "coffee": "2615",
	"sunny": "2600", "umbrella": "2602", "zzz": "1f4a4", "working_on_it": "1f6e0", "bulb": "1f4a1",
	"flag_germany": "1f1e9-1f1ea", "family_man_woman_girl": "1f468-200d-1f469-200d-1f467",
}

// zulipExtraEmoji are the extra emoji of the zulip_extra_emoji namespace (code = name).
var zulipExtraEmoji = map[string]bool{"zulip": true}

var emojiCodeSyntax = regexp.MustCompile(`^[0-9a-f]{4,6}(-[0-9a-f]{4,6})*$`)

// ReactionRequest names an emoji to add or remove.
type ReactionRequest struct {
	EmojiName    string
	EmojiCode    string // "" to look it up by name
	ReactionType string // "": the named emoji's type on adding, unicode_emoji on removing
}

// lookupEmoji is the emoji a name stands for now, as the real server looks one up for clients
// that send no code or type: an active custom emoji first, then the extra emoji, then unicode.
func (s *MessageState) lookupEmoji(name string) (code, reactionType string, err error) {
	if e := s.org.activeEmoji(name); e != nil {
		return strconv.Itoa(e.id), RealmEmoji, nil
	}
	if zulipExtraEmoji[name] {
		return name, ZulipExtraEmoji, nil
	}
	if code, ok := unicodeEmoji[name]; ok {
		return code, UnicodeEmoji, nil
	}
	return "", "", apierr.BadRequest("Emoji '%s' does not exist", name)
}

// completeEmoji fills in a request's missing code and type from its name. A code with no type
// and a name the fake's small unicode table lacks is taken as unicode, where the real server,
// which knows every name, would find it.
func (s *MessageState) completeEmoji(r ReactionRequest) (ReactionRequest, error) {
	if r.EmojiCode != "" && r.ReactionType != "" {
		return r, nil
	}
	code, reactionType, err := s.lookupEmoji(r.EmojiName)
	if err != nil && r.EmojiCode == "" {
		return r, err
	}
	if err != nil {
		code, reactionType = r.EmojiCode, UnicodeEmoji
	}
	if r.EmojiCode == "" {
		r.EmojiCode = code
	}
	if r.ReactionType == "" {
		r.ReactionType = reactionType
	}
	return r, nil
}

// checkEmoji holds a new reaction's emoji to the real server's rules: a custom emoji by its
// ID, with its name, and still active.
func (s *MessageState) checkEmoji(r ReactionRequest) error {
	switch r.ReactionType {
	case UnicodeEmoji:
		if !emojiCodeSyntax.MatchString(r.EmojiCode) {
			return apierr.BadRequest("Invalid emoji code.")
		}
		if code, known := unicodeEmoji[r.EmojiName]; known && code != r.EmojiCode {
			return apierr.BadRequest("Invalid emoji name.")
		}
	case ZulipExtraEmoji:
		if !zulipExtraEmoji[r.EmojiCode] {
			return apierr.BadRequest("Invalid emoji code.")
		}
		if r.EmojiName != r.EmojiCode {
			return apierr.BadRequest("Invalid emoji name.")
		}
	case RealmEmoji:
		e := s.org.customEmojiByCode(r.EmojiCode)
		switch {
		case e == nil:
			return apierr.BadRequest("Invalid custom emoji.")
		case e.name != r.EmojiName:
			return apierr.BadRequest("Invalid custom emoji name.")
		case e.deactivated:
			return apierr.BadRequest("This custom emoji has been deactivated.")
		}
	default:
		return apierr.BadRequest("Invalid emoji type.")
	}
	return nil
}

// AddReaction adds the user's reaction to a message (POST /messages/{id}/reactions).
func (s *MessageState) AddReaction(userID, messageID int, req ReactionRequest) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	u := s.accts.users[userID]
	m, err := s.accessibleMessage(u, messageID)
	if err != nil {
		return err
	}
	r, err := s.completeEmoji(req)
	if err != nil {
		return err
	}
	if slices.IndexFunc(m.Reactions, sameReaction(userID, r)) >= 0 {
		// Its own code from feature level 193, BAD_REQUEST before.
		if s.atLeast(LevelReactionAlreadyExists) {
			return apierr.Of(apierr.KindInvalid, "REACTION_ALREADY_EXISTS", "Reaction already exists.")
		}
		return apierr.BadRequest("Reaction already exists.")
	}
	// Another user's reaction with the same emoji takes this one as a vote, under its name and
	// unchecked, so that a deactivated custom emoji's reaction can still gain votes.
	if i := slices.IndexFunc(m.Reactions, sameEmoji(r)); i >= 0 {
		r.EmojiName = m.Reactions[i].EmojiName
	} else if err := s.checkEmoji(r); err != nil {
		return err
	}
	if !m.Rows.has(userID) {
		// Reacting to a message read through public history gives the user a row.
		s.putRow(m, userID, flagRead|flagHistorical)
	}
	m.Reactions = append(m.Reactions, Reaction{UserID: userID, EmojiName: r.EmojiName, EmojiCode: r.EmojiCode, ReactionType: r.ReactionType})
	s.publishReaction(m, "add", m.Reactions[len(m.Reactions)-1])
	return nil
}

// sameReaction matches a user's reaction with the same emoji (by code within its type).
func sameReaction(userID int, r ReactionRequest) func(Reaction) bool {
	same := sameEmoji(r)
	return func(x Reaction) bool { return x.UserID == userID && same(x) }
}

// sameEmoji matches any user's reaction with the same emoji.
func sameEmoji(r ReactionRequest) func(Reaction) bool {
	return func(x Reaction) bool { return x.ReactionType == r.ReactionType && x.EmojiCode == r.EmojiCode }
}

func (s *MessageState) reactionUser(id int) map[string]any {
	u := s.userOrBot(id)
	return map[string]any{"user_id": u.ID, "email": s.accts.apiEmail(u), "full_name": u.FullName}
}

// reactionViews lists a message's reactions oldest first; before feature level 328 each
// carries the legacy user object too.
func (s *MessageState) reactionViews(m *Message) []ReactionView {
	out := make([]ReactionView, 0, len(m.Reactions))
	for _, r := range m.Reactions {
		v := ReactionView{EmojiName: r.EmojiName, EmojiCode: r.EmojiCode, ReactionType: r.ReactionType, UserID: r.UserID}
		if mutation.On("emoji-code-of-another-emoji") && r.ReactionType == "unicode_emoji" {
			v.EmojiCode = "1f600"
		}
		if mutation.On("reaction-type-always-unicode") {
			v.ReactionType = "unicode_emoji"
		}
		if mutation.On("reaction-user-is-sender") {
			v.UserID = m.SenderID
		}
		if !s.atLeast(LevelReactionUserDropped) {
			u := s.userOrBot(r.UserID)
			v.User = map[string]any{"id": u.ID, "email": s.accts.apiEmail(u), "full_name": u.FullName, "is_mirror_dummy": false}
		}
		out = append(out, v)
	}
	if mutation.On("reactions-newest-first") {
		slices.Reverse(out)
	}
	return out
}

// publishReaction announces a reaction; the event has the legacy user object except between
// LevelReactionUserDropped and LevelReactionEventUser, as on the real server.
func (s *MessageState) publishReaction(m *Message, op string, r Reaction) {
	ev := events.Event{
		"type": "reaction", "op": op, "message_id": m.ID, "user_id": r.UserID,
		"emoji_name": r.EmojiName, "emoji_code": r.EmojiCode, "reaction_type": r.ReactionType,
	}
	if !s.atLeast(LevelReactionUserDropped) || s.atLeast(LevelReactionEventUser) {
		ev["user"] = s.reactionUser(r.UserID)
	}
	if mutation.On("reaction-event-to-everyone") {
		s.publish(ev, s.accts.activeUserIDs()...)
		return
	}
	s.publish(ev, s.messageAudience(m)...)
}

// messageAudience are the users told of changes to a message: those with a row, and the
// subscribers of a channel whose history they can read.
func (s *MessageState) messageAudience(m *Message) []int {
	ch := s.chans.channels[m.ChannelID]
	subscribers := ch != nil && !m.IsDirect && ch.HistoryPublicToSubscribers
	n := len(m.Rows)
	if subscribers {
		n += len(ch.Subscribers)
	}
	ids := make([]int, 0, n)
	for _, row := range m.Rows {
		ids = append(ids, int(row.userID))
	}
	if subscribers {
		for id := range ch.Subscribers {
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	ids = slices.Compact(ids)
	return slices.DeleteFunc(ids, func(id int) bool {
		u := s.accts.users[id]
		return u == nil || !u.IsActive
	})
}

// Submessage is data an experimental integration (a widget) attaches to a message.
type Submessage struct {
	ID       int
	SenderID int
	MsgType  string
	Content  string
}

// SubmessageView is a submessage as the API shows it.
type SubmessageView struct {
	ID        int    `json:"id"`
	MessageID int    `json:"message_id"`
	SenderID  int    `json:"sender_id"`
	MsgType   string `json:"msg_type"`
	Content   string `json:"content"`
}

func submessageViews(m *Message) []SubmessageView {
	if mutation.On("submessages-null-when-none") && len(m.Submessages) == 0 {
		return nil
	}
	out := make([]SubmessageView, 0, len(m.Submessages))
	for _, sm := range m.Submessages {
		out = append(out, SubmessageView{ID: sm.ID, MessageID: m.ID, SenderID: sm.SenderID, MsgType: sm.MsgType, Content: sm.Content})
	}
	return out
}

// AddSubmessage attaches a submessage (POST /submessage). Only the message's sender may add
// the first one; content must be JSON, as the real server requires.
func (s *MessageState) AddSubmessage(userID, messageID int, msgType, content string) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	u := s.accts.users[userID]
	m, err := s.accessibleMessage(u, messageID)
	if err != nil {
		return 0, err
	}
	if len(m.Submessages) == 0 && m.SenderID != userID {
		return 0, apierr.BadRequest("You cannot attach a submessage to this message.")
	}
	if !json.Valid([]byte(content)) {
		return 0, apierr.BadRequest("Invalid json for submessage")
	}
	s.lastSubmessage++
	sm := Submessage{ID: s.lastSubmessage, SenderID: userID, MsgType: msgType, Content: content}
	if mutation.On("submessage-sender-of-message") {
		sm.SenderID = m.SenderID
	}
	m.Submessages = append(m.Submessages, sm)
	s.publish(events.Event{
		"type": "submessage", "msg_type": msgType, "message_id": m.ID, "submessage_id": sm.ID, "sender_id": userID, "content": content,
	}, s.messageAudience(m)...)
	return sm.ID, nil
}

// RemoveReaction removes the user's reaction to a message (DELETE
// /messages/{id}/reactions). The emoji is named by its code within its type, or, for
// clients that know only names, by its name.
func (s *MessageState) RemoveReaction(userID, messageID int, req ReactionRequest) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	m, err := s.accessibleMessage(s.accts.users[userID], messageID)
	if err != nil {
		return err
	}
	if req.ReactionType == "" {
		req.ReactionType = UnicodeEmoji
	}
	if req.EmojiCode == "" {
		if req.EmojiName == "" {
			return apierr.BadRequest("At least one of the following arguments must be present: emoji_name, emoji_code")
		}
		// The code the name stands for now, whatever the type: the type defaults to unicode.
		code, _, err := s.lookupEmoji(req.EmojiName)
		if err != nil {
			return err
		}
		req.EmojiCode = code
	}
	i := slices.IndexFunc(m.Reactions, sameReaction(userID, req))
	if i < 0 {
		return apierr.BadRequest("Reaction doesn't exist.")
	}
	r := m.Reactions[i]
	m.Reactions = slices.Delete(slices.Clone(m.Reactions), i, i+1)
	s.publishReaction(m, "remove", r)
	return nil
}
