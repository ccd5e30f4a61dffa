package fakeserver

import (
	"fmt"
	"net/url"

	"github.com/chatconform/chatconform/fakeserver/internal/config"
	"github.com/chatconform/chatconform/fakeserver/internal/control"
	"github.com/chatconform/chatconform/fixtures"
)

// What the fake is started with, which every reset and fixture load returns to: the
// configuration (WithConfig), a feature level (WithFeatureLevel) and settings in the control
// API's words (ParseSettings), applied in that order over the fixture's own.
type startup struct {
	config   Config
	level    int
	settings url.Values
}

// ParseSettings reads settings to start the fake with: one JSON object with the names and
// values PATCH /_fake/config takes, feature_level included (the binary's -config flag, the
// container's WithConfig). Unlike a PATCH, they hold across resets: the Option it returns
// makes them part of the state the fake was started with. An unknown setting or a value out
// of range is an error that names it.
func ParseSettings(data []byte) (Option, error) {
	form, err := control.ParseSettings(data)
	if err != nil {
		return nil, err
	}
	return func(s *Server) { s.start.settings = form }, nil
}

// checkStartup tells why options cannot start a fake: a fixture that does not load, a feature
// level out of range. Start fails the test with it; New panics.
func checkStartup(opts []Option) error {
	if len(opts) == 0 {
		return nil // nothing but the default fixture, which its own tests check
	}
	probe := &Server{}
	for _, o := range opts {
		o(probe)
	}
	if lvl := probe.start.level; lvl != 0 && (lvl < control.MinFeatureLevel || lvl > control.MaxFeatureLevel) {
		return fmt.Errorf("fakeserver: WithFeatureLevel(%d): a feature level is %d to %d", lvl, control.MinFeatureLevel, control.MaxFeatureLevel)
	}
	if probe.fixtureSet {
		if probe.fixture == nil {
			return fmt.Errorf("fakeserver: WithFixture(nil): give a fixture (fixtures.Default(), fixtures.Parse, fixtures.LoadFile)")
		}
		if err := CheckFixture(probe.fixture); err != nil {
			return fmt.Errorf("fakeserver: WithFixture: %w", err)
		}
	}
	return nil
}

// startConfig is the configuration and feature level a load of f starts with.
func (s *Server) startConfig(f *fixtures.Fixture) (Config, int) {
	cfg, level := config.FromFixture(f, s.start.config), f.Realm.FeatureLevel
	if s.start.level != 0 {
		level = s.start.level
	}
	if s.start.settings != nil {
		cfg, level = control.ApplySettings(s.start.settings, cfg, level, f)
	}
	return cfg, level
}
