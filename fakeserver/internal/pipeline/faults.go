package pipeline

import (
	"fmt"
	"net/http"
	"path"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/chatconform/chatconform/fakeserver/internal/apierr"
	"github.com/chatconform/chatconform/fakeserver/internal/handler"
)

// Fault makes the fake misbehave on purpose for the API requests it matches, so a client's
// retry and error paths can be tested against the double: delay the answer, then answer with
// an error or drop the connection (or, with neither, answer as usual, late).
type Fault struct {
	ID int `json:"id"`
	// Method (exact, any case), Path (an exact path or a path.Match pattern, starting with /
	// as every request's path does) and User (the HTTP Basic username) select requests; empty
	// matches any.
	Method string `json:"method,omitempty"`
	Path   string `json:"path,omitempty"`
	User   string `json:"user,omitempty"`
	// Status, Code and Msg are the error answered (the JSON error envelope); Status 0 answers
	// no error, and Code "" the code that fits the status (faultCode).
	Status int    `json:"status,omitempty"`
	Code   string `json:"code,omitempty"`
	Msg    string `json:"msg,omitempty"`
	// Delay is waited before anything else; Drop closes the connection without an answer.
	Delay time.Duration `json:"delay_ms,omitempty"`
	Drop  bool          `json:"drop,omitempty"`
	// Times is how many requests the fault takes before it is gone (0: until cleared).
	Times int `json:"times,omitempty"`
}

// MaxFaultDelay bounds a fault's delay below every client's patience the fake knows of.
const MaxFaultDelay = 5 * time.Minute

// check refuses a fault that cannot act as asked.
func (f Fault) check() error {
	switch {
	case f.Status != 0 && (f.Status < 400 || f.Status > 599):
		return apierr.BadRequest("status must be an HTTP error status, 400 to 599")
	case f.Delay < 0 || f.Delay > MaxFaultDelay:
		return apierr.BadRequest("delay_ms must be between 0 and %d", MaxFaultDelay.Milliseconds())
	case f.Times < 0:
		return apierr.BadRequest("times must not be negative")
	case f.Drop && f.Status != 0:
		return apierr.BadRequest("Send either drop or status, not both")
	case f.Status == 0 && !f.Drop && f.Delay == 0:
		return apierr.BadRequest("A fault needs a status, drop or delay_ms")
	case f.Path != "" && !strings.HasPrefix(f.Path, "/"):
		return apierr.BadRequest("path must start with / (such as /api/v1/messages): a request's path always does, so %q could never match", f.Path)
	}
	if _, err := path.Match(f.Path, ""); err != nil {
		return apierr.BadRequest("Invalid path pattern: %s", f.Path)
	}
	return nil
}

func (f Fault) matches(r *http.Request) bool {
	user, _, _ := r.BasicAuth()
	if f.Path != "" && f.Path != r.URL.Path {
		if ok, _ := path.Match(f.Path, r.URL.Path); !ok {
			return false
		}
	}
	return (f.Method == "" || strings.EqualFold(f.Method, r.Method)) && (f.User == "" || strings.EqualFold(f.User, user))
}

// Faults are the faults in force, first added first matched.
type Faults struct {
	mu   sync.Mutex
	next int
	list []Fault
	// any tells, without taking mu, whether list may hold a fault: a request meets none
	// most of the time, and then takes no lock.
	any atomic.Bool
}

// Inject puts a fault in force and returns its id; Clear removes it.
func (fs *Faults) Inject(f Fault) (int, error) {
	if err := f.check(); err != nil {
		return 0, err
	}
	fs.mu.Lock()
	defer fs.mu.Unlock()
	fs.next++
	f.ID = fs.next
	fs.list = append(fs.list, f)
	fs.any.Store(true)
	return f.ID, nil
}

// List lists the faults in force.
func (fs *Faults) List() []Fault {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	return append([]Fault{}, fs.list...)
}

// Clear removes every fault.
func (fs *Faults) Clear() {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	fs.list = nil
	fs.any.Store(false)
}

// take returns the fault for r, counting the request against it.
func (fs *Faults) take(r *http.Request) (Fault, bool) {
	if !fs.any.Load() {
		return Fault{}, false
	}
	fs.mu.Lock()
	defer fs.mu.Unlock()
	for i, f := range fs.list {
		if !f.matches(r) {
			continue
		}
		if f.Times > 0 {
			if fs.list[i].Times--; fs.list[i].Times == 0 {
				fs.list = append(fs.list[:i:i], fs.list[i+1:]...)
				fs.any.Store(len(fs.list) > 0)
			}
		}
		return f, true
	}
	return Fault{}, false
}

// Apply is middleware: API requests meet the faults in force; the control API never does, so
// a test can always clear them.
func (fs *Faults) Apply(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f, ok := Fault{}, false
		if !strings.HasPrefix(r.URL.Path, "/_fake/") {
			f, ok = fs.take(r)
		}
		if !ok {
			next.ServeHTTP(w, r)
			return
		}
		if f.Delay > 0 {
			// The delay is the fault's, not the client's: the connection's deadlines move past
			// it, so that the reply still gets the time every reply gets (as a long poll's do).
			rc := http.NewResponseController(w)
			deadline := time.Now().Add(f.Delay + WriteTimeout)
			_ = rc.SetReadDeadline(deadline)
			_ = rc.SetWriteDeadline(deadline)
			select {
			case <-time.After(f.Delay):
			case <-r.Context().Done():
				return
			}
		}
		if f.Drop || f.Status != 0 {
			// Read the body as an answered request's is read, so that the journal shows the
			// faulted request's parameters too.
			readBodyFirst(f.answer()).ServeHTTP(w, r)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// answer is what a fault with a status or drop does instead of the route.
func (f Fault) answer() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if f.Drop {
			if conn, _, err := http.NewResponseController(w).Hijack(); err == nil {
				_ = conn.Close()
				return
			}
			panic(http.ErrAbortHandler) // no connection to take: abort the answer instead
		}
		code, msg := f.Code, f.Msg
		if code == "" {
			code = faultCode(f.Status)
		}
		if msg == "" {
			msg = fmt.Sprintf("Fault %d injected by the control API", f.ID)
		}
		handler.WriteError(w, apierr.New(f.Status, code, "%s", msg))
	})
}

// faultCode is the code of a fault's error that names none: the real server's for the
// statuses it gives a code of its own (401 UNAUTHORIZED, 429 RATE_LIMIT_HIT), its default
// BAD_REQUEST for the other client errors, and for a server error the status's name
// (INTERNAL_SERVER_ERROR, as the fake's own 500 says; SERVICE_UNAVAILABLE for 503), which is
// no bad request.
func faultCode(status int) string {
	switch {
	case status == http.StatusUnauthorized:
		return "UNAUTHORIZED"
	case status == http.StatusTooManyRequests:
		return "RATE_LIMIT_HIT"
	case status < 500:
		return "BAD_REQUEST"
	}
	name := strings.ToUpper(http.StatusText(status))
	if name == "" {
		return "SERVER_ERROR"
	}
	return strings.Map(func(r rune) rune {
		if (r < 'A' || r > 'Z') && (r < '0' || r > '9') {
			return '_'
		}
		return r
	}, name)
}
