package fakeserver

import (
	"net/http"

	"github.com/chatconform/chatconform/fakeserver/openapi"
)

// describePath is where the fake serves its OpenAPI description, without credentials, so that
// client developers can generate a client from the fake they test against.
const describePath = "/openapi.json"

// serveDescription: GET /openapi.json — the description of every route the fake serves.
func (s *Server) serveDescription(w http.ResponseWriter, _ *http.Request) {
	body, err := openapi.JSON()
	if err != nil {
		writeError(w, nil)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(body)
}
