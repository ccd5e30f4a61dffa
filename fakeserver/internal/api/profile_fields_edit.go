package api

import (
	"github.com/go-chi/chi/v5"

	"github.com/chatconform/chatconform/fakeserver/internal/apierr"
	"github.com/chatconform/chatconform/fakeserver/internal/handler"
	"github.com/chatconform/chatconform/fakeserver/internal/realm"
)

// updateProfileField: PATCH /realm/profile_fields/{field_id} — administrators only.
func (s *Service) updateProfileField(c *handler.Call) (handler.Fields, error) {
	id, err := c.PathID("field_id", apierr.BadRequest("Field id %s not found.", chi.URLParam(c.R, "field_id")))
	if err != nil {
		return nil, err
	}
	r := s.realm()
	if !r.AtLeast(realm.LevelOptionalFieldUpdate) && !c.P.Has("name") {
		c.P.Fail(apierr.Missing("name"))
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
	if err := c.Done(); err != nil {
		return nil, err
	}
	return handler.Fields{}, r.UpdateProfileField(id, change)
}

// reorderProfileFields: PATCH /realm/profile_fields — administrators only.
func (s *Service) reorderProfileFields(c *handler.Call) (handler.Fields, error) {
	order := c.P.RequiredIntList("order")
	if err := c.Done(); err != nil {
		return nil, err
	}
	return handler.Fields{}, s.realm().ReorderProfileFields(order)
}
