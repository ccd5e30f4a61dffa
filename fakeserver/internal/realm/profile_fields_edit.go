package realm

import (
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/chatconform/chatconform/fakeserver/internal/apierr"
)

// LevelOptionalFieldUpdate: every parameter of PATCH /realm/profile_fields/{id} is optional
// (name was required before).
const LevelOptionalFieldUpdate = 252

// LevelEditableByUser: custom profile fields take editable_by_user.
const LevelEditableByUser = 296

// maxSummaryFields is how many custom profile fields the profile summary shows at most.
const maxSummaryFields = 2

// ProfileFieldChange is what PATCH /realm/profile_fields/{id} sends; nil fields stay.
type ProfileFieldChange struct {
	Name, Hint                          *string
	InSummary, Required, EditableByUser *bool
}

// UpdateProfileField changes a custom profile field (PATCH /realm/profile_fields/{id}); the
// caller is an administrator. Checked in the real server's order; every field's users are
// told the whole list again.
func (s *AccountState) UpdateProfileField(id int, ch ProfileFieldChange) error {
	if ch.Name != nil {
		trimmed := strings.TrimSpace(*ch.Name)
		ch.Name = &trimmed
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	f := s.profileField(id)
	if f == nil {
		return apierr.BadRequest("Field id %d not found.", id)
	}
	if ch.InSummary != nil && *ch.InSummary {
		inSummary := 0
		for _, o := range s.profileFields {
			if o.InSummary && o.ID != id {
				inSummary++
			}
		}
		if inSummary >= maxSummaryFields {
			return apierr.BadRequest("Only %d custom profile fields can be displayed in the profile summary.", maxSummaryFields)
		}
	}
	name, hint, summary := f.Name, f.Hint, f.InSummary
	if ch.Name != nil {
		name = *ch.Name
	}
	if ch.Hint != nil {
		hint = *ch.Hint
	}
	if ch.InSummary != nil {
		summary = *ch.InSummary
	}
	switch {
	case name == "":
		return apierr.BadRequest("Label cannot be blank.")
	case utf8.RuneCountInString(hint) > maxFieldHintLength:
		return apierr.BadRequest("hint is too long (limit: %d characters)", maxFieldHintLength)
	case utf8.RuneCountInString(name) > maxFieldNameLength:
		return apierr.BadRequest("name is too long (limit: %d characters)", maxFieldNameLength)
	case summary && (f.Type == FieldLongText || f.Type == FieldUser):
		return apierr.BadRequest("Field type not supported for display in profile summary.")
	}
	if slices.ContainsFunc(s.profileFields, func(o *ProfileField) bool { return o.ID != id && strings.EqualFold(o.Name, name) }) {
		return apierr.BadRequest("A field with that label already exists.")
	}
	f.Name, f.Hint, f.InSummary = name, hint, summary
	if ch.Required != nil {
		f.Required = *ch.Required
	}
	if ch.EditableByUser != nil {
		f.NotEditableByUser = !*ch.EditableByUser
	}
	s.publishProfileFields()
	return nil
}

// ReorderProfileFields sets the fields' order (PATCH /realm/profile_fields) by orderMapping.
func (s *AccountState) ReorderProfileFields(ids []int64) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	fieldIDs := make([]int, len(s.profileFields))
	for i, f := range s.profileFields {
		fieldIDs[i] = f.ID
	}
	place, err := orderMapping(ids, fieldIDs)
	if err != nil {
		return err
	}
	for _, f := range s.profileFields {
		f.Order = place[f.ID]
	}
	slices.SortStableFunc(s.profileFields, func(a, b *ProfileField) int { return a.Order - b.Order })
	s.publishProfileFields()
	return nil
}
