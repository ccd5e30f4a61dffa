package control

import (
	"net/http"
	"sync"

	"github.com/chatconform/chatconform/fakeserver/internal/handler"
	"github.com/chatconform/chatconform/fakeserver/internal/params"
	"github.com/chatconform/chatconform/fakeserver/openapi"
)

// DescribePath is where the fake serves its OpenAPI description, without credentials, so that
// client developers can generate a client from the fake they test against.
const DescribePath = "/openapi.json"

var descriptionJSON = sync.OnceValues(openapi.JSON)

// ServeDescription: GET /openapi.json — the description of every route the fake serves.
func ServeDescription(w http.ResponseWriter, r *http.Request) {
	if _, err := params.Parse(r); err != nil {
		handler.WriteError(w, err)
		return
	}
	body, err := descriptionJSON()
	if err != nil {
		handler.WriteError(w, nil)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(body)
}
