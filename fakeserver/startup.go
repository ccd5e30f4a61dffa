package fakeserver

import (
	"bytes"
	"errors"
	"fmt"
	"net/url"

	"github.com/chatconform/chatconform/fakeserver/internal/apierr"
	"github.com/chatconform/chatconform/fakeserver/internal/config"
	"github.com/chatconform/chatconform/fakeserver/internal/handler"
	"github.com/chatconform/chatconform/fakeserver/internal/params"
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

// Feature levels the fake can be: the first the API document knows, and a bound far above any
// the real server has reached.
const (
	minFeatureLevel = 1
	maxFeatureLevel = 10_000
)

// ParseSettings reads settings to start the fake with: one JSON object with the names and
// values PATCH /_fake/config takes, feature_level included (the binary's -config flag, the
// container's WithConfig). Unlike a PATCH, they hold across resets: the Option it returns
// makes them part of the state the fake was started with. An unknown setting or a value out
// of range is an error that names it.
func ParseSettings(data []byte) (Option, error) {
	form, err := jsonForm(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("invalid settings: not one JSON object, as PATCH /_fake/config takes")
	}
	c := handler.StrictCall(params.FromValues(form))
	if _, _, err := changeSettings(c, Config{}, minFeatureLevel, &fixtures.Fixture{}); err != nil {
		var aerr *apierr.Error
		if errors.As(err, &aerr) { // the message alone: no HTTP status where there is no request
			return nil, fmt.Errorf("invalid settings: %s", aerr.Msg)
		}
		return nil, fmt.Errorf("invalid settings: %w", err)
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
	if lvl := probe.start.level; lvl != 0 && (lvl < minFeatureLevel || lvl > maxFeatureLevel) {
		return fmt.Errorf("fakeserver: WithFeatureLevel(%d): a feature level is %d to %d", lvl, minFeatureLevel, maxFeatureLevel)
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
		// ParseSettings has checked them: they cannot fail here.
		cfg, level, _ = changeSettings(handler.StrictCall(params.FromValues(s.start.settings)), cfg, level, f)
	}
	return cfg, level
}
