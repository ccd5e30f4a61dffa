package api

import (
	"net/http"
	"strconv"

	"github.com/chatconform/chatconform/fakeserver/internal/apierr"
	"github.com/chatconform/chatconform/fakeserver/internal/handler"
	"github.com/chatconform/chatconform/fakeserver/internal/params"
	"github.com/chatconform/chatconform/fakeserver/internal/realm"
)

// exportRealm: POST /export/realm — an export of the organization, public unless export_type
// (from feature level 304: 1 or 2; from 449 a name) asks for one with the users' consent.
func (s *Service) exportRealm(c *handler.Call) (handler.Fields, error) {
	exportType := int64(realm.ExportPublic)
	switch {
	case s.realm().AtLeast(realm.LevelExportTypeNames):
		name := c.P.Enum("export_type", "public", "public", "full_with_consent", "full_without_consent")
		for t, n := range realm.ExportTypeNames {
			if n == name {
				exportType = int64(t)
			}
		}
	case s.realm().AtLeast(realm.LevelExportType):
		if t, ok := c.P.Int("export_type"); ok && t != realm.ExportPublic && t != realm.ExportWithConsent {
			c.P.Fail(apierr.BadRequest("Invalid export_type"))
		} else if ok {
			exportType = t
		}
	}
	if err := c.Done(); err != nil {
		return nil, err
	}
	id, err := s.realm().StartExport(c.User.ID, int(max(min(exportType, 1<<31-1), 0)))
	if err != nil {
		return nil, err
	}
	return handler.Fields{"id": id}, nil
}

// getExports: GET /export/realm.
func (s *Service) getExports(c *handler.Call) (handler.Fields, error) {
	if err := c.Done(); err != nil {
		return nil, err
	}
	return handler.Fields{"exports": s.realm().Exports()}, nil
}

// getExportConsents: GET /export/realm/consents (from feature level 295).
func (s *Service) getExportConsents(c *handler.Call) (handler.Fields, error) {
	if err := c.Done(); err != nil {
		return nil, err
	}
	return handler.Fields{"export_consents": s.realm().ExportConsents()}, nil
}

// serveExport: GET /user_avatars/exports/… — an export's file, to whoever has its secret URL,
// as the real server's local storage serves it.
func (s *Service) serveExport(w http.ResponseWriter, r *http.Request) {
	if _, err := params.Parse(r); err != nil {
		handler.WriteError(w, err)
		return
	}
	data, ok := s.realm().ExportFile(r.URL.Path)
	if !ok {
		handler.WriteError(w, apierr.NotFound())
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", strconv.Itoa(len(data)))
	w.WriteHeader(http.StatusOK)
	if r.Method != http.MethodHead {
		_, _ = w.Write(data)
	}
}
