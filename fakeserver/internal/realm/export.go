package realm

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/chatconform/chatconform/fakeserver/internal/apierr"
	"github.com/chatconform/chatconform/fakeserver/internal/events"
)

// Data exports (GET/POST /export/realm): an administrator's export of the organization, which
// the fake writes at once as one JSON document of its state and serves at the export's URL.
// Like the real server it allows five exports a week, and a public export holds only what
// every member could read: public channels' messages, without any private data.

// Export types of the real server: integers, named from LevelExportTypeNames.
const (
	ExportPublic      = 1
	ExportWithConsent = 2
	// ExportWithoutConsent is a full export of every user's private data, which needs an
	// organization whose owners have full content access; the fake's never does.
	ExportWithoutConsent = 3
)

// ExportTypeNames are the export types' names.
var ExportTypeNames = map[int]string{ExportPublic: "public", ExportWithConsent: "full_with_consent", ExportWithoutConsent: "full_without_consent"}

const (
	exportsPerWeek = 5
	week           = 7 * 24 * 3600
	// ExportPathPrefix is where export files are served, as the real server's local storage does.
	ExportPathPrefix = "/user_avatars/exports/1/"
)

type realmExport struct {
	id, actingUserID, exportType int
	time                         int64
	token                        string // the secret path segment of the file's URL
	data                         []byte
}

// ExportView is an export as GET /export/realm and realm_export events show it.
type ExportView struct {
	ID               int     `json:"id"`
	ActingUserID     int     `json:"acting_user_id"`
	ExportTime       float64 `json:"export_time"`
	DeletedTimestamp *int64  `json:"deleted_timestamp"`
	FailedTimestamp  *int64  `json:"failed_timestamp"`
	ExportURL        *string `json:"export_url"`
	Pending          bool    `json:"pending"`
	// ExportType is 1 or 2 from LevelExportType, its name from LevelExportTypeNames.
	ExportType any `json:"export_type,omitempty"`
}

func (s *OrganizationState) exportFileName(e *realmExport) string {
	return fmt.Sprintf("%s%s/%s-export-%d.json", ExportPathPrefix, e.token, s.settings.StringID, e.id)
}

func (s *OrganizationState) exportView(e *realmExport, pending bool) ExportView {
	v := ExportView{ID: e.id, ActingUserID: e.actingUserID, ExportTime: float64(e.time), Pending: pending}
	if !pending {
		url := "https://" + s.settings.Host + s.exportFileName(e)
		v.ExportURL = &url
	}
	switch {
	case s.settings.FeatureLevel >= LevelExportTypeNames:
		v.ExportType = ExportTypeNames[e.exportType]
	case s.settings.FeatureLevel >= LevelExportType:
		v.ExportType = e.exportType
	}
	return v
}

// Exports lists the organization's exports, oldest first.
func (s *OrganizationState) Exports() []ExportView {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.exportViews(nil)
}

// exportViews lists the exports, pending showing as still running (nil: none).
func (s *OrganizationState) exportViews(pending *realmExport) []ExportView {
	out := []ExportView{}
	for _, e := range s.exports {
		out = append(out, s.exportView(e, e == pending))
	}
	return out
}

// StartExport writes an export of the given type and returns its ID. The administrators'
// clients get a realm_export event when it starts (pending) and when its file is ready.
func (s *OrganizationState) StartExport(requesterID, exportType int) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch exportType {
	case ExportPublic, ExportWithConsent:
	case ExportWithoutConsent:
		return 0, apierr.BadRequest("Full exports without consent need an organization whose owners have full content access.")
	default:
		return 0, apierr.BadRequest("Invalid export_type")
	}
	now, recent := s.Now(), 0
	for _, e := range s.exports {
		if e.time > now-week {
			recent++
		}
	}
	if recent >= exportsPerWeek {
		return 0, apierr.BadRequest("Exceeded rate limit.")
	}
	e := &realmExport{id: nextID(&s.nextExport), actingUserID: requesterID, exportType: exportType, time: now,
		token: strings.ToLower(newAPIKey()[:24])}
	s.exports = append(s.exports, e)
	s.publishExports(e)
	e.data = s.exportData(exportType)
	s.publishExports(nil)
	return e.id, nil
}

func (s *OrganizationState) publishExports(pending *realmExport) {
	var admins []int
	for _, id := range s.accts.activeUserIDs() {
		if u := s.accts.users[id]; u.IsAdmin() && !u.IsBot {
			admins = append(admins, id)
		}
	}
	s.publish(events.Event{"type": "realm_export", "exports": s.exportViews(pending)}, admins...)
}

// ExportFile returns the file of the export whose URL path is path, if any.
func (s *OrganizationState) ExportFile(path string) ([]byte, bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	for _, e := range s.exports {
		if s.exportFileName(e) == path {
			return e.data, true
		}
	}
	return nil, false
}

// exportData is the export document: the realm, its users, channel folders, channels and
// groups, and the messages the export type allows: public channels' for a public export, and
// besides, for an export with consent, every message a consenting user received.
func (s *OrganizationState) exportData(exportType int) []byte {
	type exportUser struct {
		ID         int    `json:"id"`
		Email      string `json:"email"`
		FullName   string `json:"full_name"`
		Role       int    `json:"role"`
		IsBot      bool   `json:"is_bot"`
		IsActive   bool   `json:"is_active"`
		DateJoined int64  `json:"date_joined"`
		Timezone   string `json:"timezone"`
	}
	type exportChannel struct {
		ID          int    `json:"id"`
		Name        string `json:"name"`
		Description string `json:"description"`
		InviteOnly  bool   `json:"invite_only"`
		Archived    bool   `json:"is_archived"`
		Subscribers []int  `json:"subscribers"`
		FolderID    *int   `json:"folder_id"` // null: in no channel folder
	}
	type exportMessage struct {
		ID           int    `json:"id"`
		SenderID     int    `json:"sender_id"`
		ChannelID    int    `json:"stream_id,omitempty"`
		Topic        string `json:"topic"`
		Participants []int  `json:"recipient_user_ids,omitempty"`
		Content      string `json:"content"`
		Timestamp    int64  `json:"timestamp"`
	}
	doc := struct {
		Realm      map[string]any      `json:"realm"`
		ExportType int                 `json:"export_type"`
		Users      []exportUser        `json:"users"`
		Folders    []ChannelFolderView `json:"channel_folders"`
		Channels   []exportChannel     `json:"streams"`
		Messages   []exportMessage     `json:"messages"`
	}{
		Realm: map[string]any{"name": s.realmName(), "string_id": s.settings.StringID, "host": s.settings.Host,
			"date_created": s.settings.DateCreated, "zulip_feature_level": s.settings.FeatureLevel},
		ExportType: exportType, Users: []exportUser{}, Channels: []exportChannel{}, Messages: []exportMessage{},
		// Every folder, archived ones too, as the real server's export holds the whole table.
		Folders: s.chans.channelFolderList(true),
	}
	for _, id := range slices.Sorted(maps.Keys(s.accts.users)) {
		u := s.accts.users[id]
		doc.Users = append(doc.Users, exportUser{ID: u.ID, Email: u.Email, FullName: u.FullName, Role: u.Role, IsBot: u.IsBot,
			IsActive: u.IsActive, DateJoined: u.DateJoined.Unix(), Timezone: u.Timezone})
	}
	for _, ch := range s.chans.channelsInOrder() {
		if ch.InviteOnly && exportType == ExportPublic {
			continue
		}
		ec := exportChannel{ID: ch.ID, Name: ch.Name, Description: ch.Description,
			InviteOnly: ch.InviteOnly, Archived: ch.Archived, Subscribers: slices.Sorted(maps.Keys(ch.Subscribers))}
		if ch.FolderID != 0 {
			ec.FolderID = &ch.FolderID
		}
		doc.Channels = append(doc.Channels, ec)
	}
	for _, m := range s.msgs.messages.all() {
		ch := s.chans.channels[m.ChannelID]
		public := !m.IsDirect && ch != nil && !ch.InviteOnly
		if !public && (exportType == ExportPublic || !s.consentingReceiver(m)) {
			continue
		}
		em := exportMessage{ID: m.ID, SenderID: m.SenderID, Topic: m.Topic, Content: m.Content, Timestamp: m.Timestamp}
		if m.IsDirect {
			em.Participants = m.Participants
		} else {
			em.ChannelID = m.ChannelID
		}
		doc.Messages = append(doc.Messages, em)
	}
	data, _ := json.MarshalIndent(doc, "", "  ") // plain values: cannot fail
	return data
}

// consentingReceiver tells whether a user who allows exports of their private data received m.
func (s *OrganizationState) consentingReceiver(m *Message) bool {
	for id := range s.consented {
		if m.Rows.has(id) {
			return true
		}
	}
	return false
}

// ExportConsent is one user's entry of GET /export/realm/consents.
type ExportConsent struct {
	UserID                 int  `json:"user_id"`
	Consented              bool `json:"consented"`
	EmailAddressVisibility *int `json:"email_address_visibility,omitempty"`
}

// ExportConsents lists, for every active human user, whether they allow administrators to
// export their private data.
func (s *OrganizationState) ExportConsents() []ExportConsent {
	s.mu.RLock()
	defer s.mu.RUnlock()
	out := []ExportConsent{}
	for _, id := range s.accts.activeUserIDs() {
		u := s.accts.users[id]
		if u.IsBot {
			continue
		}
		c := ExportConsent{UserID: id, Consented: s.consented[id]}
		if s.settings.FeatureLevel >= LevelConsentEmailVisibility {
			v := s.accts.emailVisibility(u)
			c.EmailAddressVisibility = &v
		}
		out = append(out, c)
	}
	return out
}

// setPrivateDataExport changes the user's allow_private_data_export setting; the
// administrators get a realm_export_consent event. The caller holds the lock.
func (s *OrganizationState) setPrivateDataExport(userID int, allow bool) {
	if s.consented[userID] == allow {
		return
	}
	if allow {
		s.consented[userID] = true
	} else {
		delete(s.consented, userID)
	}
	var admins []int
	for _, id := range s.accts.activeUserIDs() {
		if s.accts.users[id].IsAdmin() {
			admins = append(admins, id)
		}
	}
	s.publish(events.Event{"type": "realm_export_consent", "user_id": userID, "consented": allow}, admins...)
	s.publish(events.Event{"type": "user_settings", "op": "update", "property": "allow_private_data_export", "value": allow}, userID)
}

// PrivateDataExport is the user's allow_private_data_export setting.
func (s *OrganizationState) PrivateDataExport(userID int) bool {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.consented[userID]
}
