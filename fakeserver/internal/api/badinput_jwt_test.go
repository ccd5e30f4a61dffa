package api_test

// routeCasesJwt adds the bad-input cases of the routes whose handlers are in jwt.go.
func routeCasesJwt(add func(routeSpec)) {
	// The default fixture's JWT key is chatconform-jwt-key (HS256).
	jwtFetch := routeSpec{method: "POST", pattern: "/api/v1/jwt/fetch_api_key", path: "/api/v1/jwt/fetch_api_key",
		params: []param{{name: "token", oversizeFails: true}, {name: "include_profile", kind: kBool}},
		valid:  []string{"token", jwtFor("member@chat.example.test")}}
	badToken := badRequest("Bad JSON web token")
	jwtFetch.extra = []badCase{
		{"no token", jwtFetch.build(nil), badRequest("No JSON web token passed in request")},
		{"empty token", jwtFetch.with("token", ""), badRequest("No JSON web token passed in request")},
		{"not a JWT", jwtFetch.with("token", "not-a-token"), badToken},
		{"signed with another key", jwtFetch.with("token", jwtWith("another-key", "HS256", map[string]any{"email": "member@chat.example.test"})), badToken},
		{"signed with another algorithm", jwtFetch.with("token", jwtWith(defaultJWTKey, "HS512", map[string]any{"email": "member@chat.example.test"})), badToken},
		{"unsigned (alg none)", jwtFetch.with("token", unsignedJWT(map[string]any{"email": "member@chat.example.test"})), badToken},
		{"expired", jwtFetch.with("token", jwtWith(defaultJWTKey, "HS256", map[string]any{"email": "member@chat.example.test", "exp": defaultFixture.Realm.StartTime - 1})), badToken},
		{"not yet valid", jwtFetch.with("token", jwtWith(defaultJWTKey, "HS256", map[string]any{"email": "member@chat.example.test", "nbf": defaultFixture.Realm.StartTime + 3600})), badToken},
		{"exp not a number", jwtFetch.with("token", jwtWith(defaultJWTKey, "HS256", map[string]any{"email": "member@chat.example.test", "exp": "soon"})), badToken},
		{"no email claim", jwtFetch.with("token", jwtWith(defaultJWTKey, "HS256", map[string]any{"sub": "member"})), badRequest("No email specified in JSON web token claims")},
		{"email claim not a string", jwtFetch.with("token", jwtWith(defaultJWTKey, "HS256", map[string]any{"email": 4})), badRequest("No email specified in JSON web token claims")},
		{"unknown user", jwtFetch.with("token", jwtFor("nobody@chat.example.test")), bad(401, "AUTHENTICATION_FAILED", "Your username or password is incorrect")},
		{"dummy address", jwtFetch.with("token", jwtFor("user4@chat.example.test")), bad(401, "AUTHENTICATION_FAILED", "")},
	}
	add(jwtFetch)
}
