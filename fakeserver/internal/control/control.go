package control

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"path"
	"strconv"
	"strings"
	"time"

	"github.com/go-chi/chi/v5"

	"github.com/chatconform/chatconform/fakeserver/internal/apierr"
	"github.com/chatconform/chatconform/fakeserver/internal/clock"
	"github.com/chatconform/chatconform/fakeserver/internal/config"
	"github.com/chatconform/chatconform/fakeserver/internal/events"
	"github.com/chatconform/chatconform/fakeserver/internal/handler"
	"github.com/chatconform/chatconform/fakeserver/internal/params"
	"github.com/chatconform/chatconform/fakeserver/internal/pipeline"
	"github.com/chatconform/chatconform/fakeserver/internal/realm"
	"github.com/chatconform/chatconform/fixtures"
)

// Bounds of the virtual clock: year 9999, and one step well inside time.Duration's range.
const (
	maxClockSeconds   = 253402300799
	maxAdvanceSeconds = 100 * 365 * 24 * 3600
)

// Routes is the control API under /_fake/ (pipeline.ControlPrefix): what no public API can do.
func Routes(r chi.Router) {
	r.Get("/health", serveControl((*Service).health))
	r.Post("/reset", serveControl((*Service).reset))
	r.Post("/fixture", serveControl((*Service).loadFixture))
	r.Get("/clock", serveControl((*Service).getClock))
	r.Post("/clock", serveControl((*Service).moveClock))
	r.Get("/config", serveControl((*Service).getConfig))
	r.Patch("/config", serveControl((*Service).patchConfig))
	r.Get("/journal", serveControl((*Service).getJournal))
	r.Delete("/journal", serveControl((*Service).clearJournal))
	r.Post("/vcall_token", serveControl((*Service).setVCallToken))
	r.Post("/invites/accept", serveControl((*Service).acceptInvite))
	r.Post("/email_changes/confirm", serveControl((*Service).confirmEmailChange))
	r.Get("/", serveFrom((*Service).inspector))
	r.Get("/ui", serveFrom((*Service).inspector))
	r.Get("/inspect", serveControl((*Service).inspect))
	r.Get("/faults", serveControl((*Service).listFaults))
	r.Post("/faults", serveControl((*Service).addFault))
	r.Delete("/faults", serveControl((*Service).clearFaults))
}

// setVCallToken gives (has_token=true) or takes a user's video-call integration token, which a
// real user obtains from the provider outside the chat API.
func (s *Service) setVCallToken(c *handler.Call) (handler.Fields, error) {
	userID := c.P.RequiredInt("user_id")
	has := c.P.Bool("has_token", true)
	if err := c.Done(); err != nil {
		return nil, err
	}
	if userID < 1 || userID > 1<<31-1 {
		return nil, apierr.NoSuchUser
	}
	return handler.Fields{}, s.state.SetVCallToken(int(userID), has)
}

func (s *Service) health(*handler.Call) (handler.Fields, error) {
	return handler.Fields{"capabilities": s.capabilities, "server_permissions": s.state.ServerPermissions()}, nil
}

func (s *Service) reset(c *handler.Call) (handler.Fields, error) {
	if err := c.Done(); err != nil {
		return nil, err
	}
	s.server.Reset()
	return handler.Fields{}, nil
}

// loadFixture takes the fixture as the `fixture` parameter (YAML or JSON text).
func (s *Service) loadFixture(c *handler.Call) (handler.Fields, error) {
	text := c.P.RequiredString("fixture")
	if err := c.Done(); err != nil {
		return nil, err
	}
	f, err := fixtures.Parse([]byte(text))
	if err == nil {
		err = CheckFixture(f)
	}
	if err != nil {
		return nil, apierr.BadRequest("%v", err)
	}
	s.server.LoadFixture(f)
	return handler.Fields{}, nil
}

// CheckFixture tells whether a fixture loads: what fixtures validates (again, for a fixture
// built in Go), then whether its messages and reactions go through the realm's rules (an emoji
// name it knows, …).
func CheckFixture(f *fixtures.Fixture) error {
	if err := f.Validate(); err != nil {
		return err
	}
	if len(f.Messages) == 0 {
		return nil
	}
	return realm.New(f, clock.New(time.Unix(f.Realm.StartTime, 0)), events.Discard{}).SeedMessages(f)
}

func (s *Service) getClock(*handler.Call) (handler.Fields, error) {
	return handler.Fields{"now": s.clock.Unix(), "mode": s.ClockMode()}, nil
}

// moveClock switches the clock's mode (`mode`: frozen, or wall to start at the wall time and
// run with it), then sets it (`now`, UNIX seconds) or moves it forward (`advance`, seconds).
func (s *Service) moveClock(c *handler.Call) (handler.Fields, error) {
	mode := c.P.Enum("mode", "", fixtures.ClockFrozen, fixtures.ClockWall)
	now, hasNow := c.P.Int("now")
	advance, hasAdvance := c.P.Int("advance")
	if err := c.Done(); err != nil {
		return nil, err
	}
	s.steps.Lock() // a reset in between would leave half a move
	defer s.steps.Unlock()
	current := s.clock.Unix()
	if mode == fixtures.ClockWall { // the move starts from the wall time
		current = time.Now().Unix()
	}
	if err := CheckClockMove(now, hasNow, advance, hasAdvance, mode != "", current); err != nil {
		return nil, err
	}
	if mode != "" {
		s.SetClockMode(mode)
	}
	switch {
	case hasNow:
		s.clock.Set(time.Unix(now, 0))
	case hasAdvance:
		s.clock.Advance(time.Duration(advance) * time.Second)
	}
	s.state.Tick() // deliver what fell due in the time that passed
	return handler.Fields{"now": s.clock.Unix(), "mode": s.ClockMode()}, nil
}

// CheckClockMove refuses a clock move before anything changes (the Server's SetClock asks it
// too). A mode switch alone is a move: to wall time, or nowhere.
func CheckClockMove(now int64, hasNow bool, advance int64, hasAdvance, hasMode bool, current int64) error {
	switch {
	case hasNow && hasAdvance:
		return apierr.BadRequest("Send either now or advance, not both")
	case hasNow && (now < 0 || now > maxClockSeconds):
		return apierr.BadRequest("now must be between 0 and %d", maxClockSeconds)
	case hasAdvance && advance < 0:
		return apierr.BadRequest("advance must not be negative; use now to go back")
	case hasAdvance && (advance > maxAdvanceSeconds || current+advance > maxClockSeconds):
		return apierr.BadRequest("advance would move the clock past %d", maxClockSeconds)
	case !hasNow && !hasAdvance && !hasMode:
		return apierr.Missing("advance")
	}
	return nil
}

func (s *Service) getConfig(*handler.Call) (handler.Fields, error) {
	return handler.Fields{"config": s.shownConfig()}, nil
}

// configView is the configuration as the control API shows it: never the JWT key, with which
// anyone reading it could mint a token for any user, only whether one is set. (The outer
// JWTKey field hides Config's: encoding/json takes the shallower of two fields of one name.)
type configView struct {
	config.Config
	JWTKey    *string `json:"jwt_key,omitempty"`
	JWTKeySet bool    `json:"jwt_key_set"`
	// FeatureLevel is the level the fake behaves as: the fixture's, until patched.
	FeatureLevel int `json:"feature_level"`
}

func (s *Service) shownConfig() configView {
	c := s.server.Config()
	return configView{Config: c, JWTKeySet: c.JWTKey != "", FeatureLevel: s.state.Settings().FeatureLevel}
}

// patchConfig changes the named configuration settings, all or none.
func (s *Service) patchConfig(c *handler.Call) (handler.Fields, error) {
	// Read, change and write as one step, ordered with resets: two patches at once must both
	// take effect, and a patch must never write back what a reset in between undid.
	s.steps.Lock()
	defer s.steps.Unlock()
	cfg, level, err := changeSettings(c, s.server.Config(), s.state.Settings().FeatureLevel, s.server.Fixture())
	if err != nil {
		return nil, err
	}
	s.server.SetConfig(cfg)
	s.state.SetFeatureLevel(level)
	return handler.Fields{"config": s.shownConfig()}, nil
}

// changeSettings returns cfg and level with the settings the call names changed
// (fixture_jwt_key takes f's key), or the error of the first bad or unknown one.
func changeSettings(c *handler.Call, cfg config.Config, level int, f *fixtures.Fixture) (config.Config, int, error) {
	cfg.PushConfigured = c.P.Bool("push_configured", cfg.PushConfigured)
	cfg.EventPollTimeoutSeconds = intSetting(c, "event_poll_timeout_seconds", 1, maxPollTimeoutSeconds, cfg.EventPollTimeoutSeconds)
	cfg.EventQueueIdleSeconds = intSetting(c, "event_queue_idle_seconds", 1, maxAdvanceSeconds, cfg.EventQueueIdleSeconds)
	cfg.DeleteBatchSize = intSetting(c, "delete_batch_size", 1, 1_000_000, cfg.DeleteBatchSize)
	cfg.MaxBatchesPerRequest = intSetting(c, "max_batches_per_request", 0, 1_000_000, cfg.MaxBatchesPerRequest)
	if c.P.Bool("fixture_jwt_key", false) { // the key cannot be read back: this restores it
		cfg.JWTKey, cfg.JWTAlgorithm = f.Realm.JWTKey, f.Realm.JWTAlgorithm
	}
	if key, ok := c.P.String("jwt_key"); ok {
		cfg.JWTKey = key
	}
	cfg.JWTAlgorithm = c.P.Enum("jwt_algorithm", cfg.JWTAlgorithm, "HS256", "HS384", "HS512")
	cfg.VideoCallsConfigured = c.P.Bool("video_calls_configured", cfg.VideoCallsConfigured)
	cfg.UnusedAttachmentSeconds = intSetting(c, "unused_attachment_seconds", 1, maxAdvanceSeconds, cfg.UnusedAttachmentSeconds)
	cfg.MaxBotsPerUser = intSetting(c, "max_bots_per_user", 1, 1_000_000, cfg.MaxBotsPerUser)
	cfg.UploadQuotaBytesPerUser = int64(intSetting(c, "upload_quota_bytes_per_user", 1, 1<<40, int(cfg.UploadQuotaBytesPerUser)))
	cfg.UploadQuotaBytesTotal = int64(intSetting(c, "upload_quota_bytes_total", 1, 1<<40, int(cfg.UploadQuotaBytesTotal)))
	cfg.BotStorageQuotaBytesPerOwner = intSetting(c, "bot_storage_quota_bytes_per_owner", 1, 1<<40, cfg.BotStorageQuotaBytesPerOwner)
	cfg.BotStorageQuotaBytesTotal = intSetting(c, "bot_storage_quota_bytes_total", 1, 1<<40, cfg.BotStorageQuotaBytesTotal)
	cfg.MaxHeaderBytes = intSetting(c, "max_header_bytes", 1024, 1<<20, cfg.MaxHeaderBytes)
	cfg.JournalMaxBytes = intSetting(c, "journal_max_bytes", 1024, 1<<30, cfg.JournalMaxBytes)
	cfg.JournalEntryMaxBytes = intSetting(c, "journal_entry_max_bytes", 16, 1<<20, cfg.JournalEntryMaxBytes)
	cfg.EventQueueMaxEvents = intSetting(c, "event_queue_max_events", 1, 10_000_000, cfg.EventQueueMaxEvents)
	cfg.EventQueueIdleWallSeconds = intSetting(c, "event_queue_idle_wall_seconds", 1, maxAdvanceSeconds, cfg.EventQueueIdleWallSeconds)
	cfg.RateLimitRequests = intSetting(c, "rate_limit_requests", 0, 1_000_000, cfg.RateLimitRequests)
	cfg.RateLimitWindowSeconds = intSetting(c, "rate_limit_window_seconds", 1, 24*3600, cfg.RateLimitWindowSeconds)
	level = intSetting(c, "feature_level", MinFeatureLevel, MaxFeatureLevel, level)
	if err := c.Done(); err != nil {
		return config.Config{}, 0, err
	}
	return cfg, level, nil
}

// maxPollTimeoutSeconds bounds event_poll_timeout_seconds: long enough to imitate the real
// server's 50 seconds, short enough that no client gives up first.
const maxPollTimeoutSeconds = 300

// intSetting reads an optional JSON integer setting that must lie in [lo, hi]; cur when absent.
func intSetting(c *handler.Call, name string, lo, hi int64, cur int) int {
	v, ok := c.P.Int(name)
	if !ok {
		return cur
	}
	if v < lo || v > hi {
		c.P.Fail(apierr.BadRequest("%s must be between %d and %d", name, lo, hi))
		return cur
	}
	return int(v)
}

// Feature levels the fake can be: the first the API document knows, and a bound far above any
// the real server has reached.
const (
	MinFeatureLevel = 1
	MaxFeatureLevel = 10_000
)

// ParseSettings reads settings to start the fake with, in PATCH /_fake/config's words (one
// JSON object), and returns them as ApplySettings takes them. An unknown setting or a value
// out of range is an error that names it.
func ParseSettings(data []byte) (url.Values, error) {
	form, err := jsonForm(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("invalid settings: not one JSON object, as PATCH /_fake/config takes")
	}
	c := handler.StrictCall(params.FromValues(form))
	if _, _, err := changeSettings(c, config.Config{}, MinFeatureLevel, &fixtures.Fixture{}); err != nil {
		var aerr *apierr.Error
		if errors.As(err, &aerr) { // the message alone: no HTTP status where there is no request
			return nil, fmt.Errorf("invalid settings: %s", aerr.Msg)
		}
		return nil, fmt.Errorf("invalid settings: %w", err)
	}
	return form, nil
}

// ApplySettings returns cfg and level with settings that ParseSettings returned applied over
// them; fixture_jwt_key takes f's key.
func ApplySettings(settings url.Values, cfg config.Config, level int, f *fixtures.Fixture) (config.Config, int) {
	// ParseSettings has checked them: they cannot fail here.
	cfg, level, _ = changeSettings(handler.StrictCall(params.FromValues(settings)), cfg, level, f)
	return cfg, level
}

// getJournal: GET /_fake/journal, filtered by method, path (a pattern), user, status and
// since; count is how many matched.
func (s *Service) getJournal(c *handler.Call) (handler.Fields, error) {
	var f pipeline.JournalFilter
	f.Method, _ = c.P.String("method")
	f.Path, _ = c.P.String("path")
	f.User, _ = c.P.String("user")
	if status, ok := c.P.Int("status"); ok {
		f.Status = int(status)
	}
	if since, ok := c.P.String("since"); ok {
		ms, err := strconv.ParseInt(since, 10, 64)
		if err != nil || ms < 0 {
			c.P.Fail(apierr.BadRequest("%s", sinceFormat))
		}
		f.Since = time.UnixMilli(ms)
	}
	if err := c.Done(); err != nil {
		return nil, err
	}
	if _, err := path.Match(f.Path, ""); err != nil {
		return nil, apierr.BadRequest("Invalid path pattern: %s", f.Path)
	}
	got := s.journal.Matching(f)
	if got == nil {
		got = []pipeline.JournalEntry{}
	}
	return handler.Fields{"requests": got, "count": len(got)}, nil
}

// sinceFormat says what the journal's since takes, as docs/control-api.md does.
const sinceFormat = "since must be a wall-clock time in UNIX milliseconds, a whole number such as 1764403200000 (2025-11-29T08:00:00Z): the journal's entries from that time on"

func (s *Service) clearJournal(c *handler.Call) (handler.Fields, error) {
	if err := c.Done(); err != nil {
		return nil, err
	}
	s.journal.Clear()
	return handler.Fields{}, nil
}

// The control routes are registered once per process and shared by every fake
// (internal/pipeline/router.go): their handlers find the serving fake's Service in the
// request's context, where the pipeline keeps it as the part outside the API.

func serviceOf(r *http.Request) *Service {
	return r.Context().Value(pipeline.OutsideKey{}).(*Service)
}

// serveFrom adapts a handler of the serving Service.
func serveFrom(h func(s *Service, w http.ResponseWriter, r *http.Request)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) { h(serviceOf(r), w, r) }
}

// serveControl serves a control route: a JSON object body is taken like a form (each value
// its form text), and a parameter the route does not read is refused, naming it.
func serveControl(op func(s *Service, c *handler.Call) (handler.Fields, error)) http.HandlerFunc {
	strictOp := handler.ServeStrict(func(c *handler.Call) (handler.Fields, error) { return op(serviceOf(c.R), c) })
	return func(w http.ResponseWriter, r *http.Request) {
		if mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); mt == "application/json" {
			form, err := jsonForm(http.MaxBytesReader(w, r.Body, maxControlBody))
			if err != nil {
				handler.WriteError(w, err)
				return
			}
			encoded := form.Encode()
			r.Body, r.ContentLength = io.NopCloser(strings.NewReader(encoded)), int64(len(encoded))
			r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		}
		strictOp(w, r)
	}
}

// maxControlBody bounds a JSON control request (a fixture is the largest).
const maxControlBody = 4 << 20

// jsonForm turns a JSON object into form values: strings as they are, anything else as its
// JSON text, which is how the form parameters of the control API are read.
func jsonForm(body io.Reader) (url.Values, error) {
	dec := json.NewDecoder(body)
	dec.UseNumber()
	var obj map[string]json.RawMessage
	if err := dec.Decode(&obj); errors.Is(err, io.EOF) {
		return url.Values{}, nil // no body: no parameters
	} else if err != nil || dec.More() {
		return nil, apierr.BadRequest("The request body is not one JSON object")
	}
	form := url.Values{}
	for k, raw := range obj {
		var text string
		if json.Unmarshal(raw, &text) != nil {
			text = string(raw)
		}
		form.Set(k, text)
	}
	return form, nil
}

// addFault: POST /_fake/faults puts a fault in force (see pipeline.Fault) and answers its id.
func (s *Service) addFault(c *handler.Call) (handler.Fields, error) {
	var f pipeline.Fault
	f.Method, _ = c.P.String("method")
	f.Path, _ = c.P.String("path")
	f.User, _ = c.P.String("user")
	f.Code, _ = c.P.String("code")
	f.Msg, _ = c.P.String("msg")
	f.Status = intSetting(c, "status", 0, 599, 0)
	f.Delay = time.Duration(intSetting(c, "delay_ms", 0, pipeline.MaxFaultDelay.Milliseconds(), 0)) * time.Millisecond
	f.Drop = c.P.Bool("drop", false)
	f.Times = intSetting(c, "times", 0, 1_000_000, 0)
	if err := c.Done(); err != nil {
		return nil, err
	}
	id, err := s.faults.Inject(f)
	if err != nil {
		return nil, err
	}
	return handler.Fields{"fault": id}, nil
}

func (s *Service) listFaults(*handler.Call) (handler.Fields, error) {
	return handler.Fields{"faults": s.faults.List()}, nil
}

func (s *Service) clearFaults(c *handler.Call) (handler.Fields, error) {
	if err := c.Done(); err != nil {
		return nil, err
	}
	s.faults.Clear()
	return handler.Fields{}, nil
}
