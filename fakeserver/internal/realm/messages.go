package realm

import (
	"html"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/chatconform/chatconform/fakeserver/internal/apierr"
	"github.com/chatconform/chatconform/fakeserver/internal/markdown"
	"github.com/chatconform/chatconform/fakeserver/internal/mutation"
)

// Message is a channel or direct message.
type Message struct {
	ID          int
	IsDirect    bool
	ChannelID   int    // channel messages only
	Topic       string // "" is the empty topic ("general chat"); always "" for direct messages
	Content     string // raw Markdown
	Rendered    string // HTML
	SenderID    int
	Timestamp   int64
	Client      string
	RecipientID int
	// Participants of a direct message, sorted; includes the sender.
	Participants []int
	// Rows are the per-user message rows: a user has a row for each message they received,
	// and only they have flags such as read (message_rows.go).
	Rows messageRows

	// EditHistory lists the edits and moves, oldest first (the API shows newest first).
	EditHistory []EditEntry
	// LastEditTime is when the content was last edited (0: never).
	LastEditTime int64
	// LastMoveTime is when the message was last moved other than by resolving or
	// unresolving its topic (0: never).
	LastMoveTime int64
	Reactions    []Reaction
	Submessages  []Submessage
	// ResolveNotice marks the notification bot's "marked this topic as resolved" notices.
	ResolveNotice bool
}

// ResolvedTopicPrefix marks a resolved topic.
const ResolvedTopicPrefix = "✔ "

// Draft is a message to send (POST /messages).
type Draft struct {
	Direct     bool
	ChannelID  int    // channel messages: by ID …
	Channel    string // … or by name
	Topic      string
	TopicGiven bool
	Recipients []int // direct messages: user IDs
	Content    string
	Client     string
	// Timestamp is when the message was sent, UNIX seconds; 0 is now. Only a fixture's
	// messages have another time.
	Timestamp int64
}

// errEmptyTopic refuses the empty topic below LevelEmptyTopic, as the real server did.
func errEmptyTopic() *apierr.Error { return apierr.BadRequest("Topic can't be empty!") }

// normalizeTopic applies the real server's topic rules: trimmed, the display name of the
// empty topic read as "", control characters refused, long topics truncated.
func (s *MessageState) normalizeTopic(topic string) (string, error) {
	topic = s.topicNamed(topic)
	if topic == "" && !s.atLeast(LevelEmptyTopic) {
		return "", errEmptyTopic()
	}
	for i, r := range []rune(topic) {
		if unicode.IsControl(r) || r == utf8.RuneError {
			return "", apierr.BadRequest("Invalid character in topic, at position %d!", i+1)
		}
	}
	topic = truncate(topic, s.settings.MaxTopicLength, "...")
	return topic, nil
}

// normalizeContent trims content, refuses empty content and truncates long content.
func (s *MessageState) normalizeContent(content string) (string, error) {
	content = strings.TrimRightFunc(content, unicode.IsSpace)
	if strings.TrimSpace(content) == "" {
		return "", apierr.BadRequest("Message must not be empty")
	}
	return truncate(content, s.settings.MaxMessageLength, "\n[message truncated]"), nil
}

// truncate shortens text longer than max characters to max, ending with marker as the real
// server does; where max is too small to hold the marker, the text is cut without it.
func truncate(text string, max int, marker string) string {
	if len(text) <= max || utf8.RuneCountInString(text) <= max {
		return text
	}
	runes := []rune(text)
	keep := max - utf8.RuneCountInString(marker)
	if keep <= 0 {
		return string(runes[:max])
	}
	return string(runes[:keep]) + marker
}

// sharedContent returns content as a part of its HTML where the HTML holds it verbatim (plain
// text in a paragraph, the usual message): a stored message then keeps one string, not two.
func sharedContent(content, html string) string {
	if i := strings.Index(html, content); i >= 0 && content != "" {
		return html[i : i+len(content)]
	}
	return content
}

// Send stores a new message and returns its ID.
func (s *MessageState) Send(senderID int, d Draft) (int, error) {
	// The Markdown is rendered under the read lock, before the write lock: readers go on while
	// a message renders. (A mention of a user renamed in between shows the old name, as on the
	// real server, which renders before it stores.)
	s.mu.RLock()
	content, err := s.normalizeContent(d.Content)
	var rendered markdown.Result
	if err == nil {
		rendered = s.render(content)
	}
	s.mu.RUnlock()
	if err != nil {
		return 0, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.store(senderID, d, content, rendered)
}

// store sends a message whose content is normalized and rendered (under the lock).
func (s *MessageState) store(senderID int, d Draft, content string, rendered markdown.Result) (int, error) {
	var err error
	sender := s.accts.users[senderID]
	// The message is built in draft and stored as a copy (storeMessage): m is the stored one.
	draft := Message{
		IsDirect: d.Direct, Content: sharedContent(content, rendered.HTML), Rendered: rendered.HTML, SenderID: senderID,
		Timestamp: d.Timestamp, Client: s.sharedClient(d.Client),
	}
	if draft.Timestamp == 0 {
		draft.Timestamp = s.Now()
	}
	mentions := mentionsOf(rendered)
	var receivers []int
	if d.Direct {
		receivers, err = s.directRecipients(sender, d.Recipients)
		if err != nil {
			return 0, err
		}
		draft.Participants = receivers
		draft.RecipientID = s.recipientID("direct:" + joinInts(receivers))
	} else {
		ch, err := s.sendableChannel(sender, d)
		if err != nil {
			return 0, err
		}
		if !d.TopicGiven {
			return 0, apierr.BadRequest("Missing topic")
		}
		topic, err := s.normalizeTopic(d.Topic)
		if err != nil {
			return 0, err
		}
		draft.ChannelID, draft.Topic, draft.RecipientID = ch.ID, s.sharedTopic(ch.ID, topic), ch.RecipientID
		if err := s.checkWildcardMentions(sender, ch, topic, mentions); err != nil {
			return 0, err
		}
		receivers = make([]int, 0, len(ch.Subscribers)+1) // and the sender
		for id := range ch.Subscribers {
			receivers = append(receivers, id)
		}
	}
	draft.ID = nextID(&s.nextMessage)
	// A message from a muted user arrives read, as on the real server.
	draft.Rows = newRows(append(receivers, senderID), func(id int) bool { return id == senderID || s.userData.hasMuted(id, senderID) })
	m := s.storeMessage(&draft)
	s.applyMentionFlags(m, mentions)
	s.uploads.afterMessageStored(m)
	s.attachWidget(m)
	s.publishNewMessage(m)
	// The real server records a channel's first message silently: only deletions that move
	// it are announced (see refreshFirstMessageID).
	if ch := s.chans.channels[m.ChannelID]; ch != nil && ch.FirstMessageID == 0 {
		ch.FirstMessageID = m.ID
	}
	return m.ID, nil
}

// sharedTopic returns topic as the newest message of the channel's topic of that name holds
// it, when it is spelled the same: the realm's messages then share one string per topic
// rather than each keeping the copy its request decoded, which is one object less for the
// collector to mark per stored message. (Under the lock.)
func (s *MessageState) sharedTopic(channelID int, topic string) string {
	if ids := s.index.topics[channelID][topicKeyOf(topic)]; ids.Len() > 0 {
		if last := s.messages.get(ids.Last()); last != nil && last.Topic == topic {
			return last.Topic
		}
	}
	return topic
}

// sharedClient returns client as the message stored before held it, when it is the same
// name: a client's messages, which come one after the other, share one string rather than
// each keeping a part of its request's User-Agent header. (Under the lock.)
func (s *MessageState) sharedClient(client string) string {
	if client == s.lastClient {
		return s.lastClient
	}
	s.lastClient = client
	return client
}

func (s *MessageState) sendableChannel(sender *User, d Draft) (*Channel, error) {
	ch := s.chans.channels[d.ChannelID]
	if d.Channel != "" {
		ch = s.chans.channelsByName[strings.ToLower(d.Channel)]
	}
	if ch == nil {
		if d.Channel != "" {
			return nil, apierr.Of(apierr.KindInvalid, "STREAM_DOES_NOT_EXIST", "Channel '%s' does not exist", d.Channel).With("stream", d.Channel)
		}
		return nil, apierr.Of(apierr.KindInvalid, "STREAM_DOES_NOT_EXIST", "Channel with ID '%d' does not exist", d.ChannelID).With("stream_id", d.ChannelID)
	}
	if ch.Archived || !ch.canAccess(sender) {
		return nil, apierr.BadRequest("Not authorized to send to channel '%s'", ch.Name)
	}
	return ch, nil
}

// directRecipients resolves the recipients of a direct message into a sorted, de-duplicated
// list of participants that includes the sender.
func (s *MessageState) directRecipients(sender *User, ids []int) ([]int, error) {
	if len(ids) == 0 {
		return nil, apierr.BadRequest("Message must have recipients")
	}
	set := []int{sender.ID}
	for _, id := range ids {
		u := s.accts.users[id]
		if u == nil {
			return nil, apierr.BadRequest("Invalid user ID %d", id)
		}
		if !u.IsActive {
			return nil, apierr.BadRequest("'%s' is no longer using this organization.", s.accts.apiEmail(u))
		}
		if !slices.Contains(set, id) {
			set = append(set, id)
		}
	}
	slices.Sort(set)
	return set, nil
}

// UserIDByEmail resolves an email as the viewer may use it (userByEmail): the dummy address,
// or the real one only where the user's email_address_visibility shows it to the viewer.
func (s *MessageState) UserIDByEmail(viewerID int, email string) (int, bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	viewer := s.accts.users[viewerID]
	if viewer == nil {
		return 0, false
	}
	if u := s.accts.userByEmail(viewer, email); u != nil {
		return u.ID, true
	}
	return 0, false
}

// canRead is the real server's message access rule: direct messages need a row; channel
// messages need channel access, and protected history also needs the message to be one the
// user received.
func (s *MessageState) canRead(u *User, m *Message) bool {
	hasRow := m.Rows.has(u.ID)
	if m.IsDirect {
		return hasRow
	}
	ch := s.chans.channels[m.ChannelID]
	if ch == nil || !ch.canAccess(u) {
		return false
	}
	if ch.InviteOnly && !ch.HistoryPublicToSubscribers {
		return hasRow
	}
	return true
}

// accessibleMessage finds a message u may read, or the one error for missing and invisible alike.
func (s *MessageState) accessibleMessage(u *User, id int) (*Message, error) {
	m := s.messages.get(id)
	if m == nil || !s.canRead(u, m) {
		return nil, apierr.InvalidMessage
	}
	return m, nil
}

// Recipient is an entry of display_recipient for direct messages.
type Recipient struct {
	ID            int    `json:"id"`
	Email         string `json:"email"`
	FullName      string `json:"full_name"`
	IsMirrorDummy bool   `json:"is_mirror_dummy"`
}

// TopicLink is a link a linkifier generated from the topic.
type TopicLink struct {
	Text string `json:"text"`
	URL  string `json:"url"`
}

// MessageView is the Message resource as one user sees it.
type MessageView struct {
	ID       int    `json:"id"`
	Type     string `json:"type"`
	StreamID int    `json:"stream_id,omitempty"`
	Subject  string `json:"subject"`
	// TopicLinks is topic_links; below level 118 SubjectLinks, its earlier name, instead.
	TopicLinks       *[]TopicLink     `json:"topic_links,omitempty"`
	SubjectLinks     *[]TopicLink     `json:"subject_links,omitempty"`
	Content          string           `json:"content"`
	ContentType      string           `json:"content_type"`
	Timestamp        int64            `json:"timestamp"`
	SenderID         int              `json:"sender_id"`
	SenderEmail      string           `json:"sender_email"`
	SenderFullName   string           `json:"sender_full_name"`
	SenderRealmStr   string           `json:"sender_realm_str"`
	AvatarURL        any              `json:"avatar_url"`
	Client           string           `json:"client"`
	DisplayRecipient any              `json:"display_recipient"`
	RecipientID      int              `json:"recipient_id"`
	IsMeMessage      bool             `json:"is_me_message"`
	Flags            flagList         `json:"flags"`
	Reactions        reactionList     `json:"reactions"`
	Submessages      []SubmessageView `json:"submessages"`
	// EditHistory is absent when never edited or moved, or when the realm hides it.
	EditHistory []EditEntryView `json:"edit_history,omitempty"`
	// LastEditTimestamp is absent when the content was never edited.
	LastEditTimestamp int64 `json:"last_edit_timestamp,omitempty"`
	// LastMovedTimestamp is absent when never moved other than by resolving.
	LastMovedTimestamp int64 `json:"last_moved_timestamp,omitempty"`
	// MatchContent and MatchSubject are the content and topic with a search narrow's
	// matches highlighted, only in the results of such a narrow.
	MatchContent *string `json:"match_content,omitempty"`
	MatchSubject *string `json:"match_subject,omitempty"`
}

// ViewOptions are the client's choices for how a message is shown.
type ViewOptions struct {
	ApplyMarkdown       bool
	AllowEmptyTopicName bool
	// ClientGravatar: the client computes gravatar URLs, so avatar_url is null where it can.
	ClientGravatar bool

	boxes *viewBoxes // over a window of views; nil: each view boxes its own
}

// viewBoxes keeps the channel name and the sender's avatar URL last put in a view's fields of
// type any, so that a window of one channel's messages boxes each once rather than once per
// message (a narrowed fetch of 20 made 40 such allocations). A nil *viewBoxes boxes afresh.
type viewBoxes struct {
	channel     *Channel
	channelName any
	sender      *User
	avatar      any
}

func (b *viewBoxes) nameOf(ch *Channel) any {
	if b == nil {
		return ch.Name
	}
	if b.channel != ch {
		b.channel, b.channelName = ch, ch.Name
	}
	return b.channelName
}

func (b *viewBoxes) avatarOf(u *User) any {
	if b == nil {
		return avatarURL(u)
	}
	if b.sender != u {
		b.sender, b.avatar = u, avatarURL(u)
	}
	return b.avatar
}

// noTopicLinks are the links of a topic without any, [] in a view.
var noTopicLinks = []TopicLink{}

func (s *MessageState) messageView(viewer *User, m *Message, opts ViewOptions) MessageView {
	sender := s.userOrBot(m.SenderID)
	v := MessageView{
		ID: m.ID, Type: "stream", StreamID: m.ChannelID, Subject: m.Topic, Content: m.Rendered,
		ContentType: "text/html", Timestamp: m.Timestamp, SenderID: sender.ID, SenderEmail: s.accts.apiEmail(sender),
		SenderFullName: sender.FullName, SenderRealmStr: s.settings.StringID, AvatarURL: opts.boxes.avatarOf(sender),
		Client: m.Client, RecipientID: m.RecipientID, IsMeMessage: strings.HasPrefix(m.Content, "/me "),
		Reactions: s.reactionViews(m), Submessages: submessageViews(m),
	}
	if mutation.On("recipient-id-per-message") {
		v.RecipientID = m.ID
	}
	if mutation.On("sender-realm-per-sender") {
		v.SenderRealmStr = sender.FullName
	}
	if mutation.On("sender-email-real-always") {
		v.SenderEmail = sender.Email
	}
	if mutation.On("is-me-message-never") {
		v.IsMeMessage = false
	}
	if mutation.On("timestamp-milliseconds") {
		v.Timestamp *= 1000
	}
	if mutation.On("avatar-null-for-hidden-email") && opts.ClientGravatar {
		v.AvatarURL = nil
	}
	if mutation.On("avatar-null-when-email-visible") && s.accts.canSeeRealEmail(viewer, sender) {
		v.AvatarURL = nil
	}
	if opts.ClientGravatar && s.accts.canSeeRealEmail(viewer, sender) && !avatarAlwaysGiven() {
		// The client computes gravatar URLs itself; every avatar here is a gravatar.
		v.AvatarURL = nil
	}
	if !opts.ApplyMarkdown {
		v.Content, v.ContentType = m.Content, "text/x-markdown"
	}
	if mutation.On("content-type-markdown-unprefixed") && !opts.ApplyMarkdown {
		v.ContentType = "text/markdown"
	}
	if mutation.On("raw-markdown-content-rendered") {
		v.Content = m.Rendered
	}
	if mutation.On("content-type-always-html") {
		v.ContentType = "text/html"
	}
	if m.IsDirect {
		v.Type, v.StreamID = "private", 0
		if mutation.On("dm-type-direct") {
			v.Type = "direct"
		}
		if mutation.On("dm-type-stream") {
			v.Type = "stream"
		}
		if mutation.On("dm-stream-id-present") {
			v.StreamID = m.RecipientID
		}
		if mutation.On("dm-subject-display-name") {
			v.Subject = s.settings.EmptyTopicDisplayName
		}
		recipients := make([]Recipient, 0, len(m.Participants))
		for _, id := range m.Participants {
			p := s.accts.users[id]
			recipients = append(recipients, Recipient{ID: p.ID, Email: s.accts.apiEmail(p), FullName: p.FullName})
		}
		if mutation.On("dm-recipient-real-email") {
			realEmails(recipients, s.accts.users)
		}
		v.DisplayRecipient = recipients
		if mutation.On("dm-recipients-without-sender") {
			v.DisplayRecipient = slices.DeleteFunc(recipients, func(r Recipient) bool { return r.ID == m.SenderID })
		}
	} else {
		v.DisplayRecipient = opts.boxes.nameOf(s.chans.channels[m.ChannelID])
		if mutation.On("display-recipient-first-channel") {
			v.DisplayRecipient = s.chans.channels[firstChannel(m)].Name
		}
		if m.Topic == "" && !opts.AllowEmptyTopicName {
			v.Subject = s.settings.EmptyTopicDisplayName
		}
		if mutation.On("empty-topic-shown-empty-by-default") {
			v.Subject = m.Topic
		}
		if mutation.On("subject-html-escaped") {
			v.Subject = html.EscapeString(v.Subject)
		}
		if mutation.On("subject-of-first-topic") {
			v.Subject = firstTopic(m)
		}
	}
	// A topic without links shares noTopicLinks rather than making a list per message (a
	// view's links are never changed).
	links := &noTopicLinks
	if found := s.org.topicLinks(v.Subject); len(found) > 0 && !mutation.On("topic-links-empty") {
		kept := found
		links = &kept
	}
	if s.atLeast(LevelTopicNames) && !mutation.On("subject-links-at-modern-level") {
		v.TopicLinks = links
	} else {
		v.SubjectLinks = links
	}
	if mutation.On("topic-links-dropped") {
		v.TopicLinks, v.SubjectLinks = nil, nil
	}
	v.Flags = viewFlags(m, viewer.ID)
	if mutation.On("read-flag-per-message") {
		v.Flags = readByAnyone(m, v.Flags)
	}
	if mutation.On("wildcard-flag-dropped") {
		v.Flags = slices.DeleteFunc(slices.Clone(v.Flags), func(f string) bool { return f == "wildcard_mentioned" })
	}
	if mutation.On("topic-wildcard-flagged-as-channel") {
		v.Flags = topicWildcardAsChannel(v.Flags)
	}
	if mutation.On("variant-flags-reversed") {
		v.Flags = slices.Clone(v.Flags)
		slices.Reverse(v.Flags)
	}
	s.addEditFields(&v, m, opts)
	return v
}

func joinInts(ids []int) string {
	parts := make([]string, len(ids))
	for i, id := range ids {
		parts[i] = strconv.Itoa(id)
	}
	return strings.Join(parts, ",")
}
