package pipeline

import (
	"net/http"

	"github.com/chatconform/chatconform/fakeserver/internal/handler"
)

// requireAuth lets only authenticated requests through to the routes it guards.
func (p *Pipeline) requireAuth(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		r, _ = handler.WithState(r) // where authenticate notes the username for the journal
		u, err := handler.Authenticate(r, p.state)
		if err != nil {
			handler.WriteError(w, err)
			return
		}
		next.ServeHTTP(w, handler.WithUser(r, u))
	})
}
