package harness

// Role is a user's role in the realm, as the specs name it.
type Role string

// The roles of the provisioned cast. Bot is a generic bot owned by the owner.
const (
	Owner     Role = "owner"
	Admin     Role = "administrator"
	Moderator Role = "moderator"
	Member    Role = "member"
	Guest     Role = "guest"
	Bot       Role = "bot"
)

// Roles lists every role of the cast, most privileged first.
var Roles = []Role{Owner, Admin, Moderator, Member, Guest, Bot}

// roleCodes maps human roles to the integer `role` of the API
// (100 owner … 600 guest); bots have no role code of their own.
var roleCodes = map[Role]int{
	Owner:     100,
	Admin:     200,
	Moderator: 300,
	Member:    400,
	Guest:     600,
}

// valid reports whether r is one of Roles.
func (r Role) valid() bool {
	for _, known := range Roles {
		if r == known {
			return true
		}
	}
	return false
}

// RoleCode returns the integer `role` of the API for a human role (100 owner … 600 guest),
// and 0 for Bot, which has no role code of its own.
func RoleCode(r Role) int { return roleCodes[r] }
