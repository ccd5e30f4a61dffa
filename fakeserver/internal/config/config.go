// Package config is the fake's server configuration: what no public API can change, switched
// through the control API and read by the handlers and the pipeline. Package fakeserver
// offers it as fakeserver.Config.
package config

import (
	"time"

	"github.com/chatconform/chatconform/fakeserver/internal/events"
	"github.com/chatconform/chatconform/fakeserver/internal/realm"
	"github.com/chatconform/chatconform/fixtures"
)

// Config is the server configuration that no public API can change, switched through the
// control API so that specs can see both sides of a configuration-dependent rule.
type Config struct {
	// PushConfigured is whether a mobile push notification service is configured.
	PushConfigured bool `json:"push_configured"`
	// EventPollTimeoutSeconds is how long, in real seconds, a blocking GET /events waits
	// before it answers with a heartbeat (the real server: about 50). Zero means the default.
	EventPollTimeoutSeconds int `json:"event_poll_timeout_seconds"`
	// EventQueueIdleSeconds is how long, in virtual seconds, an event queue nobody polls
	// lives (the real server: 600). Zero means the default.
	EventQueueIdleSeconds int `json:"event_queue_idle_seconds"`

	// DeleteBatchSize is how many messages delete-topic and mark-all-as-read handle per batch.
	// Zero means the default.
	DeleteBatchSize int `json:"delete_batch_size"`
	// MaxBatchesPerRequest stands in for the real server's time budget (about 50 s): a
	// request that would need more batches stops and answers complete=false. 0 is no bound.
	MaxBatchesPerRequest int `json:"max_batches_per_request"`

	// JWTKey is the realm's key for JSON Web Tokens, the fixture's after a load; setting it
	// empty turns JWT authentication off.
	JWTKey string `json:"jwt_key"`
	// JWTAlgorithm is the signing algorithm JWTs must use (HS256, HS384 or HS512).
	JWTAlgorithm string `json:"jwt_algorithm"`

	// VideoCallsConfigured is whether the external video-call integration is configured.
	VideoCallsConfigured bool `json:"video_calls_configured"`
	// MaxBotsPerUser bounds the active bots one user owns. Zero means the default.
	MaxBotsPerUser int `json:"max_bots_per_user"`
	// UploadQuotaBytesPerUser and UploadQuotaBytesTotal bound the bytes of stored uploads,
	// per owner and in the realm. Zero means the default.
	UploadQuotaBytesPerUser int64 `json:"upload_quota_bytes_per_user"`
	UploadQuotaBytesTotal   int64 `json:"upload_quota_bytes_total"`
	// BotStorageQuotaBytesPerOwner and BotStorageQuotaBytesTotal bound what bot storage holds
	// beyond each bot's own limit: for all the bots of one owner, deactivated ones included,
	// and in the realm; bytes of keys and values and 64 more per entry. Zero means the default.
	BotStorageQuotaBytesPerOwner int `json:"bot_storage_quota_bytes_per_owner"`
	BotStorageQuotaBytesTotal    int `json:"bot_storage_quota_bytes_total"`

	// MaxHeaderBytes bounds the size of a request's header fields; larger ones are
	// answered 431 in JSON. Zero means the default.
	MaxHeaderBytes int `json:"max_header_bytes"`

	// JournalMaxBytes bounds the journal's total size (paths and spec names); the oldest
	// entries go first. Zero means the default.
	JournalMaxBytes int `json:"journal_max_bytes"`
	// JournalEntryMaxBytes bounds what the journal keeps of one request's path and of its
	// spec name. Zero means the default.
	JournalEntryMaxBytes int `json:"journal_entry_max_bytes"`
	// EventQueueMaxEvents bounds the events one queue holds unacknowledged; a queue that
	// would hold more is dropped, and its client, told BAD_EVENT_QUEUE_ID, registers again.
	// Zero means the default.
	EventQueueMaxEvents int `json:"event_queue_max_events"`
	// EventQueueIdleWallSeconds is how long, in real seconds, an event queue nobody polls
	// lives, whatever the virtual clock says. Zero means the default.
	EventQueueIdleWallSeconds int `json:"event_queue_idle_wall_seconds"`

	// RateLimitRequests is how many API requests one user may send in a window of
	// RateLimitWindowSeconds; beyond it requests are refused with RATE_LIMIT_HIT. Zero, the
	// default, turns rate limiting off.
	RateLimitRequests int `json:"rate_limit_requests"`
	// RateLimitWindowSeconds is the rate limit's window in real seconds. Zero means the
	// default (the real server's 60).
	RateLimitWindowSeconds int `json:"rate_limit_window_seconds"`

	// UnusedAttachmentSeconds is how long, in virtual seconds, an upload no message references
	// lives ("a few weeks" in the document). Zero means the default.
	UnusedAttachmentSeconds int `json:"unused_attachment_seconds"`
}

// Defaults of the settings whose zero value means "default".
const (
	DefaultDeleteBatchSize         = 1000
	DefaultJWTAlgorithm            = "HS256"
	DefaultUnusedAttachmentSeconds = realm.DefaultUnusedUploadSeconds
	DefaultJournalMaxBytes         = 1 << 20
	DefaultMaxHeaderBytes          = 64 << 10
	DefaultMaxBotsPerUser          = 500
	DefaultUploadQuotaPerUser      = 100 << 20
	DefaultUploadQuotaTotal        = 1 << 30
	DefaultJournalEntryMaxBytes    = 1024
	DefaultBotStorageQuotaPerOwner = 32 << 20
	DefaultBotStorageQuotaTotal    = 128 << 20
	DefaultEventQueueMaxEvents     = events.DefaultMaxEvents
	DefaultEventQueueIdleWall      = events.DefaultIdleWallTimeout
	// DefaultRateLimitWindowSeconds is the real server's rate-limit window.
	DefaultRateLimitWindowSeconds = 60
)

// WithDefaults fills the settings left zero with their defaults.
func (c Config) WithDefaults() Config {
	if c.EventPollTimeoutSeconds <= 0 {
		c.EventPollTimeoutSeconds = int(events.DefaultPollTimeout / time.Second)
	}
	if c.EventQueueIdleSeconds <= 0 {
		c.EventQueueIdleSeconds = int(events.DefaultIdleTimeout / time.Second)
	}
	if c.DeleteBatchSize <= 0 {
		c.DeleteBatchSize = DefaultDeleteBatchSize
	}
	if c.JWTAlgorithm == "" {
		c.JWTAlgorithm = DefaultJWTAlgorithm
	}
	if c.UnusedAttachmentSeconds <= 0 {
		c.UnusedAttachmentSeconds = DefaultUnusedAttachmentSeconds
	}
	if c.MaxBotsPerUser <= 0 {
		c.MaxBotsPerUser = DefaultMaxBotsPerUser
	}
	if c.UploadQuotaBytesPerUser <= 0 {
		c.UploadQuotaBytesPerUser = DefaultUploadQuotaPerUser
	}
	if c.UploadQuotaBytesTotal <= 0 {
		c.UploadQuotaBytesTotal = DefaultUploadQuotaTotal
	}
	if c.BotStorageQuotaBytesPerOwner <= 0 {
		c.BotStorageQuotaBytesPerOwner = DefaultBotStorageQuotaPerOwner
	}
	if c.BotStorageQuotaBytesTotal <= 0 {
		c.BotStorageQuotaBytesTotal = DefaultBotStorageQuotaTotal
	}
	if c.MaxHeaderBytes <= 0 {
		c.MaxHeaderBytes = DefaultMaxHeaderBytes
	}
	if c.JournalMaxBytes <= 0 {
		c.JournalMaxBytes = DefaultJournalMaxBytes
	}
	if c.JournalEntryMaxBytes <= 0 {
		c.JournalEntryMaxBytes = DefaultJournalEntryMaxBytes
	}
	if c.EventQueueMaxEvents <= 0 {
		c.EventQueueMaxEvents = DefaultEventQueueMaxEvents
	}
	if c.RateLimitWindowSeconds <= 0 {
		c.RateLimitWindowSeconds = DefaultRateLimitWindowSeconds
	}
	if c.EventQueueIdleWallSeconds <= 0 {
		c.EventQueueIdleWallSeconds = int(DefaultEventQueueIdleWall / time.Second)
	}
	return c
}

// FromFixture completes a configuration with what the fixture sets: the realm's JWT key and
// algorithm, unless the configuration names a key of its own.
func FromFixture(f *fixtures.Fixture, c Config) Config {
	if c.JWTKey == "" {
		c.JWTKey, c.JWTAlgorithm = f.Realm.JWTKey, f.Realm.JWTAlgorithm
	}
	return c
}

// UploadQuota is the configured bound on stored uploads.
func (c Config) UploadQuota() realm.UploadQuota {
	return realm.UploadQuota{PerUser: c.UploadQuotaBytesPerUser, Total: c.UploadQuotaBytesTotal}
}

// HolderBounds are the configured bounds on what one user and their bots keep.
func (c Config) HolderBounds() realm.HolderBounds {
	return realm.HolderBounds{MaxBots: c.MaxBotsPerUser, Uploads: c.UploadQuota(), BotStorage: c.BotStorageQuota()}
}

// BotStorageQuota is the configured bound on what bots store.
func (c Config) BotStorageQuota() realm.BotStorageQuota {
	return realm.BotStorageQuota{PerOwner: c.BotStorageQuotaBytesPerOwner, Total: c.BotStorageQuotaBytesTotal}
}
