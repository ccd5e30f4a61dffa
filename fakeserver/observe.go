package fakeserver

import "github.com/chatconform/chatconform/fakeserver/internal/pipeline"

// What a test sees of the requests the fake received (the journal) and the faults it can
// inject into them; both are stages of the request pipeline (internal/pipeline).

// SpecHeader is the request header in which the suite names the spec that sent a request.
const SpecHeader = pipeline.SpecHeader

// JournalEntry is one request the fake received.
type JournalEntry = pipeline.JournalEntry

// JournalFilter selects journal entries; a zero field matches everything.
type JournalFilter = pipeline.JournalFilter

// Journal returns the requests the fake received that match f, oldest first (copies).
func (s *Server) Journal(f JournalFilter) []JournalEntry { return s.journal.Matching(f) }

// Verify checks that exactly n requests matching f were received (WireMock's verify): a test
// asserts how a client used the API. The error lists the requests that matched and, when
// fewer than n did, the last ones that arrived at all, with their status and parameters.
func (s *Server) Verify(f JournalFilter, n int) error { return s.journal.Verify(f, n) }

// Fault makes the fake misbehave on purpose for the API requests it matches, so a client's
// retry and error paths can be tested against the double (see pipeline.Fault).
type Fault = pipeline.Fault

// InjectFault puts a fault in force and returns its id; a reset or ClearFaults removes it.
func (s *Server) InjectFault(f Fault) (int, error) { return s.faults.Inject(f) }

// Faults lists the faults in force.
func (s *Server) Faults() []Fault { return s.faults.List() }

// ClearFaults removes every fault.
func (s *Server) ClearFaults() { s.faults.Clear() }

// Timeouts a server serving the fake should set (cmd/fakeserver does): a client gets this long
// to send its request and to take its reply, and an idle keep-alive connection is closed
// after IdleTimeout. A long poll of GET /events gets its poll timeout on top.
const (
	ReadHeaderTimeout = pipeline.ReadHeaderTimeout
	ReadTimeout       = pipeline.ReadTimeout
	WriteTimeout      = pipeline.WriteTimeout
	IdleTimeout       = pipeline.IdleTimeout
)
