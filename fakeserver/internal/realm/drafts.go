package realm

import (
	"maps"
	"slices"
	"strings"

	"github.com/chatconform/chatconform/fakeserver/internal/apierr"
	"github.com/chatconform/chatconform/fakeserver/internal/events"
)

// Drafts a user keeps on the server, synchronized between their clients.

// DraftData is a draft as a client sends it (POST /drafts, PATCH /drafts/{id}).
type DraftData struct {
	Type    string // "", "stream" or "private"
	To      []int
	Topic   string
	Content string
	// Timestamp is the last edit time, UNIX seconds; nil: now.
	Timestamp *int64
}

// DraftView is a draft as the API shows it.
type DraftView struct {
	ID        int    `json:"id"`
	Type      string `json:"type"`
	To        []int  `json:"to"`
	Topic     string `json:"topic"`
	Content   string `json:"content"`
	Timestamp int64  `json:"timestamp"`
}

type userDraft struct {
	userID int
	view   DraftView
}

// draftView checks a draft with the real server's rules, in its order, and gives the form it
// is kept and shown in: a private draft without recipients is unaddressed (type ""), and a
// private draft's to lists the other participants (the user alone for a draft to oneself).
func (s *UserDataState) draftView(u *User, d DraftData) (DraftView, error) {
	v := DraftView{Type: d.Type, To: []int{}, Topic: ""}
	if strings.Contains(d.Content, "\x00") {
		return v, apierr.BadRequest("Message must not contain null bytes")
	}
	content, err := s.msgs.normalizeContent(d.Content)
	if err != nil {
		return v, err
	}
	v.Content = content
	v.Timestamp = s.Now()
	if d.Timestamp != nil {
		if *d.Timestamp < 0 {
			return v, apierr.BadRequest("Timestamp must not be negative.")
		}
		v.Timestamp = *d.Timestamp
	}
	switch d.Type {
	case "stream":
		if strings.Contains(d.Topic, "\x00") {
			return v, apierr.BadRequest("Topic must not contain null bytes")
		}
		if len(d.To) != 1 {
			return v, apierr.BadRequest("Must specify exactly 1 channel ID for channel messages")
		}
		if _, err := s.chans.accessibleChannel(u, d.To[0]); err != nil {
			return v, err
		}
		v.To, v.Topic = []int{d.To[0]}, truncate(d.Topic, s.settings.MaxTopicLength, "...")
	case "private":
		others := map[int]bool{}
		for _, id := range d.To {
			if s.accts.users[id] == nil {
				return v, apierr.BadRequest("Invalid user ID %d", id)
			}
			if id != u.ID {
				others[id] = true
			}
		}
		switch {
		case len(d.To) == 0:
			v.Type = ""
		case len(others) == 0:
			v.To = []int{u.ID}
		default:
			v.To = slices.Sorted(maps.Keys(others))
		}
	}
	return v, nil
}

// CreateDrafts saves drafts for the user, all or none, and answers their IDs in order.
func (s *UserDataState) CreateDrafts(userID int, drafts []DraftData) ([]int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	u := s.accts.users[userID]
	views := make([]DraftView, 0, len(drafts))
	for _, d := range drafts {
		v, err := s.draftView(u, d)
		if err != nil {
			return nil, err
		}
		views = append(views, v)
	}
	if err := roomFor(s.accts, s.drafts, draftOwner, userID, len(views), MaxDraftsPerUser, "drafts"); err != nil {
		return nil, err
	}
	ids := []int{}
	for i := range views {
		views[i].ID = nextID(&s.nextDraft)
		s.drafts[views[i].ID] = &userDraft{userID: userID, view: views[i]}
		ids = append(ids, views[i].ID)
	}
	s.publish(events.Event{"type": "drafts", "op": "add", "drafts": views}, userID)
	return ids, nil
}

// EditDraft replaces one of the user's drafts.
func (s *UserDataState) EditDraft(userID, id int, d DraftData) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	kept, err := own(s.drafts, draftOwner, userID, id, errNoDraft)
	if err != nil {
		return err
	}
	v, err := s.draftView(s.accts.users[userID], d)
	if err != nil {
		return err
	}
	v.ID = id
	kept.view = v
	s.publish(events.Event{"type": "drafts", "op": "update", "draft": v}, userID)
	return nil
}

// DeleteDraft removes one of the user's drafts.
func (s *UserDataState) DeleteDraft(userID, id int) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return deleteOwn(s.drafts, draftOwner, userID, id, errNoDraft, s.removeDraft)
}

func (s *UserDataState) removeDraft(d *userDraft) {
	delete(s.drafts, d.view.ID)
	s.publish(events.Event{"type": "drafts", "op": "remove", "draft_id": d.view.ID}, d.userID)
}

// errNoDraft is the real server's answer for a draft that is not the user's: 404.
func errNoDraft() error {
	return apierr.Of(apierr.KindNotFound, "BAD_REQUEST", "Draft does not exist")
}

// Drafts lists the user's drafts, the least recently edited first.
func (s *UserDataState) Drafts(userID int) []DraftView {
	s.mu.RLock()
	defer s.mu.RUnlock()
	out := ownList(slices.Collect(maps.Values(s.drafts)), draftOwner, userID, func(d *userDraft) DraftView { return d.view })
	slices.SortFunc(out, func(a, b DraftView) int {
		if a.Timestamp != b.Timestamp {
			return int(a.Timestamp - b.Timestamp)
		}
		return a.ID - b.ID
	})
	return out
}
