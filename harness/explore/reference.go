package explore

import (
	"io"
	"time"

	"github.com/chatconform/chatconform/fakeserver"
	"github.com/chatconform/chatconform/fixtures"
	"github.com/chatconform/chatconform/harness"
)

// Fake starts the reference fake in-process on its default fixture, at the target's feature
// level and, when the target's clock was read, at the target's time and in its clock's mode;
// otherwise on the wall clock, as a real server's. The harness connects to it as to any
// target, so both sides have the same cast of actors.
func Fake(target *harness.Target, clock *Clock) (*harness.Target, func(), error) {
	opts := []fakeserver.Option{fakeserver.WithFeatureLevel(target.FeatureLevel), fakeserver.WithClockMode(fakeserver.ClockWall)}
	if clock != nil && clock.Mode == string(fakeserver.ClockFrozen) {
		opts[1] = fakeserver.WithClockMode(fakeserver.ClockFrozen)
	}
	ts := fakeserver.NewTestServer(opts...)
	// A running clock too: the target's may be ahead of the wall, moved by an earlier sequence.
	if clock != nil {
		if err := ts.Server.SetClock(time.Unix(clock.Now, 0)); err != nil {
			ts.Close()
			return nil, nil, err
		}
	}
	owner, _ := ts.Server.Fixture().UserByRole(fixtures.RoleOwner)
	cfg := harness.Config{
		URL:            ts.URL,
		Owner:          harness.Credentials{Email: owner.Email, APIKey: owner.APIKey},
		FeatureLevel:   target.FeatureLevel,
		RequestTimeout: target.Config.RequestTimeout,
		ReportDir:      target.Config.ReportDir,
		// Its fixture's JWT key: where the target's settings give its own, both sides log in.
		JWTKey: ts.Server.Fixture().Realm.JWTKey, JWTAlgorithm: ts.Server.Fixture().Realm.JWTAlgorithm,
	}
	ref, err := harness.ConnectLogging(cfg, io.Discard)
	if err != nil {
		ts.Close()
		return nil, nil, err
	}
	ref.Log = io.Discard
	return ref, ts.Close, nil
}
