package realm

import (
	"encoding/json"
	"slices"

	"github.com/chatconform/chatconform/fakeserver/internal/mutation"
)

// Helpers of the mutation points of users, accounts and integrations (package mutation): what
// a mutant does when its point is on, so that each point in the domain stays one statement.

// mutateUserView gives a User object one documented field wrong, as a mutant shows it on every
// surface (REST replies, register state, events); without a point on it leaves v as it is.
func mutateUserView(v *UserView, u *User) {
	switch {
	case mutation.On("deactivated-shown-active"):
		v.IsActive = true
	case mutation.On("owner-not-admin") && u.Role == RoleOwner:
		v.IsAdmin = false
	case mutation.On("bot-type-always-generic") && u.IsBot:
		v.BotType = 1
	case mutation.On("bot-owner-id-of-bot") && u.IsBot:
		v.BotOwnerID, _ = json.Marshal(u.ID)
	case mutation.On("moderator-role-shown-member") && u.Role == RoleModerator:
		v.Role = RoleMember
	}
}

// topicHasMessages reports whether a channel's topic holds a message.
func (s *MessageState) topicHasMessages(channelID int, topic string) bool {
	return s.index.topics[channelID][topicKeyOf(topic)].Len() > 0
}

// admitsMore reports whether email visibility to admits more viewers than from: the values
// ordered from nobody to everyone.
func admitsMore(to, from int) bool {
	order := []int{VisibleNobody, VisibleAdmins, VisibleModerators, VisibleMembers, VisibleEveryone}
	return slices.Index(order, to) > slices.Index(order, from)
}
