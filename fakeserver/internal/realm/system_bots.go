package realm

import (
	"encoding/json"
	"slices"
	"strings"
	"time"

	"github.com/chatconform/chatconform/fixtures"
)

// The real server's system bots (its cross-realm bots) belong to no realm: register lists
// them to every client in cross_realm_bots, GET /users/{id} answers for them, and they send
// the server's own notices. The fake makes them when it loads a realm, with the IDs it keeps
// for them (fixtures.FirstSystemBotID on, in the order the real server creates them): the
// same on every load whatever a test sends first, and apart from the realm's users' IDs.

// emailGatewayEmail is the real server's address of its email gateway bot.
const emailGatewayEmail = "emailgateway@zulip.com"

// systemBotNames are the system bots, in the real server's creation order.
var systemBotNames = []struct{ email, name string }{
	{notificationBotEmail, "Notification Bot"}, {emailGatewayEmail, "Email Gateway"}, {welcomeBotEmail, "Welcome Bot"},
}

// loadSystemBots makes the system bots of a realm being loaded (under the lock). As on the real server, each is a generic bot that owns itself, with
// no time zone, joined when the server started.
func (s *AccountState) loadSystemBots() {
	joined := time.Unix(s.settings.DateCreated, 0).UTC()
	s.systemBots = nil
	for i, b := range systemBotNames {
		id := fixtures.FirstSystemBotID + i
		s.systemBots = append(s.systemBots, &User{
			ID: id, Email: b.email, FullName: b.name, Role: RoleMember, IsBot: true, BotType: 1, BotOwnerID: id,
			IsActive: true, DateJoined: joined, AvatarVersion: 1, EmailAddressVisibility: VisibleEveryone,
		})
	}
}

// systemBot is the system bot with an address.
func (s *AccountState) systemBot(email string) *User {
	i := slices.IndexFunc(s.systemBots, func(b *User) bool { return b.Email == email })
	return s.systemBots[i]
}

// systemBotByID is the system bot with an ID, or nil.
func (s *AccountState) systemBotByID(id int) *User {
	i := slices.IndexFunc(s.systemBots, func(b *User) bool { return b.ID == id })
	if i < 0 {
		return nil
	}
	return s.systemBots[i]
}

// CrossRealmBots is register's cross_realm_bots: the system bots by name, each as it sees
// itself (its delivery_email shown), always with its avatar URL, and with no owner, since
// the real server hides that they own themselves.
func (s *AccountState) CrossRealmBots() []UserView {
	s.mu.RLock()
	defer s.mu.RUnlock()
	bots := slices.SortedFunc(slices.Values(s.systemBots), func(a, b *User) int { return strings.Compare(a.FullName, b.FullName) })
	out := make([]UserView, 0, len(bots))
	for _, b := range bots {
		v := s.userView(b, b)
		v.BotOwnerID = json.RawMessage("null")
		out = append(out, v)
	}
	return out
}
