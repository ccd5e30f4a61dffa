package api_test

import (
	"fmt"
	"net/url"
	"strings"
	"testing"
	"time"
)

// moderationChannelOf is register's realm_moderation_request_channel_id.
func moderationChannelOf(t *testing.T, base string) any {
	t.Helper()
	return requireSuccess(t, "register", post(t, base, memberAuth, "/api/v1/register", "fetch_event_types", `["realm"]`))["realm_moderation_request_channel_id"]
}

// The realm setting moderation_request_channel_id: -1 (none) at first; set by PATCH /realm
// to a private channel, with a realm update event to every user and the value in the reply;
// -1 turns it off.
func TestModerationRequestChannel(t *testing.T) {
	base := newCheckedServer(t)
	if got := moderationChannelOf(t, base); got != float64(-1) {
		t.Fatalf("realm_moderation_request_channel_id %v at first, want -1", got)
	}
	secret := newTestChannel(t, base, ownerAuth, "moderation", true, "[1,2]")
	var reply map[string]any
	evs := eventsOfType(regEvents(t, base, memberAuth, func() {
		reply = requireSuccess(t, "set", patch(t, base, ownerAuth, "/api/v1/realm", "moderation_request_channel_id", fmt.Sprint(secret)))
	}), "realm")
	want := fmt.Sprintf(`[{"op":"update","property":"moderation_request_channel_id","type":"realm","value":%d}]`, secret)
	for _, ev := range evs {
		delete(ev, "id")
	}
	if canonical(evs) != want || reply["moderation_request_channel_id"] != float64(secret) {
		t.Errorf("events %s (want %s), reply %v", canonical(evs), want, reply)
	}
	if got := moderationChannelOf(t, base); got != float64(secret) {
		t.Errorf("register gives %v after setting %d", got, secret)
	}
	if again := requireSuccess(t, "again", patch(t, base, ownerAuth, "/api/v1/realm", "moderation_request_channel_id", fmt.Sprint(secret))); again["moderation_request_channel_id"] != nil {
		t.Errorf("setting the same channel again reports a change: %v", again)
	}
	requireSuccess(t, "off", patch(t, base, ownerAuth, "/api/v1/realm", "moderation_request_channel_id", "-1"))
	if got := moderationChannelOf(t, base); got != float64(-1) {
		t.Errorf("register gives %v after turning it off", got)
	}
}

// POST /messages/{id}/report: refused without a moderation channel; then the notification bot
// posts each report to it, in the topic named for the reported sender, in the real server's
// form, which names the recipients of a direct message only where the reporter sent it or
// it went to a group.
func TestReportMessage(t *testing.T) {
	base := newCheckedServer(t)
	report := func(id int, kv ...string) response {
		return post(t, base, memberAuth, fmt.Sprintf("/api/v1/messages/%d/report", id), kv...)
	}
	inChannel := msgSend(t, base, ownerAuth, "reported", "buy cheap `things`")
	checkBad(t, badCase{want: badRequest("Message reporting is not enabled in this organization.")}, report(inChannel, "report_type", "spam"))

	secret := newTestChannel(t, base, ownerAuth, "moderation", true, "[1,2]")
	requireSuccess(t, "set", patch(t, base, ownerAuth, "/api/v1/realm", "moderation_request_channel_id", fmt.Sprint(secret)))
	direct := func(auth, to, content string) int {
		return int(requireSuccess(t, "direct", post(t, base, auth, "/api/v1/messages", "type", "direct", "to", to, "content", content))["id"].(float64))
	}
	sentAt := func(id int) string {
		m := requireSuccess(t, "fetch", get(t, base, memberAuth, fmt.Sprintf("/api/v1/messages/%d", id), ""))["message"].(map[string]any)
		return time.Unix(int64(m["timestamp"].(float64)), 0).UTC().Format("<time:2006-01-02T15:04:05+00:00>")
	}
	latestReport := func() map[string]any {
		narrow := fmt.Sprintf(`[{"operator":"channel","operand":%d}]`, secret)
		q := url.Values{"anchor": {"newest"}, "num_before": {"1"}, "num_after": {"0"}, "narrow": {narrow}, "apply_markdown": {"false"}}
		msgs := requireSuccess(t, "reports", get(t, base, adminAuth, "/api/v1/messages", q.Encode()))["messages"].([]any)
		return msgs[len(msgs)-1].(map[string]any)
	}

	requireSuccess(t, "report", report(inChannel, "report_type", "spam", "description", "an advert"))
	got := latestReport()
	want := "@_**Max Member|4** reported a message sent by @_**Olivia Owner|1** at " + sentAt(inChannel) + ".\n" +
		"```quote\n**Spam**. an advert\n```\n\n" +
		fmt.Sprintf("``` spoiler Original message at #**general>reported@%d**\nbuy cheap `things`\n```\n", inChannel)
	if got["content"] != want || got["subject"] != "Olivia Owner moderation" || got["sender_email"] != "notification-bot@zulip.com" {
		t.Errorf("the report: %s > %v from %v:\n%v\nwant\n%s", got["display_recipient"], got["subject"], got["sender_email"], got["content"], want)
	}

	for _, c := range []struct {
		name, by, to, header string
	}{
		{"another's direct message", ownerAuth, "[4]", "@_**Max Member|4** reported a message sent by @_**Olivia Owner|1** at "},
		{"the reporter's own direct message", memberAuth, "[2]", "@_**Max Member|4** reported a message sent by @_**Max Member|4** to @_**Adam Admin|2** at "},
		{"a group's direct message", ownerAuth, "[2,4]", "@_**Max Member|4** reported a message sent by @_**Olivia Owner|1** to @_**Adam Admin|2** and @_**Max Member|4** at "},
	} {
		id := direct(c.by, c.to, c.name)
		requireSuccess(t, c.name, report(id, "report_type", "other", "description", "why"))
		content := fmt.Sprint(latestReport()["content"])
		if want := c.header + sentAt(id) + ".\n```quote\n**Other reason**. why\n```"; !strings.HasPrefix(content, want) || !strings.Contains(content, "[Original message](") {
			t.Errorf("%s: report\n%s\nwant it to begin\n%s\nand link the original", c.name, content, want)
		}
	}
	hidden := direct(ownerAuth, "[2]", "not for the member")
	checkBad(t, badCase{want: badRequest("Invalid message(s)")}, report(hidden, "report_type", "spam"))
}
