package fakeserver

import (
	"github.com/go-chi/chi/v5"

	"github.com/chatconform/chatconform/fakeserver/internal/control"
	"github.com/chatconform/chatconform/fakeserver/internal/pipeline"
)

// outsideRoutes adds what the fake serves outside the API and its files: its description and
// the control API under /_fake/, behind its guard.
func outsideRoutes(r chi.Router) {
	r.Get(control.DescribePath, control.ServeDescription)
	r.Route(pipeline.ControlPrefix, func(r chi.Router) {
		r.Use(control.Guard)
		control.Routes(r)
	})
}
