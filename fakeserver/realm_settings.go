package fakeserver

import (
	"github.com/chatconform/chatconform/fakeserver/internal/apierr"
	"github.com/chatconform/chatconform/fakeserver/internal/realm"
)

// updateRealm: PATCH /realm — the settings that govern editing and moving messages; the
// response echoes what changed, as the real server does.
func (s *Server) updateRealm(c *call) (fields, error) {
	change := realm.EditingChange{Limits: map[string]*int{}}
	if c.p.Has("allow_message_editing") {
		v := c.p.Bool("allow_message_editing", true)
		change.AllowMessageEditing = &v
	}
	for _, name := range realm.EditingSettingNames {
		if limit, given := limitParam(c, name); given {
			change.Limits[name] = limit
		}
	}
	if err := c.done(); err != nil {
		return nil, err
	}
	return fields(s.realm().UpdateEditing(change)), nil
}

// limitParam reads a time limit: a JSON positive integer of seconds, or "unlimited" (nil).
func limitParam(c *call, name string) (*int, bool) {
	n, unlimited, ok := c.p.IntOrWord(name, "unlimited")
	switch {
	case !ok:
		return nil, false
	case unlimited:
		return nil, true
	case n <= 0:
		c.p.Fail(apierr.BadRequest("%s is too small", name))
		return nil, false
	case n > 1<<31-1:
		c.p.Fail(apierr.BadRequest("%s is too large", name))
		return nil, false
	}
	limit := int(n)
	return &limit, true
}
