package realm

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/chatconform/chatconform/fakeserver/internal/apierr"
	"github.com/chatconform/chatconform/fakeserver/internal/mutation"
)

// Video calls: the fake imitates the real server's Zoom integration, the pattern its newer
// providers copy. The server needs the integration's credentials (the fake's configuration)
// and the user a token from the provider (User.HasVCallToken, set through the control API).

// CreateVideoCall returns the URL of a new meeting (POST /calls/vcall/create).
func (s *OrganizationState) CreateVideoCall(userID int, configured bool) (string, error) {
	if !configured && !mutation.On("vcall-unconfigured-accepted") {
		return "", apierr.BadRequest("Video call credentials have not been configured")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if mutation.On("vcall-without-token-accepted") {
		return fmt.Sprintf("https://vcall.%s/j/%d", s.settings.Host, 81_000_000_000+nextID(&s.nextMeeting)), nil
	}
	if u := s.accts.users[userID]; u == nil || !u.HasVCallToken {
		return "", apierr.Of(apierr.KindInvalid, "INVALID_VIDEO_CALL_PROVIDER_TOKEN", "Invalid video call access token")
	}
	n := nextID(&s.nextMeeting)
	if mutation.On("vcall-url-empty") {
		return "", nil
	}
	return fmt.Sprintf("https://vcall.%s/j/%d", s.settings.Host, 81_000_000_000+n), nil
}

// notConfigured is the real server's refusal when it lacks a call provider's credentials.
func notConfigured(provider string) error {
	return apierr.BadRequest("%s credentials have not been configured", provider)
}

// ConstructorGroupsRoom returns the URL of the user's room on Constructor Groups (POST
// /calls/constructorgroups/create). The real server asks the provider for the user's default
// room, creating it on first use, so the same user gets the same room each time.
func (s *OrganizationState) ConstructorGroupsRoom(userID int, configured bool) (string, error) {
	if !configured {
		return "", notConfigured("Constructor Groups")
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	return fmt.Sprintf("https://groups.%s/room/zulip-%s-%d", s.settings.Host, s.settings.StringID, userID), nil
}

// NextcloudTalkRoom returns the call URL of a new public Nextcloud Talk conversation (POST
// /calls/nextcloud_talk/create): the server's Nextcloud address, /index.php/call/ and the
// conversation's token, which Nextcloud makes of eight lower-case letters and digits.
func (s *OrganizationState) NextcloudTalkRoom(configured bool) (string, error) {
	if !configured {
		return "", notConfigured("Nextcloud Talk")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	token := strconv.FormatInt(int64(36*36*36*36*36*36*36+nextID(&s.nextMeeting)), 36)
	return fmt.Sprintf("https://nextcloud.%s/index.php/call/%s", s.settings.Host, token), nil
}

// BigBlueButtonURL is the join URL of a new BigBlueButton meeting: the fake's own join route
// with the meeting's settings, signed the way the real server signs them (here a plain
// encoding, since no BigBlueButton server checks it).
func (s *OrganizationState) BigBlueButtonURL(meetingName string, voiceOnly bool) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := nextID(&s.nextMeeting)
	payload, _ := json.Marshal(map[string]any{"meeting_id": fmt.Sprintf("zulip-%s-%d", s.settings.StringID, n), "meeting_name": meetingName,
		"lock_settings_disable_cam": voiceOnly, "moderator": "join"}) // plain values: cannot fail
	return "/calls/bigbluebutton/join?bigbluebutton=" + base64.RawURLEncoding.EncodeToString(payload)
}
