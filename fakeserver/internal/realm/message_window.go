package realm

import (
	"encoding/json"
	"html"
	"slices"
	"sync"
)

// LargerThanMaxMessageID is the anchor the real server uses, and echoes, for newest (and for
// first_unread when nothing is unread); larger anchors are clamped to it.
const LargerThanMaxMessageID = 10_000_000_000_000_000

// Anchors of GET /messages besides a message ID.
const (
	AnchorNewest      = -1
	AnchorOldest      = -2
	AnchorFirstUnread = -3
)

// MessageQuery is a GET /messages request.
type MessageQuery struct {
	Anchor        int // a message ID or one of the Anchor constants
	NumBefore     int
	NumAfter      int
	IncludeAnchor bool
	Narrow        []NarrowTerm
	View          ViewOptions
}

// MessageWindow is the GET /messages response.
type MessageWindow struct {
	Messages       []MessageView `json:"messages"`
	Anchor         int           `json:"anchor"`
	FoundAnchor    bool          `json:"found_anchor"`
	FoundOldest    bool          `json:"found_oldest"`
	FoundNewest    bool          `json:"found_newest"`
	HistoryLimited bool          `json:"history_limited"`
}

// Messages returns a window of the messages of a narrow around an anchor (GET /messages).
func (s *MessageState) Messages(userID int, q MessageQuery) (MessageWindow, error) {
	return s.window(userID, q, nil)
}

// RecycledMessages is Messages for a reply: the window's views are in a list taken from, and
// given back to, a pool of such lists once written (RecycledViews.Release), so that a fetch
// does not allocate its views (21 of about 370 bytes each for a fetch of 20, the largest
// allocation of a narrowed fetch). w.Messages is that list: read it only until the release.
func (s *MessageState) RecycledMessages(userID int, q MessageQuery) (w MessageWindow, views RecycledViews, err error) {
	buf := viewLists.Get().(*[]MessageView)
	if w, err = s.window(userID, q, buf); err != nil {
		viewLists.Put(buf)
		return MessageWindow{}, RecycledViews{}, err
	}
	if cap(w.Messages) > cap(*buf) {
		*buf = w.Messages[:0]
	}
	return w, RecycledViews{list: buf, views: w.Messages}, nil
}

// viewLists are the lists of views of RecycledMessages, empty and cleared.
var viewLists = sync.Pool{New: func() any { return new([]MessageView) }}

// maxRecycledViews bounds the lists kept for reuse: a fetch of thousands keeps its list no longer.
const maxRecycledViews = 256

// RecycledViews are the views of a window of RecycledMessages, in a list that Release gives back
// for reuse.
type RecycledViews struct {
	list  *[]MessageView
	views []MessageView // the window's Messages: in *list, or of its own (an empty window's, or one too long)
}

// Views are the views, as the window's Messages holds them (valid until Release).
func (v RecycledViews) Views() []MessageView { return v.views }

// Release clears the list and gives it back for reuse; the views must not be read after.
func (v RecycledViews) Release() {
	if v.list == nil {
		return
	}
	clear((*v.list)[:min(len(v.views), cap(*v.list))])
	if cap(*v.list) <= maxRecycledViews {
		*v.list = (*v.list)[:0]
		viewLists.Put(v.list)
	}
}

// MarshalJSON writes the views as encoding/json writes a list of them.
func (v RecycledViews) MarshalJSON() ([]byte, error) { return json.Marshal(v.Views()) }

// window is Messages; buf, when not nil, is a list to build the views in.
func (s *MessageState) window(userID int, q MessageQuery, buf *[]MessageView) (MessageWindow, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	u := s.accts.users[userID]
	f, err := s.compileNarrow(u, q.Narrow)
	if err != nil {
		return MessageWindow{}, err
	}
	anchor := idOfAnchor(q.Anchor)
	if anchor == AnchorFirstUnread {
		anchor = s.firstUnread(f)
	}
	all := s.narrowed(f, anchor, q.NumBefore, q.NumAfter)
	w := MessageWindow{Anchor: anchor, Messages: []MessageView{}}
	split, _ := slices.BinarySearchFunc(all, anchor, func(m *Message, id int) int { return m.ID - id })
	before := all[:split]
	rest := all[split:]
	var at *Message
	if len(rest) > 0 && rest[0].ID == anchor {
		at, rest = rest[0], rest[1:]
		w.FoundAnchor = true
	}
	if len(before) > q.NumBefore {
		before = before[len(before)-q.NumBefore:]
	} else {
		w.FoundOldest = true
	}
	if len(rest) > q.NumAfter {
		rest = rest[:q.NumAfter]
	} else {
		w.FoundNewest = true
	}
	window := append(make([]*Message, 0, len(before)+1+len(rest)), before...)
	if at != nil && q.IncludeAnchor {
		window = append(window, at)
	}
	window = append(window, rest...)
	switch {
	case len(window) == 0:
	case buf != nil && cap(*buf) >= len(window):
		w.Messages = (*buf)[:0]
	default:
		w.Messages = make([]MessageView, 0, len(window))
	}
	view := q.View
	view.boxes = &viewBoxes{}
	for _, m := range window {
		v := s.messageView(u, m, view)
		if len(f.search) > 0 {
			// A search shows where it matched, in HTML whatever the content's format.
			content, subject := highlight(m.Rendered, f.search), highlight(html.EscapeString(m.Topic), f.search)
			v.MatchContent, v.MatchSubject = &content, &subject
		}
		w.Messages = append(w.Messages, v)
	}
	return w, nil
}

// idOfAnchor is the message id an anchor stands for: newest after every message, oldest before
// them; a message id (or first_unread, resolved later) as it is.
func idOfAnchor(anchor int) int {
	switch anchor {
	case AnchorNewest:
		return LargerThanMaxMessageID
	case AnchorOldest:
		return 0
	}
	return anchor
}

// narrowSource returns the list of the message index that holds every message the narrow can
// match: the shortest of those its positive terms select, or every id. The list belongs to the
// index (read it under the lock, never keep it).
func (s *MessageState) narrowSource(f *narrowFilter) idList {
	source := s.index.all
	consider := func(ids idList) {
		if ids.Len() < source.Len() {
			source = ids
		}
	}
	switch {
	case f.channelID != 0 && f.topic != nil:
		consider(s.index.topics[f.channelID][topicKeyOf(*f.topic)])
	case f.channelID != 0:
		consider(s.index.channels[f.channelID])
	}
	if f.direct != nil {
		consider(s.index.directs[*f.direct])
	}
	if f.senderID != 0 {
		consider(s.index.senders[f.senderID])
	}
	if f.unread {
		consider(s.index.unread[f.viewer.ID])
	}
	return source
}

// firstUnread is the first_unread anchor: the oldest message of the narrow the viewer has not
// read, found among the viewer's unread messages (LargerThanMaxMessageID for none).
func (s *MessageState) firstUnread(f *narrowFilter) int {
	for id := range s.index.unread[f.viewer.ID].All() {
		if m := s.messages.get(id); f.candidate(m) && f.matches(m) {
			return id
		}
	}
	return LargerThanMaxMessageID
}

// narrowed returns, ascending, the messages of the narrow that the window around the anchor
// needs: it walks the narrow's source list out from the anchor only as far as the window
// reaches (one message more each way, to tell whether it found the ends).
func (s *MessageState) narrowed(f *narrowFilter, anchor, numBefore, numAfter int) []*Message {
	ids := s.narrowSource(f)
	keep := func(id int) *Message {
		if m := s.messages.get(id); f.candidate(m) && f.matches(m) {
			return m
		}
		return nil
	}
	// Room for the whole window and the one message more each way, up to a bound (a client
	// may ask for thousands), rather than growing the list from one.
	before := make([]*Message, 0, max(0, min(numBefore+numAfter+3, 256)))
	for id := range ids.Before(anchor) {
		if len(before) > numBefore {
			break
		}
		if m := keep(id); m != nil {
			before = append(before, m)
		}
	}
	slices.Reverse(before)
	after := before
	for id := range ids.From(anchor) {
		if len(after)-len(before) > numAfter+1 {
			break
		}
		if m := keep(id); m != nil {
			after = append(after, m)
		}
	}
	return after
}
