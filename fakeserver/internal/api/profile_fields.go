package api

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"

	"github.com/go-chi/chi/v5"

	"github.com/chatconform/chatconform/fakeserver/internal/apierr"
	"github.com/chatconform/chatconform/fakeserver/internal/handler"
	"github.com/chatconform/chatconform/fakeserver/internal/realm"
)

// getProfileFields: GET /realm/profile_fields.
func (s *Service) getProfileFields(*handler.Call) (handler.Fields, error) {
	return handler.Fields{"custom_fields": s.realm().ProfileFields()}, nil
}

// addProfileField: POST /realm/profile_fields; administrators only.
func (s *Service) addProfileField(c *handler.Call) (handler.Fields, error) {
	name := c.P.RequiredString("name")
	hint, _ := c.P.String("hint")
	fieldType := c.P.RequiredInt("field_type")
	if err := c.Done(); err != nil {
		return nil, err
	}
	if fieldType < 0 || fieldType > 100 {
		return nil, apierr.BadRequest("Invalid field type.")
	}
	id, err := s.realm().AddProfileField(name, hint, int(fieldType))
	if err != nil {
		return nil, err
	}
	return handler.Fields{"id": id}, nil
}

// removeProfileField: DELETE /realm/profile_fields/{field_id}; administrators only.
func (s *Service) removeProfileField(c *handler.Call) (handler.Fields, error) {
	id, err := c.PathID("field_id", apierr.BadRequest("Field id %s not found.", chi.URLParam(c.R, "field_id")))
	if err != nil {
		return nil, err
	}
	return handler.Fields{}, s.realm().RemoveProfileField(id)
}

// profileData reads profile_data: a JSON list of {"id": integer, "value": string, list of
// integers or null}, with the real server's messages for each way an item can be wrong.
func profileData(c *handler.Call) []realm.ProfileDataItem {
	v, ok := c.P.JSON("profile_data")
	if !ok {
		return nil
	}
	list, isList := v.([]any)
	if !isList {
		c.P.Fail(apierr.BadRequest("profile_data is not a list"))
		return nil
	}
	items := make([]realm.ProfileDataItem, 0, len(list))
	for i, raw := range list {
		item, err := profileDataItem(raw, fmt.Sprintf("profile_data[%d]", i))
		if err != nil {
			c.P.Fail(err)
			return nil
		}
		items = append(items, item)
	}
	return items
}

func profileDataItem(raw any, path string) (realm.ProfileDataItem, error) {
	obj, isObj := raw.(map[string]any)
	if !isObj {
		return realm.ProfileDataItem{}, apierr.BadRequest("%s is not a dict", path)
	}
	for _, key := range slices.Sorted(maps.Keys(obj)) { // the same key named every time
		if key != "id" && key != "value" {
			return realm.ProfileDataItem{}, apierr.BadRequest(`Argument "%s" at %s is unexpected`, key, path)
		}
	}
	rawID, hasID := obj["id"]
	rawValue, hasValue := obj["value"]
	switch {
	case !hasID:
		return realm.ProfileDataItem{}, apierr.BadRequest(`%s["id"] is missing`, path)
	case !hasValue:
		return realm.ProfileDataItem{}, apierr.BadRequest(`%s["value"] is missing`, path)
	}
	id, ok := jsonInt(rawID)
	if !ok {
		return realm.ProfileDataItem{}, apierr.BadRequest(`%s["id"] is not an integer`, path)
	}
	if id < 0 || id > 1<<31-1 {
		return realm.ProfileDataItem{}, apierr.BadRequest("Field id %d not found.", id)
	}
	item := realm.ProfileDataItem{ID: int(id)}
	switch value := rawValue.(type) {
	case nil:
	case string:
		item.Value = value
	case []any:
		ids := make([]int, 0, len(value))
		for j, e := range value {
			n, ok := jsonInt(e)
			if !ok {
				return realm.ProfileDataItem{}, apierr.BadRequest(`%s["value"][%d] is not an integer`, path, j)
			}
			if n < 0 || n > 1<<31-1 {
				n = 0 // names no user
			}
			ids = append(ids, int(n))
		}
		item.Value = ids
	default:
		return realm.ProfileDataItem{}, apierr.BadRequest(`%s["value"] is not a string, a list of integers or null`, path)
	}
	return item, nil
}

// jsonInt reads a decoded JSON number (params decodes with UseNumber) as an integer.
func jsonInt(v any) (int64, bool) {
	n, ok := v.(json.Number)
	if !ok {
		return 0, false
	}
	i, err := strconv.ParseInt(string(n), 10, 64)
	return i, err == nil
}
