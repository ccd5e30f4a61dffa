package api

import (
	"github.com/chatconform/chatconform/fakeserver/internal/apierr"
	"github.com/chatconform/chatconform/fakeserver/internal/handler"
	"github.com/chatconform/chatconform/fakeserver/internal/realm"
)

// getLinkifiers: GET /realm/linkifiers (operation 17), in the order clients apply them.
func (s *Service) getLinkifiers(c *handler.Call) (handler.Fields, error) {
	if err := c.Done(); err != nil {
		return nil, err
	}
	return handler.Fields{"linkifiers": s.realm().Linkifiers()}, nil
}

// addLinkifier: POST /realm/filters — appended last.
func (s *Service) addLinkifier(c *handler.Call) (handler.Fields, error) {
	in := s.linkifierInput(c)
	if err := c.Done(); err != nil {
		return nil, err
	}
	id, err := s.realm().AddLinkifier(in)
	if err != nil {
		return nil, err
	}
	return handler.Fields{"id": id}, nil
}

// removeLinkifier: DELETE /realm/filters/{filter_id}.
func (s *Service) removeLinkifier(c *handler.Call) (handler.Fields, error) {
	return handler.ChangeByID(c, "filter_id", apierr.BadRequest("Linkifier not found."), func(_, id int) error { return s.realm().RemoveLinkifier(id) })
}

// linkifierInput reads the fields of POST /realm/filters and PATCH /realm/filters/{id} that
// the level takes (linkifierList gives the same forms).
func (s *Service) linkifierInput(c *handler.Call) realm.LinkifierInput {
	r := s.realm()
	in := realm.LinkifierInput{Pattern: c.P.RequiredString("pattern")}
	if r.AtLeast(realm.LevelLinkifierURLTemplate) {
		in.URLTemplate = c.P.RequiredString("url_template")
	} else {
		in.URLTemplate = realm.TemplateOfFormatString(c.P.RequiredString("url_format_string"))
	}
	if r.AtLeast(realm.LevelLinkifierReverse) {
		in.ExampleInput = optionalString(c, "example_input")
		in.ReverseTemplate = optionalString(c, "reverse_template")
	}
	if r.AtLeast(realm.LevelLinkifierAlternatives) {
		in.AlternativeURLTemplates = stringList(c, "alternative_url_templates")
	}
	return in
}

// updateLinkifier: PATCH /realm/filters/{filter_id} — a new definition, same ID and place.
func (s *Service) updateLinkifier(c *handler.Call) (handler.Fields, error) {
	id, err := c.PathID("filter_id", apierr.BadRequest("Linkifier not found."))
	if err != nil {
		return nil, err
	}
	in := s.linkifierInput(c)
	if err := c.Done(); err != nil {
		return nil, err
	}
	return handler.Fields{}, s.realm().UpdateLinkifier(id, in)
}

// reorderLinkifiers: PATCH /realm/linkifiers — the order clients apply linkifiers in.
func (s *Service) reorderLinkifiers(c *handler.Call) (handler.Fields, error) {
	ids := c.P.RequiredIntList("ordered_linkifier_ids")
	if err := c.Done(); err != nil {
		return nil, err
	}
	return handler.Fields{}, s.realm().ReorderLinkifiers(ids)
}
