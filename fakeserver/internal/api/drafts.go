package api

import (
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/chatconform/chatconform/fakeserver/internal/apierr"
	"github.com/chatconform/chatconform/fakeserver/internal/handler"
	"github.com/chatconform/chatconform/fakeserver/internal/realm"
)

// draftKeys are the fields of a draft object; timestamp alone is optional.
var draftKeys = []string{"type", "to", "topic", "content", "timestamp"}

// draftData reads one draft object of a request; path names it in errors (drafts[0], draft).
func draftData(raw any, path string) (realm.DraftData, error) {
	var d realm.DraftData
	obj, isObj := raw.(map[string]any)
	if !isObj {
		return d, apierr.BadRequest("%s is not a dict", path)
	}
	for _, key := range slices.Sorted(maps.Keys(obj)) { // the same key named every time
		if !slices.Contains(draftKeys, key) {
			return d, apierr.BadRequest(`Argument "%s" at %s is unexpected`, key, path)
		}
	}
	for _, key := range draftKeys[:4] {
		if _, ok := obj[key]; !ok {
			return d, apierr.BadRequest(`%s["%s"] is missing`, path, key)
		}
	}
	typ, isStr := obj["type"].(string)
	if !isStr || !slices.Contains([]string{"", "stream", "private"}, typ) {
		return d, apierr.BadRequest(`Invalid %s["type"]`, path)
	}
	d.Type = typ
	to, isList := obj["to"].([]any)
	if !isList {
		return d, apierr.BadRequest(`%s["to"] is not a list`, path)
	}
	for i, e := range to {
		n, ok := jsonInt(e)
		if !ok {
			return d, apierr.BadRequest(`%s["to"][%d] is not an integer`, path, i)
		}
		if n < 0 || n > maxInt32 {
			n = 0 // names nothing
		}
		d.To = append(d.To, int(n))
	}
	for key, dst := range map[string]*string{"topic": &d.Topic, "content": &d.Content} {
		str, isStr := obj[key].(string)
		if !isStr {
			return d, apierr.BadRequest(`%s["%s"] is not a string`, path, key)
		}
		*dst = str
	}
	if strings.TrimSpace(d.Content) == "" {
		return d, apierr.BadRequest(`%s["content"] cannot be blank`, path)
	}
	if raw, ok := obj["timestamp"]; ok && raw != nil {
		// An integer or a float, kept to the second as the real server shows it.
		n, isNum := raw.(json.Number)
		f, err := n.Float64()
		if !isNum || err != nil {
			return d, apierr.BadRequest(`%s["timestamp"] is not a number`, path)
		}
		ts := int64(math.Floor(math.Max(math.Min(f, math.MaxInt64/2), math.MinInt64/2)))
		d.Timestamp = &ts
	}
	return d, nil
}

// getDrafts: GET /drafts.
func (s *Service) getDrafts(c *handler.Call) (handler.Fields, error) {
	if err := c.Done(); err != nil {
		return nil, err
	}
	drafts := s.realm().Drafts(c.User.ID)
	return handler.Fields{"count": len(drafts), "drafts": drafts}, nil
}

// createDrafts: POST /drafts — drafts is a JSON list of draft objects; all or none are saved.
func (s *Service) createDrafts(c *handler.Call) (handler.Fields, error) {
	var drafts []realm.DraftData
	if !c.P.Has("drafts") {
		c.P.Fail(apierr.Missing("drafts"))
	} else if list, ok := jsonOfKind[[]any](c, "drafts", "a list"); ok {
		for i, raw := range list {
			d, err := draftData(raw, fmt.Sprintf("drafts[%d]", i))
			if err != nil {
				c.P.Fail(err)
				break
			}
			drafts = append(drafts, d)
		}
	}
	if err := c.Done(); err != nil {
		return nil, err
	}
	ids, err := s.realm().CreateDrafts(c.User.ID, drafts)
	if err != nil {
		return nil, err
	}
	return handler.Fields{"ids": ids}, nil
}

// editDraft: PATCH /drafts/{draft_id} — draft is one JSON draft object.
func (s *Service) editDraft(c *handler.Call) (handler.Fields, error) {
	id, err := c.PathID("draft_id", errDraftMissing)
	if err != nil {
		return nil, err
	}
	var d realm.DraftData
	if !c.P.Has("draft") {
		c.P.Fail(apierr.Missing("draft"))
	} else if raw, ok := c.P.JSON("draft"); ok {
		var derr error
		if d, derr = draftData(raw, "draft"); derr != nil {
			c.P.Fail(derr)
		}
	}
	if err := c.Done(); err != nil {
		return nil, err
	}
	return handler.Fields{}, s.realm().EditDraft(c.User.ID, id, d)
}

// deleteDraft: DELETE /drafts/{draft_id}.
func (s *Service) deleteDraft(c *handler.Call) (handler.Fields, error) {
	return handler.ChangeByID(c, "draft_id", errDraftMissing, s.realm().DeleteDraft)
}

// errDraftMissing is the answer for a draft ID too large to name one.
var errDraftMissing = apierr.New(404, "BAD_REQUEST", "Draft does not exist")
