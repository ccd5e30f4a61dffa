package realm

import (
	"maps"
	"slices"
	"strconv"

	"github.com/chatconform/chatconform/fakeserver/internal/apierr"
	"github.com/chatconform/chatconform/fakeserver/internal/events"
	"github.com/chatconform/chatconform/fakeserver/internal/mutation"
)

// OfflineThresholdSeconds is how long after their last report the real server still shows a
// user as online (its server_presence_offline_threshold_seconds).
const OfflineThresholdSeconds = 140

// legacyActivitySeconds is how long after a user's last active report the real server's legacy
// format still shows the user active (PRESENCE_LEGACY_EVENT_OFFSET_FOR_ACTIVITY_SECONDS).
const legacyActivitySeconds = 70

// updateMinFreqSeconds is how much newer a report must be than the stored timestamps for the
// real server to store it (PRESENCE_UPDATE_MIN_FREQ_SECONDS): clients ping every minute from
// every window, and a report that changes nothing is no update, so it takes no new update ID.
const updateMinFreqSeconds = 55

// PingIntervalSeconds is how often clients report (server_presence_ping_interval_seconds).
const PingIntervalSeconds = 60

// comeOnlineSeconds is how long a user must have reported no activity for an active report to
// announce them online again (the real server's OFFLINE_THRESHOLD_SECS - PRESENCE_PING_INTERVAL_SECS
// - 10, from the rewrite of level 178): by then they have missed two pings, and a client may show
// them offline before its next ping.
const comeOnlineSeconds = OfflineThresholdSeconds - PingIntervalSeconds - 10

// legacyStaleSeconds is how old a client's last report had to be, before level 178, for an
// active report to announce the user online again.
const legacyStaleSeconds = 70

// presence is what the realm knows of one user's presence.
type presence struct {
	client       string
	activeTS     int64 // last time the user was active (0: never)
	idleTS       int64 // last time any client of the user reported (active or idle)
	lastUpdateID int
	// Before level 178 the real server kept the last report's time and status per client, and
	// announced a user whose report turned from idle to active; these are that row's.
	reportTS     int64
	reportStatus string
}

// PresenceQuery is what a client asks for with its presence update.
type PresenceQuery struct {
	LastUpdateID     *int // nil when not passed
	HistoryLimitDays int
	Modern           bool
}

// PresenceResult is the presence data returned with an update.
type PresenceResult struct {
	LastUpdateID int
	Presences    map[string]any
}

// UpdatePresence records the user's status from a client, as the real server does: a new
// timestamp is stored only when it is more than updateMinFreqSeconds newer than the stored
// one, and only a stored change takes a new update ID. A user's first report, and an active
// report of a user who has been inactive long enough to be shown offline (comesOnline), is
// announced to everyone at once (the presence event of the document).
func (s *UserDataState) UpdatePresence(userID int, status, client string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.Now()
	p := s.presence[userID]
	changed, announce := false, false
	if p == nil {
		p = &presence{idleTS: now, reportTS: now, reportStatus: status}
		if status == "active" {
			p.activeTS = now
		}
		s.presence[userID] = p
		changed, announce = true, true
	} else {
		announce = s.comesOnline(p, status, now)
		if now-p.idleTS > updateMinFreqSeconds {
			p.idleTS, changed = now, true
		}
		if status == "active" && now-p.activeTS > updateMinFreqSeconds {
			p.activeTS, p.idleTS, changed = now, max(p.idleTS, now), true
		}
		// An idle report soon after an active one left the row as it was: one idle window
		// of a user active in another would otherwise toggle their status.
		if status == p.reportStatus || status == "active" || now-p.reportTS > legacyStaleSeconds {
			p.reportTS, p.reportStatus = now, status
		}
	}
	if s.atLeast(LevelPresenceWebsite) {
		client = "website"
	}
	p.client = client
	if changed {
		p.lastUpdateID = nextID(&s.nextPresence)
	}
	if mutation.On("presence-event-never-sent") {
		return
	}
	u := s.accts.users[userID]
	if u.PresenceEnabled && announce {
		// Clients of slim_presence identify users by id only: the email is left out.
		ev := events.Event{
			"type": "presence", "user_id": u.ID, "server_timestamp": float64(now),
			"presence": map[string]any{client: s.legacyClientEntry(p, u, true)},
		}
		withEmail := maps.Clone(ev)
		withEmail["email"] = s.accts.apiEmail(u)
		if mutation.On("presence-event-real-email") {
			withEmail["email"] = u.Email
		}
		s.events.PublishEach(func(_ int, c events.Client) []events.Event {
			if c.SlimPresence {
				return []events.Event{ev}
			}
			return []events.Event{withEmail}
		}, s.accts.activeUserIDs()...)
	}
}

// comesOnline is whether an existing user's report announces them: only an active one, from
// level 178 when their last active report is more than comeOnlineSeconds old (or they were
// never active), before when their client's last report was idle or over legacyStaleSeconds old.
// Going idle is never announced.
func (s *UserDataState) comesOnline(p *presence, status string, now int64) bool {
	if status != "active" {
		return false
	}
	if !s.atLeast(LevelPresenceWebsite) {
		return p.reportStatus == "idle" || now-p.reportTS > legacyStaleSeconds
	}
	return p.activeTS == 0 || now-p.activeTS > comeOnlineSeconds
}

// Presences returns presence data in the modern or legacy format: with a positive
// LastUpdateID only what changed since, otherwise what was reported within the history limit.
func (s *UserDataState) Presences(q PresenceQuery) PresenceResult {
	s.mu.RLock()
	defer s.mu.RUnlock()
	now := s.Now()
	res := PresenceResult{LastUpdateID: -1, Presences: map[string]any{}}
	if mutation.On("presence-update-id-zero-when-none") {
		res.LastUpdateID = 0
	}
	if q.LastUpdateID != nil {
		res.LastUpdateID = *q.LastUpdateID
	}
	since := now - int64(q.HistoryLimitDays)*86400
	for _, id := range slices.Sorted(maps.Keys(s.presence)) {
		p, u := s.presence[id], s.accts.users[id]
		if !u.IsActive || u.IsBot || !u.PresenceEnabled {
			continue
		}
		if q.LastUpdateID != nil && *q.LastUpdateID > 0 {
			if p.lastUpdateID < *q.LastUpdateID || p.lastUpdateID == *q.LastUpdateID && !mutation.On("presence-update-id-equal-included") || mutation.On("history-limit-with-update-id") && p.idleTS < since {
				continue
			}
		} else if p.idleTS < since {
			continue
		}
		res.LastUpdateID = max(res.LastUpdateID, p.lastUpdateID)
		if q.Modern {
			res.Presences[strconv.Itoa(id)] = map[string]any{"active_timestamp": lastActive(p, u), "idle_timestamp": p.idleTS}
			if mutation.On("presence-modern-timestamps-ms") {
				res.Presences[strconv.Itoa(id)] = map[string]any{"active_timestamp": lastActive(p, u) * 1000, "idle_timestamp": p.idleTS * 1000}
			}
			if mutation.On("presence-modern-keys-legacy-entries") {
				res.Presences[strconv.Itoa(id)] = map[string]any{"aggregated": s.legacyClientEntry(p, u, false), p.client: s.legacyClientEntry(p, u, true)}
			}
		} else {
			res.Presences[s.accts.apiEmail(u)] = map[string]any{
				"aggregated": s.legacyClientEntry(p, u, false),
				p.client:     s.legacyClientEntry(p, u, true),
			}
			if api := s.accts.apiEmail(u); mutation.On("presence-keyed-by-real-email") && api != u.Email {
				res.Presences[u.Email] = res.Presences[api]
				delete(res.Presences, api)
			}
		}
	}
	return res
}

// lastActive is the active time the real server reports: for a user never active, the time
// the user joined.
func lastActive(p *presence, u *User) int64 {
	if p.activeTS == 0 {
		return u.DateJoined.Unix()
	}
	return p.activeTS
}

// legacyClientEntry is a presence entry of the legacy format; per-client entries carry pushable.
// As on the real server, the status is active while the last active time (for a user never
// active, the time they joined) is at most legacyActivitySeconds older than the last report:
// a brand-new user's idle reads active there for 70 seconds.
func (s *UserDataState) legacyClientEntry(p *presence, u *User, perClient bool) map[string]any {
	status, at := "idle", p.idleTS
	if active := lastActive(p, u); active+legacyActivitySeconds >= p.idleTS || mutation.On("presence-legacy-always-active") {
		status, at = "active", active
	}
	e := map[string]any{"client": p.client, "status": status, "timestamp": at}
	if perClient {
		e["pushable"] = false
	}
	return e
}

// UserPresence implements GET /users/{user_id_or_email}/presence: the user's presence in the
// legacy format without client names, offline when the last report is older than the
// threshold, as the real server answers bots and other API clients. named is how the request
// named the user, for the error when there is no presence data.
func (s *UserDataState) UserPresence(targetID int, named string) (map[string]any, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	u := s.accts.users[targetID]
	switch {
	case u == nil:
		return nil, apierr.NoSuchUser
	case u.IsBot:
		return nil, apierr.BadRequest("Presence is not supported for bot users.")
	}
	p := s.presence[targetID]
	if p == nil || !u.PresenceEnabled {
		return nil, apierr.BadRequest("No presence data for %s", named)
	}
	aggregated, website := s.legacyClientEntry(p, u, false), s.legacyClientEntry(p, u, true)
	if s.Now()-aggregated["timestamp"].(int64) > OfflineThresholdSeconds {
		aggregated["status"] = "offline"
	}
	out := map[string]any{"aggregated": aggregated, "website": website}
	for _, e := range out {
		delete(e.(map[string]any), "client")
		delete(e.(map[string]any), "pushable")
	}
	return out, nil
}
