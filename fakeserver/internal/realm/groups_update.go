package realm

import (
	"strings"

	"github.com/chatconform/chatconform/fakeserver/internal/apierr"
	"github.com/chatconform/chatconform/fakeserver/internal/events"
)

// GroupUpdate is what POST /user_groups/{id} asks to change; nil leaves a setting.
type GroupUpdate struct {
	Name, Description *string
	Deactivated       *bool
}

// UpdateGroup implements POST /user_groups/{id}: a group's name and description, and its
// deactivation or reactivation, by those who manage it, all or nothing. A deactivated group
// changes only by being reactivated. Each change is a user_group update event.
func (s *GroupState) UpdateGroup(requesterID, groupID int, up GroupUpdate) error {
	if up.Name == nil && up.Description == nil && up.Deactivated == nil {
		return apierr.BadRequest("No new data supplied")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	g, err := s.managedGroup(requesterID, groupID)
	if err != nil {
		return err
	}
	reactivate := up.Deactivated != nil && !*up.Deactivated && g.Deactivated
	deactivate := up.Deactivated != nil && *up.Deactivated && !g.Deactivated
	if g.Deactivated && !reactivate {
		return apierr.BadRequest("User group is deactivated.")
	}
	var name string
	if up.Name != nil {
		name = strings.TrimSpace(*up.Name)
		if err := s.checkGroupName(name, g); err != nil {
			return err
		}
	}
	if up.Description != nil {
		if err := checkGroupDescription(*up.Description); err != nil {
			return err
		}
	}
	update := func(key string, value any) {
		s.publish(events.Event{"type": "user_group", "op": "update", "group_id": g.ID, "data": map[string]any{key: value}}, s.accts.activeUserIDs()...)
	}
	if reactivate {
		s.setGroupDeactivated(g, false)
	}
	if up.Name != nil && name != g.Name {
		g.Name = name
		update("name", name)
	}
	if up.Description != nil && *up.Description != g.Description {
		g.Description = *up.Description
		update("description", g.Description)
	}
	if deactivate {
		s.setGroupDeactivated(g, true)
	}
	return nil
}
