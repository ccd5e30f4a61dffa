package pipeline

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/go-chi/chi/v5"
)

// Every kind of registration in a table reaches the serving Server's own handler, through its
// own middlewares: at the top, inline (With), in a group, in a sub-router, a mount, any method,
// not found and wrong method.
func TestRouteTableDispatchesToTheServingServer(t *testing.T) {
	var table routeTable
	routes := func(name string) func(chi.Router) {
		h := func(what string) http.HandlerFunc {
			return func(w http.ResponseWriter, r *http.Request) {
				fmt.Fprintf(w, "%s %s %s", name, what, chi.URLParam(r, "id"))
			}
		}
		mark := func(tag string) func(http.Handler) http.Handler {
			return func(next http.Handler) http.Handler {
				return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
					w.Header().Add("X-Passed", name+" "+tag)
					next.ServeHTTP(w, r)
				})
			}
		}
		return func(r chi.Router) {
			r.Use(mark("top"))
			r.NotFound(h("not found"))
			r.MethodNotAllowed(h("wrong method"))
			r.Get("/get/{id}", h("get"))
			r.With(mark("with")).Post("/with", h("with"))
			r.Group(func(r chi.Router) {
				r.Use(mark("group"))
				r.Patch("/group", h("group"))
			})
			r.Route("/sub", func(r chi.Router) {
				r.Use(mark("sub"))
				r.Delete("/{id}", h("sub"))
			})
			r.Mount("/mount", h("mount"))
			r.Handle("/handle", h("handle"))
			r.Method(http.MethodPut, "/method", h("method"))
		}
	}
	a, b := &Pipeline{}, &Pipeline{}
	table.bind(a, routes("a"))
	table.bind(b, routes("b"))
	cases := []struct{ method, path, reply, passed string }{
		{http.MethodGet, "/get/7", "get 7", "top"},
		{http.MethodPost, "/with", "with ", "top with"},
		{http.MethodPatch, "/group", "group ", "top group"},
		{http.MethodDelete, "/sub/9", "sub 9", "top sub"},
		{http.MethodGet, "/mount/x", "mount ", "top"},
		{http.MethodPost, "/handle", "handle ", "top"},
		{http.MethodPut, "/method", "method ", "top"},
		{http.MethodGet, "/nowhere", "not found ", "top"},
		{http.MethodGet, "/with", "wrong method ", "top"},
	}
	for _, srv := range []struct {
		s    *Pipeline
		name string
	}{{a, "a"}, {b, "b"}} {
		for _, c := range cases {
			rec := httptest.NewRecorder()
			table.serve(srv.s, rec, httptest.NewRequest(c.method, c.path, nil))
			var passed []string
			for _, tag := range strings.Fields(c.passed) {
				passed = append(passed, srv.name+" "+tag)
			}
			if got, want := rec.Body.String(), srv.name+" "+c.reply; got != want {
				t.Errorf("%s: %s %s answered %q, want %q", srv.name, c.method, c.path, got, want)
			}
			if got := rec.Header()["X-Passed"]; strings.Join(got, ",") != strings.Join(passed, ",") {
				t.Errorf("%s: %s %s passed %q, want %q", srv.name, c.method, c.path, got, passed)
			}
		}
	}
}

// A Server whose routes differ from the table's is refused at once: its handlers would be
// reached by the wrong requests.
func TestRouteTableRefusesAnotherTable(t *testing.T) {
	ok := func(http.ResponseWriter, *http.Request) {}
	mw := func(next http.Handler) http.Handler { return next }
	var table routeTable
	table.bind(&Pipeline{}, func(r chi.Router) { r.Get("/one", ok) })
	for name, routes := range map[string]func(chi.Router){
		"another path":      func(r chi.Router) { r.Get("/two", ok) },
		"another method":    func(r chi.Router) { r.Post("/one", ok) },
		"a route more":      func(r chi.Router) { r.Get("/one", ok); r.Get("/two", ok) },
		"a route fewer":     func(chi.Router) {},
		"a middleware more": func(r chi.Router) { r.Use(mw); r.Get("/one", ok) },
	} {
		t.Run(name, func(t *testing.T) {
			defer func() {
				if recover() == nil {
					t.Error("bound without a panic")
				}
			}()
			table.bind(&Pipeline{}, routes)
		})
	}
	table.bind(&Pipeline{}, func(r chi.Router) { r.Get("/one", ok) }) // the same table binds
}
