// Package control is the fake's control API, the routes under /_fake/ that do what no public
// API can (reset, fixture load, the clock, configuration, the journal, faults, the inspector),
// behind their guard; and the fake's description, GET /openapi.json. It reaches the Server
// through the small interface Server, and the layers below it directly: it knows nothing of
// the API's handlers.
package control

import (
	"sync"

	"github.com/chatconform/chatconform/fakeserver/internal/clock"
	"github.com/chatconform/chatconform/fakeserver/internal/config"
	"github.com/chatconform/chatconform/fakeserver/internal/events"
	"github.com/chatconform/chatconform/fakeserver/internal/pipeline"
	"github.com/chatconform/chatconform/fakeserver/internal/realm"
	"github.com/chatconform/chatconform/fixtures"
)

// Server is what the control API asks of the server it controls: what changes the server as
// a whole, across its layers. *fakeserver.Server implements it.
type Server interface {
	// Reset returns to the state the server was started with.
	Reset()
	// LoadFixture replaces the whole state with a fixture's (one CheckFixture passed).
	LoadFixture(f *fixtures.Fixture)
	// Fixture is the fixture the server was last loaded with.
	Fixture() *fixtures.Fixture
	// Config and SetConfig read and replace the server configuration.
	Config() config.Config
	SetConfig(c config.Config)
}

// Parts are what the control API reads and moves itself: the layers below it, and the lock
// that orders its steps with the Server's resets.
type Parts struct {
	State   *realm.State
	Hub     *events.Hub
	Clock   *clock.Clock
	Journal *pipeline.Journal
	Faults  *pipeline.Faults
	// Steps orders resets, fixture loads, configuration changes and clock moves: each is one
	// step, and none interleaves with another (the Server's Reset and LoadFixture hold it).
	Steps *sync.Mutex
}

// Access says who may use the control API (guard.go).
type Access struct {
	Off   bool   // every /_fake/ path answers 404
	Token string // the bearer token every request needs; "" for none
}

// Service is the control API of one fake.
type Service struct {
	server       Server
	state        *realm.State
	hub          *events.Hub
	clock        *clock.Clock
	journal      *pipeline.Journal
	faults       *pipeline.Faults
	steps        *sync.Mutex
	access       Access
	capabilities []string
	// inspectorSecret is what the inspector page sends the control API (webPage).
	inspectorSecret string
	ticker          wallTicker
}

// New returns the control API of server, which health says offers capabilities.
func New(server Server, parts Parts, access Access, capabilities []string) *Service {
	return &Service{server: server, state: parts.State, hub: parts.Hub, clock: parts.Clock, journal: parts.Journal,
		faults: parts.Faults, steps: parts.Steps, access: access, capabilities: capabilities, inspectorSecret: newInspectorSecret()}
}
