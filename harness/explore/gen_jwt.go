package explore

// jwtOperations are drawn once the run can sign tokens a side accepts: against a fake, or a
// target whose settings give its JWT key.
var jwtOperations = []operation{{"jwt_fetch", 3, (*generator).jwtFetch}} // operation 9

// jwtFetch exchanges a JSON Web Token for an API key (operation 9), once the run knows the
// key both sides verify tokens with (the target's setting, or a control step's against a
// fake): mostly without credentials, now and then with an actor's right or wrong ones, for
// an actor of the cast, an unknown email or with a token signed with another key.
func (g *generator) jwtFetch() Step {
	if !g.jwt && g.control {
		g.jwt = true // configure the fake's key first
		return g.setJWTKey()
	}
	who := pick(g, []string{"owner", "member", "guest", "bot"})
	if g.fault(15) {
		who = "nobody"
	}
	if g.fault(20) {
		who += "/forged"
	}
	params := map[string]string{"token": "{jwt:" + who + "}"}
	if g.chance(60) {
		params["include_profile"] = pick(g, []string{"true", "true", "false"})
	}
	actor := "anonymous"
	if g.chance(30) {
		actor = pick(g, []string{"member", "member-wrong-key", "owner"})
	}
	return Step{Op: "jwt_fetch", Actor: actor, Method: "POST", Path: "/jwt/fetch_api_key", Params: params}
}
