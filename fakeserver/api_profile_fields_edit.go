package fakeserver

import (
	"github.com/go-chi/chi/v5"

	"github.com/chatconform/chatconform/fakeserver/internal/apierr"
	"github.com/chatconform/chatconform/fakeserver/internal/realm"
)

// updateProfileField: PATCH /realm/profile_fields/{field_id} — administrators only.
func (s *Server) updateProfileField(c *call) (fields, error) {
	id, err := c.pathID("field_id", apierr.BadRequest("Field id %s not found.", chi.URLParam(c.r, "field_id")))
	if err != nil {
		return nil, err
	}
	r := s.realm()
	if !r.AtLeast(realm.LevelOptionalFieldUpdate) && !c.p.Has("name") {
		c.p.Fail(apierr.Missing("name"))
	}
	change := realm.ProfileFieldChange{
		Name:      optionalString(c, "name"),
		Hint:      optionalString(c, "hint"),
		Required:  optionalBool(c, "required"),
		InSummary: optionalBool(c, "display_in_profile_summary"),
	}
	if r.AtLeast(realm.LevelEditableByUser) {
		change.EditableByUser = optionalBool(c, "editable_by_user")
	}
	if err := c.done(); err != nil {
		return nil, err
	}
	return fields{}, r.UpdateProfileField(id, change)
}

// reorderProfileFields: PATCH /realm/profile_fields — administrators only.
func (s *Server) reorderProfileFields(c *call) (fields, error) {
	order := c.p.RequiredIntList("order")
	if err := c.done(); err != nil {
		return nil, err
	}
	return fields{}, s.realm().ReorderProfileFields(order)
}
