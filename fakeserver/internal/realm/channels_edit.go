package realm

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/chatconform/chatconform/fakeserver/internal/apierr"
	"github.com/chatconform/chatconform/fakeserver/internal/events"
)

// ChannelChange is what a PATCH /streams/{stream_id} asks to change; nil leaves a setting.
type ChannelChange struct {
	Description   *string
	NewName       *string
	IsPrivate     *bool
	HistoryPublic *bool
	IsWebPublic   *bool
	// Unarchive is is_archived=false; the real server ignores is_archived=true (archiving
	// has its own route).
	Unarchive bool
	// Folder is the channel folder to put the channel in; 0 takes it out of its folder.
	Folder *int
}

// maxChannelDescriptionLength is the real server's limit for channel descriptions.
const maxChannelDescriptionLength = 1024

// UpdateChannel implements PATCH /streams/{stream_id}: the channel's administrators
// (organization administrators, and the creator, who administers the channel) change its
// access, description and name, all or nothing. Each change is announced as the real server
// announces it: a stream update event to whoever can see the channel, and a notice from the
// notification bot in the channel's "channel events" topic.
func (s *ChannelState) UpdateChannel(requesterID, channelID int, c ChannelChange) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	u := s.accts.users[requesterID]
	ch := s.channels[channelID]
	switch {
	case ch == nil || !ch.seesMetadata(u):
		return apierr.InvalidChannel
	case !ch.administeredBy(u):
		return apierr.BadRequest("You do not have permission to administer this channel.")
	}
	// The access the channel would have afterwards, checked as a whole.
	private, history, webPublic := ch.InviteOnly, ch.HistoryPublicToSubscribers, false
	if c.IsPrivate != nil {
		private, history = *c.IsPrivate, !*c.IsPrivate
	}
	if c.HistoryPublic != nil {
		history = *c.HistoryPublic
	}
	if c.IsWebPublic != nil {
		webPublic = *c.IsWebPublic
	}
	switch {
	case webPublic && (!history || private), !private && !history:
		return apierr.BadRequest("Invalid parameters")
	case c.IsPrivate != nil && !ch.canAccess(u):
		return apierr.BadRequest("Channel content access is required.")
	case webPublic:
		return apierr.BadRequest("Web-public channels are not enabled.")
	}
	if c.Unarchive && !ch.Archived {
		return apierr.BadRequest("Channel is not currently deactivated")
	}
	if c.Unarchive && ch.InviteOnly && len(ch.Subscribers) == 0 {
		return apierr.BadRequest("Channel is private and have no subscribers")
	}
	// The real server looks the folder up last, after applying the other changes; the fake
	// checks it first so that a refused request changes nothing.
	if c.Folder != nil {
		if err := s.checkFolderExists(*c.Folder); err != nil {
			return err
		}
	}
	var description, name string
	if c.Description != nil {
		description = strings.ReplaceAll(*c.Description, "\n", " ")
		if utf8.RuneCountInString(description) > maxChannelDescriptionLength {
			return apierr.BadRequest("description is too long (limit: %d characters)", maxChannelDescriptionLength)
		}
	}
	if c.NewName != nil {
		name = strings.TrimSpace(*c.NewName)
		if name == ch.Name {
			return apierr.BadRequest("Channel already has that name.")
		}
		if err := checkChannelName(name); err != nil {
			return err
		}
		if other := s.channelsByName[strings.ToLower(name)]; other != nil && other != ch {
			return apierr.BadRequest("Channel name already in use.")
		}
	}

	who := fmt.Sprintf("@_**%s|%d**", u.FullName, u.ID)
	if c.Unarchive {
		s.unarchiveChannel(ch)
	}
	if private != ch.InviteOnly || history != ch.HistoryPublicToSubscribers {
		s.changeChannelAccess(ch, private, history, who)
	}
	if c.Description != nil && description != ch.Description {
		old := ch.Description
		ch.Description = description
		s.publish(events.Event{
			"type": "stream", "op": "update", "stream_id": ch.ID, "name": ch.Name, "property": "description",
			"value": description, "rendered_description": s.renderDescription(description),
		}, s.channelAudience(ch)...)
		s.msgs.sendNotification(ch, archiveTopic, fmt.Sprintf("%s changed the description for this channel.\n\n* **Old description:**\n%s\n* **New description:**\n%s",
			who, quotedDescription(old), quotedDescription(description)))
	}
	if c.NewName != nil {
		old := ch.Name
		delete(s.channelsByName, strings.ToLower(old))
		s.channelUpdate(ch, "name", name) // the event names the channel by its old name
		ch.Name = name
		s.channelsByName[strings.ToLower(name)] = ch
		s.msgs.sendNotification(ch, archiveTopic, fmt.Sprintf("%s renamed channel **%s** to **%s**.", who, old, name))
	}
	if c.Folder != nil {
		s.moveToFolder(ch, *c.Folder)
	}
	return nil
}

// quotedDescription is a description as the change notice quotes it.
func quotedDescription(d string) string {
	if d == "" {
		d = "*No description.*"
	}
	return "```` quote\n" + d + "\n````"
}

// accessPolicyName is how the real server's notices name a channel's access.
func accessPolicyName(private, history bool) string {
	switch {
	case !private:
		return "Public"
	case history:
		return "Private, shared history"
	default:
		return "Private, protected history"
	}
}

// changeChannelAccess makes a channel public or private, with shared or protected history.
// Users who can no longer see it are told it is gone, users who now can see it that it was
// created, and those who see it both before and after get the real server's update events.
func (s *ChannelState) changeChannelAccess(ch *Channel, private, history bool, who string) {
	before := s.channelAudience(ch)
	oldPrivate, oldHistory := ch.InviteOnly, ch.HistoryPublicToSubscribers
	ch.InviteOnly, ch.HistoryPublicToSubscribers = private, history
	after := s.channelAudience(ch)
	var kept, gone, gained []int
	for _, id := range before {
		if slices.Contains(after, id) {
			kept = append(kept, id)
		} else {
			gone = append(gone, id)
		}
	}
	for _, id := range after {
		if !slices.Contains(before, id) {
			gained = append(gained, id)
		}
	}
	update := func(property string, value any, extra map[string]any) {
		ev := events.Event{"type": "stream", "op": "update", "stream_id": ch.ID, "name": ch.Name, "property": property, "value": value}
		for k, v := range extra {
			ev[k] = v
		}
		s.publish(ev, kept...)
	}
	if private != oldPrivate {
		update("invite_only", private, map[string]any{"history_public_to_subscribers": history, "is_web_public": false})
	}
	if history != oldHistory {
		update("history_public_to_subscribers", history, nil)
	}
	s.publishChannelsHidden([]int{ch.ID}, gone...)
	s.publish(events.Event{"type": "stream", "op": "create", "streams": []ChannelObject{s.channelObject(ch)}}, gained...)
	s.msgs.sendNotification(ch, archiveTopic, fmt.Sprintf("%s changed the [access permissions](/help/channel-permissions) for this channel from **%s** to **%s**.",
		who, accessPolicyName(oldPrivate, oldHistory), accessPolicyName(private, history)))
}

// unarchiveChannel brings an archived channel back, as the real server announces it: an
// is_archived update and a creation for unarchiving to whoever can see it, and a notice.
func (s *ChannelState) unarchiveChannel(ch *Channel) {
	ch.Archived = false
	audience := s.channelAudience(ch)
	s.publish(events.Event{"type": "stream", "op": "update", "stream_id": ch.ID, "name": ch.Name, "property": "is_archived", "value": false}, audience...)
	s.publish(events.Event{"type": "stream", "op": "create", "streams": []ChannelObject{s.channelObject(ch)}, "for_unarchiving": true}, audience...)
	s.msgs.sendNotification(ch, archiveTopic, fmt.Sprintf("Channel #**%s** has been unarchived.", ch.Name))
}
