package api_test

import (
	"encoding/base64"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/golang-jwt/jwt/v5"
)

// defaultJWTKey is the default fixture's JWT key (realm.jwt_key, HS256).
const defaultJWTKey = "chatconform-jwt-key"

// jwtWith signs claims with key and an HMAC algorithm.
func jwtWith(key, alg string, claims map[string]any) string {
	token, err := jwt.NewWithClaims(jwt.GetSigningMethod(alg), jwt.MapClaims(claims)).SignedString([]byte(key))
	if err != nil {
		panic("signing a test token: " + err.Error())
	}
	return token
}

// jwtFor is a token the default fixture accepts for email.
func jwtFor(email string) string {
	return jwtWith(defaultJWTKey, "HS256", map[string]any{"email": email})
}

// unsignedJWT is a token with algorithm "none", which no server may accept.
func unsignedJWT(claims map[string]any) string {
	enc := func(v any) string {
		b, _ := json.Marshal(v)
		return base64.RawURLEncoding.EncodeToString(b)
	}
	return enc(map[string]string{"alg": "none", "typ": "JWT"}) + "." + enc(claims) + "."
}

func jwtFetch(t *testing.T, base string, kv ...string) response {
	t.Helper()
	return do(t, base, request{method: http.MethodPost, path: "/api/v1/jwt/fetch_api_key", body: formBody(kv...), contentType: formType})
}

// TestJWTKeyFromConfiguration: the server configuration's key and algorithm replace the
// fixture's, clearing the key turns JWT login off, and a reset brings the fixture's back.
func TestJWTKeyFromConfiguration(t *testing.T) {
	ts := newServer(t)
	claims := map[string]any{"email": "member@chat.example.test"}
	patch := func(kv ...string) {
		requireSuccess(t, "config", do(t, ts.URL, request{method: http.MethodPatch, path: "/_fake/config", body: formBody(kv...), contentType: formType}))
	}
	patch("jwt_key", "spec-key", "jwt_algorithm", "HS512")
	for _, tc := range []struct {
		name, token string
		ok          bool
	}{
		{"configured key and algorithm", jwtWith("spec-key", "HS512", claims), true},
		{"configured key, other algorithm", jwtWith("spec-key", "HS256", claims), false},
		{"fixture key", jwtWith(defaultJWTKey, "HS256", claims), false},
	} {
		res := jwtFetch(t, ts.URL, "token", tc.token)
		if got := successProblem(res) == ""; got != tc.ok {
			t.Errorf("%s: success %v, want %v: %s", tc.name, got, tc.ok, res)
		}
	}
	patch("jwt_key", "")
	off := jwtFetch(t, ts.URL, "token", jwtFor("member@chat.example.test"))
	if problem := envelopeProblem(off); problem != "" || !strings.Contains(off.String(), "JWT authentication is not enabled") {
		t.Errorf("with the key cleared: want the JWT-disabled error, got %s %s", problem, off)
	}
	requireSuccess(t, "reset", do(t, ts.URL, request{method: http.MethodPost, path: "/_fake/reset"}))
	requireSuccess(t, "fixture key after reset", jwtFetch(t, ts.URL, "token", jwtFor("member@chat.example.test")))
}

// TestJWTLogin: the key works for the API, the profile is the user as they see themselves,
// and a deactivated user gets USER_DEACTIVATED.
func TestJWTLogin(t *testing.T) {
	ts := newServer(t)
	env := requireSuccess(t, "jwt", jwtFetch(t, ts.URL, "token", jwtFor("MEMBER@chat.example.test"), "include_profile", "true"))
	key, _ := env["api_key"].(string)
	if env["email"] != "member@chat.example.test" || key == "" {
		t.Fatalf("response %v", env)
	}
	user, _ := env["user"].(map[string]any)
	if user["user_id"] != 4.0 || user["delivery_email"] != "member@chat.example.test" || user["role"] != 400.0 || user["bot_type"] != nil {
		t.Errorf("user %v", user)
	}
	if _, ok := user["is_deleted"]; ok {
		t.Errorf("is_deleted present for an undeleted user: %v", user)
	}
	requireSuccess(t, "the key authenticates", get(t, ts.URL, basicHeader("member@chat.example.test", key), "/api/v1/users/me", ""))
	if _, ok := requireSuccess(t, "no profile", jwtFetch(t, ts.URL, "token", jwtFor("member@chat.example.test")))["user"]; ok {
		t.Error("user present without include_profile")
	}

	requireSuccess(t, "deactivate", do(t, ts.URL, request{method: http.MethodDelete, path: "/api/v1/users/4", auth: ownerAuth}))
	res := jwtFetch(t, ts.URL, "token", jwtFor("member@chat.example.test"))
	checkBad(t, badCase{want: bad(401, "USER_DEACTIVATED", "Account is deactivated")}, res)
}
