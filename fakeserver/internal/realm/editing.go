package realm

import (
	"github.com/chatconform/chatconform/fakeserver/internal/events"
)

// EditingSettings are the realm settings that govern editing and moving messages. A nil limit
// means unlimited.
type EditingSettings struct {
	AllowMessageEditing             bool
	MessageContentEditLimitSeconds  *int
	MoveMessagesWithinStreamLimit   *int
	MoveMessagesBetweenStreamsLimit *int
}

// defaultEditing returns the real server's defaults.
func defaultEditing() EditingSettings {
	limit := func(n int) *int { return &n }
	return EditingSettings{
		AllowMessageEditing:             true,
		MessageContentEditLimitSeconds:  limit(600),
		MoveMessagesWithinStreamLimit:   limit(604800),
		MoveMessagesBetweenStreamsLimit: limit(604800),
	}
}

// EditingChange is a PATCH /realm request for the editing settings: nil fields and limits
// not named stay as they are.
type EditingChange struct {
	AllowMessageEditing *bool
	Limits              map[string]*int // setting name → new limit (nil: unlimited)
}

// Editing returns the current editing settings.
func (s *State) Editing() EditingSettings {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.editing
}

// EditingSettingNames are the limit settings by their API names, in the document's order.
var EditingSettingNames = []string{
	"message_content_edit_limit_seconds", "move_messages_within_stream_limit_seconds", "move_messages_between_streams_limit_seconds",
}

func (e *EditingSettings) limit(name string) **int {
	switch name {
	case "message_content_edit_limit_seconds":
		return &e.MessageContentEditLimitSeconds
	case "move_messages_within_stream_limit_seconds":
		return &e.MoveMessagesWithinStreamLimit
	default:
		return &e.MoveMessagesBetweenStreamsLimit
	}
}

// UpdateEditing applies a change (the caller is an administrator) and returns the settings
// that actually changed, which are also published to every user as one realm update_dict event.
func (s *State) UpdateEditing(c EditingChange) map[string]any {
	s.mu.Lock()
	defer s.mu.Unlock()
	changed := map[string]any{}
	if c.AllowMessageEditing != nil && *c.AllowMessageEditing != s.editing.AllowMessageEditing {
		s.editing.AllowMessageEditing = *c.AllowMessageEditing
		changed["allow_message_editing"] = *c.AllowMessageEditing
	}
	for _, name := range EditingSettingNames {
		v, given := c.Limits[name]
		if !given {
			continue
		}
		cur := s.editing.limit(name)
		if (*cur == nil) == (v == nil) && (v == nil || **cur == *v) {
			continue
		}
		*cur = v
		changed[name] = limitValue(v)
	}
	if len(changed) > 0 {
		s.publish(events.Event{"type": "realm", "op": "update_dict", "property": "default", "data": changed}, s.activeUserIDs()...)
	}
	return changed
}

// limitValue is a limit as the API shows it: seconds, or null for unlimited.
func limitValue(v *int) any {
	if v == nil {
		return nil
	}
	return *v
}

// EditingState is the editing settings as POST /register reports them.
func (e EditingSettings) State() map[string]any {
	return map[string]any{
		"realm_allow_message_editing":                       e.AllowMessageEditing,
		"realm_message_content_edit_limit_seconds":          limitValue(e.MessageContentEditLimitSeconds),
		"realm_move_messages_within_stream_limit_seconds":   limitValue(e.MoveMessagesWithinStreamLimit),
		"realm_move_messages_between_streams_limit_seconds": limitValue(e.MoveMessagesBetweenStreamsLimit),
	}
}
