package fakeserver

import (
	"github.com/chatconform/chatconform/fakeserver/internal/apierr"
	"github.com/chatconform/chatconform/fakeserver/internal/realm"
)

// getLinkifiers: GET /realm/linkifiers (operation 17), in the order clients apply them.
func (s *Server) getLinkifiers(c *call) (fields, error) {
	if err := c.done(); err != nil {
		return nil, err
	}
	return fields{"linkifiers": s.realm().Linkifiers()}, nil
}

// addLinkifier: POST /realm/filters — appended last.
func (s *Server) addLinkifier(c *call) (fields, error) {
	in := s.linkifierInput(c)
	if err := c.done(); err != nil {
		return nil, err
	}
	id, err := s.realm().AddLinkifier(in)
	if err != nil {
		return nil, err
	}
	return fields{"id": id}, nil
}

// removeLinkifier: DELETE /realm/filters/{filter_id}.
func (s *Server) removeLinkifier(c *call) (fields, error) {
	id, err := c.pathID("filter_id", apierr.BadRequest("Linkifier not found."))
	if err != nil {
		return nil, err
	}
	if err := c.done(); err != nil {
		return nil, err
	}
	return fields{}, s.realm().RemoveLinkifier(id)
}

// linkifierInput reads the fields of POST /realm/filters and PATCH /realm/filters/{id} that
// the level takes (linkifierList gives the same forms).
func (s *Server) linkifierInput(c *call) realm.LinkifierInput {
	r := s.realm()
	in := realm.LinkifierInput{Pattern: c.p.RequiredString("pattern")}
	if r.AtLeast(realm.LevelLinkifierURLTemplate) {
		in.URLTemplate = c.p.RequiredString("url_template")
	} else {
		in.URLTemplate = realm.TemplateOfFormatString(c.p.RequiredString("url_format_string"))
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
func (s *Server) updateLinkifier(c *call) (fields, error) {
	id, err := c.pathID("filter_id", apierr.BadRequest("Linkifier not found."))
	if err != nil {
		return nil, err
	}
	in := s.linkifierInput(c)
	if err := c.done(); err != nil {
		return nil, err
	}
	return fields{}, s.realm().UpdateLinkifier(id, in)
}

// reorderLinkifiers: PATCH /realm/linkifiers — the order clients apply linkifiers in.
func (s *Server) reorderLinkifiers(c *call) (fields, error) {
	ids := c.p.RequiredIntList("ordered_linkifier_ids")
	if err := c.done(); err != nil {
		return nil, err
	}
	return fields{}, s.realm().ReorderLinkifiers(ids)
}
