package realm

import (
	"encoding/json"
	"maps"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/chatconform/chatconform/fakeserver/internal/apierr"
	"github.com/chatconform/chatconform/fakeserver/internal/events"
	"github.com/chatconform/chatconform/fakeserver/internal/markdown"
	"github.com/chatconform/chatconform/fakeserver/internal/mutation"
)

// Custom profile field types, with the real server's numbers.
const (
	FieldShortText = 1
	FieldLongText  = 2
	FieldDate      = 4
	FieldURL       = 5
	FieldUser      = 6
	FieldPronouns  = 8
)

// profileFieldTypes maps the fixture's type names to the API's numbers.
var profileFieldTypes = map[string]int{
	"short_text": FieldShortText, "long_text": FieldLongText, "date": FieldDate,
	"url": FieldURL, "user": FieldUser, "pronouns": FieldPronouns,
}

// ProfileField is a custom profile field of the realm.
type ProfileField struct {
	ID   int
	Name string
	Hint string
	Type int
	// Order is where clients show the field: its ID when created, its place once reordered.
	Order int
	// The settings PATCH /realm/profile_fields/{id} changes (profile_fields_edit.go).
	InSummary, Required, NotEditableByUser bool
}

// ProfileFieldView is a custom profile field as GET /realm/profile_fields shows it.
type ProfileFieldView struct {
	ID                      int    `json:"id"`
	Type                    int    `json:"type"`
	Order                   int    `json:"order"`
	Name                    string `json:"name"`
	Hint                    string `json:"hint"`
	FieldData               string `json:"field_data"`
	DisplayInProfileSummary bool   `json:"display_in_profile_summary"`
	Required                bool   `json:"required"`
	EditableByUser          bool   `json:"editable_by_user"`
}

// ProfileFields lists the realm's custom profile fields in display order.
func (s *AccountState) ProfileFields() []ProfileFieldView {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.profileFieldViews()
}

func (s *AccountState) profileFieldViews() []ProfileFieldView {
	out := make([]ProfileFieldView, 0, len(s.profileFields))
	for _, f := range s.profileFields {
		out = append(out, ProfileFieldView{
			ID: f.ID, Type: f.Type, Order: f.Order, Name: f.Name, Hint: f.Hint,
			DisplayInProfileSummary: f.InSummary, Required: f.Required, EditableByUser: !f.NotEditableByUser,
		})
	}
	return out
}

// Limits of the real server's custom profile fields.
const (
	maxFieldNameLength = 40
	maxFieldHintLength = 80
	maxShortTextLength = 50
	maxLongTextLength  = 500
)

// AddProfileField creates a custom profile field (POST /realm/profile_fields); the role
// decorator ran before parsing. Types that need field data (choice, external account) are
// not offered by the fake.
func (s *AccountState) AddProfileField(name, hint string, fieldType int) (int, error) {
	name, hint = strings.TrimSpace(name), strings.TrimSpace(hint)
	switch {
	case name == "":
		return 0, apierr.BadRequest("Label cannot be blank.")
	case utf8.RuneCountInString(name) > maxFieldNameLength:
		return 0, apierr.BadRequest("name is too long (limit: %d characters)", maxFieldNameLength)
	case utf8.RuneCountInString(hint) > maxFieldHintLength:
		return 0, apierr.BadRequest("hint is too long (limit: %d characters)", maxFieldHintLength)
	case !slices.Contains(slices.Collect(maps.Values(profileFieldTypes)), fieldType):
		return 0, apierr.BadRequest("Invalid field type.")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, f := range s.profileFields {
		if strings.EqualFold(f.Name, name) {
			return 0, apierr.BadRequest("A field with that label already exists.")
		}
	}
	f := &ProfileField{ID: nextID(&s.nextField), Name: name, Hint: hint, Type: fieldType}
	f.Order = f.ID
	s.profileFields = append(s.profileFields, f)
	s.publishProfileFields()
	return f.ID, nil
}

// RemoveProfileField deletes a custom profile field and every user's value of it.
func (s *AccountState) RemoveProfileField(id int) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !removeFirst(&s.profileFields, func(f *ProfileField) bool { return f.ID == id }) {
		return apierr.BadRequest("Field id %d not found.", id)
	}
	for _, values := range s.profileValues {
		delete(values, id)
	}
	s.publishProfileFields()
	return nil
}

func (s *AccountState) publishProfileFields() {
	s.publish(events.Event{"type": "custom_profile_fields", "fields": s.profileFieldViews()}, s.activeUserIDs()...)
}

func (s *AccountState) profileField(id int) *ProfileField {
	for _, f := range s.profileFields {
		if f.ID == id {
			return f
		}
	}
	return nil
}

// ProfileDataItem is one entry of profile_data: a field ID and its new value, which is a
// string, a list of user IDs, or nil (remove the value).
type ProfileDataItem struct {
	ID    int
	Value any // string, []int or nil
}

// empty reports whether the item removes the field's value: null, "" and [] all do.
func (it ProfileDataItem) empty() bool {
	switch v := it.Value.(type) {
	case nil:
		return true
	case string:
		return v == ""
	case []int:
		return len(v) == 0
	}
	return false
}

// checkProfileData validates every item against its field's type, before anything changes.
func (s *AccountState) checkProfileData(items []ProfileDataItem) error {
	for _, it := range items {
		f := s.profileField(it.ID)
		if f == nil {
			return apierr.BadRequest("Field id %d not found.", it.ID)
		}
		if it.empty() {
			continue
		}
		if err := s.checkFieldValue(f, it.Value); err != nil {
			return err
		}
	}
	return nil
}

// checkFieldValue applies the field type's validator, with the real server's messages.
func (s *AccountState) checkFieldValue(f *ProfileField, value any) error {
	if f.Type == FieldUser {
		ids, ok := value.([]int)
		if !ok {
			return apierr.BadRequest("%s is not a list", f.Name)
		}
		for _, id := range ids {
			if u := s.users[id]; (u == nil || !u.IsActive) && !mutation.On("profile-users-any-id") {
				return apierr.BadRequest("Invalid user ID: %d", id)
			}
		}
		return nil
	}
	str, ok := value.(string)
	if !ok {
		return apierr.BadRequest("%s is not a string", f.Name)
	}
	limit := maxShortTextLength
	switch f.Type {
	case FieldLongText:
		limit = maxLongTextLength
	case FieldDate:
		if _, err := time.Parse(time.DateOnly, str); err != nil && !mutation.On("profile-date-unchecked") {
			return apierr.BadRequest("%s is not a date", f.Name)
		}
	case FieldURL:
		if u, err := url.Parse(str); (err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "") && !mutation.On("profile-link-any-text") {
			return apierr.BadRequest("%s is not a URL", f.Name)
		}
		limit = 2048
	}
	if utf8.RuneCountInString(str) > limit {
		return apierr.BadRequest("%s is too long (limit: %d characters)", f.Name, limit)
	}
	return nil
}

// applyProfileData stores checked items for the user and announces each change.
func (s *AccountState) applyProfileData(u *User, items []ProfileDataItem) {
	for _, it := range items {
		values := s.profileValues[u.ID]
		if values == nil {
			values = map[int]any{}
			s.profileValues[u.ID] = values
		}
		field := map[string]any{"id": it.ID}
		if it.empty() {
			if mutation.On("profile-null-kept") {
				continue
			}
			if mutation.On("profile-null-clears-every-field") {
				clear(values)
			}
			if _, had := values[it.ID]; !had {
				continue
			}
			delete(values, it.ID)
			field["value"] = nil
		} else {
			if old, had := values[it.ID]; had && profileValueText(old) == profileValueText(it.Value) {
				continue
			}
			values[it.ID] = it.Value
			entry := s.profileEntry(s.profileField(it.ID), it.Value)
			field["value"] = entry["value"]
			if r, ok := entry["rendered_value"]; ok {
				field["rendered_value"] = r
			}
		}
		s.publishUserUpdate(u, map[string]any{"custom_profile_field": field})
	}
}

// profileValueText is how the API shows a stored value: the string itself, or for a
// users field the JSON text of the list of IDs, as the real server shows it.
func profileValueText(v any) string {
	if ids, ok := v.([]int); ok {
		b, _ := json.Marshal(ids)
		return string(b)
	}
	s, _ := v.(string)
	return s
}

// profileEntry is a value as the user object's profile_data shows it; text fields carry
// their Markdown rendering too.
func (s *AccountState) profileEntry(f *ProfileField, v any) map[string]any {
	e := map[string]any{"value": profileValueText(v)}
	if f != nil && (f.Type == FieldShortText || f.Type == FieldLongText) {
		e["rendered_value"] = markdown.Render(profileValueText(v))
	}
	return e
}

// profileData is a user's profile_data map (field ID string -> entry), holding the fields
// that have a value.
func (s *AccountState) profileData(u *User) map[string]any {
	out := map[string]any{}
	for id, v := range s.profileValues[u.ID] {
		if f := s.profileField(id); f != nil {
			out[strconv.Itoa(id)] = s.profileEntry(f, v)
		}
	}
	return out
}
