package api

import (
	"encoding/json"
	"errors"
	"strconv"
	"strings"

	"github.com/chatconform/chatconform/fakeserver/internal/apierr"
	"github.com/chatconform/chatconform/fakeserver/internal/handler"
	"github.com/chatconform/chatconform/fakeserver/internal/mutation"
	"github.com/chatconform/chatconform/fakeserver/internal/realm"
)

// sentReply is the reply of POST /messages.
type sentReply struct {
	ID int `json:"id"`
}

// AppendJSONObject appends the reply as encoding/json writes it (TestSentReplyJSON).
func (r sentReply) AppendJSONObject(b []byte) []byte {
	return append(strconv.AppendInt(append(b, `{"id":`...), int64(r.ID), 10), '}')
}

// messageTypes are the values of type in POST /messages and POST /typing, the default of
// the latter first: "direct" only from its level, "private" before. The lists are shared:
// callers only read them.
func (s *Service) messageTypes() []string {
	if s.realm().AtLeast(realm.LevelDirectType) {
		return messageTypesDirect
	}
	return messageTypesPrivate
}

var (
	messageTypesDirect  = []string{"direct", "private", "stream", "channel"}
	messageTypesPrivate = []string{"private", "stream", "channel"}
)

// sendMessage: POST /messages, channel and direct.
func (s *Service) sendMessage(c *handler.Call) (sentReply, error) {
	kind := c.P.RequiredEnum("type", s.messageTypes()...)
	to := c.P.RequiredString("to")
	topic, topicGiven := s.topicParam(c)
	content := c.P.RequiredString("content")
	// Accepted for compatibility with real clients; they change nothing in the fake.
	c.P.Has("local_id")
	c.P.Has("queue_id")
	c.P.Bool("read_by_sender", true)
	if err := c.Done(); err != nil {
		return sentReply{}, err
	}
	d := realm.Draft{Direct: kind == "direct" || kind == "private", Topic: topic, TopicGiven: topicGiven, Content: content, Client: clientName(c)}
	if d.Direct {
		ids, err := s.directRecipientIDs(c.User.ID, to)
		if err != nil {
			return sentReply{}, err
		}
		d.Recipients = ids
	} else {
		d.ChannelID, d.Channel = channelTarget(to)
	}
	id, err := s.realm().Send(c.User.ID, d)
	if err != nil {
		return sentReply{}, err
	}
	return sentReply{ID: id}, nil
}

// topicParam reads topic or its deprecated alias subject; both at once is confusing.
func (s *Service) topicParam(c *handler.Call) (string, bool) {
	topic, hasTopic := c.P.String("topic")
	subject, hasSubject := c.P.String("subject")
	if hasTopic && hasSubject {
		c.P.Fail(apierr.New(400, "REQUEST_CONFUSING_VAR", "Can't decide between 'topic' and 'subject' arguments"))
	}
	if hasSubject && !mutation.On("subject-alias-ignored") {
		return subject, true
	}
	return topic, hasTopic
}

// channelTarget reads `to` of a channel message: an ID, a name, or a JSON list of one name.
func channelTarget(to string) (int, string) {
	trimmed := strings.TrimSpace(to)
	if trimmed == "" {
		return 0, to
	}
	// Only text that can be a number or JSON is parsed as one: a plain name, the usual case,
	// costs no failed parse.
	switch c := trimmed[0]; {
	case c == '-' || c == '+' || '0' <= c && c <= '9':
		if id, err := strconv.Atoi(trimmed); err == nil {
			return id, ""
		}
	case c == '[':
		var names []string
		if json.Unmarshal([]byte(to), &names) == nil && len(names) == 1 {
			return 0, names[0]
		}
	case c == '"':
		var name string
		if json.Unmarshal([]byte(to), &name) == nil {
			return 0, name
		}
	}
	return 0, to
}

// directRecipientIDs reads `to` of a direct message: a JSON list of user IDs or emails, or
// the legacy comma-separated list of emails.
func (s *Service) directRecipientIDs(viewerID int, to string) ([]int, error) {
	var raw []any
	if err := json.Unmarshal([]byte(to), &raw); err != nil {
		for _, e := range strings.Split(to, ",") {
			raw = append(raw, strings.TrimSpace(e))
		}
	}
	ids := make([]int, 0, len(raw))
	for _, item := range raw {
		switch v := item.(type) {
		case float64:
			if v != float64(int(v)) {
				return nil, apierr.BadRequest("Invalid user ID %v", v)
			}
			ids = append(ids, int(v))
		case string:
			id, ok := s.realm().UserIDByEmail(viewerID, v)
			if !ok {
				return nil, apierr.BadRequest("Invalid email '%s'", v)
			}
			ids = append(ids, id)
		default:
			return nil, apierr.BadRequest("Invalid recipient %v", item)
		}
	}
	return ids, nil
}

// clientName derives the client name from the User-Agent as the real server does: the
// product token before the first slash, or "API" when there is none.
func clientName(c *handler.Call) string {
	ua := strings.TrimSpace(c.R.UserAgent())
	name, _, _ := strings.Cut(ua, "/")
	name, _, _ = strings.Cut(name, " ")
	if name == "" {
		return "API"
	}
	return name
}

// deleteMessage: DELETE /messages/{message_id}.
func (s *Service) deleteMessage(c *handler.Call) (handler.Fields, error) {
	id, err := c.PathID("message_id", apierr.InvalidMessage)
	if err != nil {
		return nil, err
	}
	return handler.Fields{}, s.realm().DeleteMessage(c.User.ID, id)
}

// completion is the reply of a batched operation: complete, or below level 211 the real
// server's earlier form, no field when done and result partially_completed (with code
// REQUEST_TIMEOUT) when it stopped early.
func (s *Service) completion(complete bool) handler.Fields {
	switch {
	case mutation.On("partially-completed-at-every-level") && !complete:
		return handler.Fields{handler.ResultField: "partially_completed", "code": "REQUEST_TIMEOUT"}
	case s.realm().AtLeast(realm.LevelBatchComplete):
		return handler.Fields{"complete": complete}
	case complete:
		return handler.Fields{}
	}
	return handler.Fields{handler.ResultField: "partially_completed", "code": "REQUEST_TIMEOUT"}
}

// maxMessagesPerFetch is the real server's bound on num_before + num_after.
const maxMessagesPerFetch = 5000

// getMessages: GET /messages — a window of the messages of a narrow around an anchor.
func (s *Service) getMessages(c *handler.Call) (handler.Fields, error) {
	// The anchor is checked after the other parameters, as on the real server: it is needed
	// only without use_first_unread_anchor, the older way of saying anchor=first_unread.
	anchor, hasAnchor := c.P.String("anchor")
	var q realm.MessageQuery
	q.NumBefore = requiredCount(c, "num_before")
	q.NumAfter = requiredCount(c, "num_after")
	useFirstUnread := c.P.Bool("use_first_unread_anchor", false)
	q.IncludeAnchor = c.P.Bool("include_anchor", true)
	q.Narrow = s.narrowParam(c, false)
	q.View = realm.ViewOptions{
		ApplyMarkdown:       c.P.Bool("apply_markdown", true),
		ClientGravatar:      clientGravatar(c, s.realm()),
		AllowEmptyTopicName: c.P.Bool("allow_empty_topic_name", false),
	}
	if err := c.Done(); err != nil {
		return nil, err
	}
	switch {
	case useFirstUnread:
		q.Anchor = realm.AnchorFirstUnread
	case !hasAnchor:
		return nil, apierr.BadRequest("Missing 'anchor' argument.")
	default:
		a, err := parseAnchor(anchor)
		if err != nil {
			return nil, err
		}
		q.Anchor = a
	}
	if q.NumBefore+q.NumAfter > maxMessagesPerFetch {
		return nil, apierr.BadRequest("Too many messages requested (maximum %d).", maxMessagesPerFetch)
	}
	w, views, err := s.realm().RecycledMessages(c.User.ID, q)
	if err != nil {
		return nil, err
	}
	// The views' list goes back for reuse once the reply is written (handler's encoder).
	return handler.Fields{
		"messages": views, "anchor": w.Anchor, "found_anchor": w.FoundAnchor, "found_oldest": w.FoundOldest,
		"found_newest": w.FoundNewest, "history_limited": w.HistoryLimited,
	}, nil
}

// anchorParam reads a required anchor: a message ID, or newest, oldest or first_unread.
func anchorParam(c *handler.Call) int {
	raw, given := c.P.String("anchor")
	if !given {
		c.P.Fail(apierr.Missing("anchor"))
		return 0
	}
	a, err := parseAnchor(raw)
	if err != nil {
		c.P.Fail(err)
	}
	return a
}

// parseAnchor reads an anchor as the real server does. Negative anchors, which older clients
// sent, mean the oldest message; anchors beyond any message ID the newest.
func parseAnchor(raw string) (int, error) {
	switch raw = strings.Trim(strings.TrimSpace(raw), `"`); raw {
	case "newest":
		return realm.AnchorNewest, nil
	case "oldest":
		return realm.AnchorOldest, nil
	case "first_unread":
		return realm.AnchorFirstUnread, nil
	}
	n, err := strconv.ParseInt(raw, 10, 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		return 0, apierr.BadRequest("Invalid anchor")
	}
	return int(max(min(n, realm.LargerThanMaxMessageID), 0)), nil
}
