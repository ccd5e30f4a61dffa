package harness

import (
	"strings"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
)

// TestJWTSigner: tokens verify with the signer's key and algorithm only, carry the email
// claim, and expire a day after (or expired a day before) the target's time.
func TestJWTSigner(t *testing.T) {
	now := time.Unix(1767225600, 0)
	for _, alg := range JWTAlgorithms {
		s := JWTSigner{Key: "k3y", Algorithm: alg, now: func() time.Time { return now }}
		parse := func(token, key string) (jwt.MapClaims, error) {
			claims := jwt.MapClaims{}
			_, err := jwt.NewParser(jwt.WithValidMethods([]string{alg}), jwt.WithTimeFunc(func() time.Time { return now })).
				ParseWithClaims(token, claims, func(*jwt.Token) (any, error) { return []byte(key), nil })
			return claims, err
		}
		claims, err := parse(s.TokenFor("a@b.test"), "k3y")
		if err != nil || claims["email"] != "a@b.test" || claims["exp"] != float64(now.Add(jwtValidity).Unix()) {
			t.Errorf("%s: TokenFor: %v, %v", alg, claims, err)
		}
		if _, err := parse(s.ExpiredTokenFor("a@b.test"), "k3y"); err == nil {
			t.Errorf("%s: the expired token verifies", alg)
		}
		if _, err := parse(s.WithKey("other").TokenFor("a@b.test"), "k3y"); err == nil {
			t.Errorf("%s: a token with another key verifies", alg)
		}
		if s.Key != "k3y" {
			t.Errorf("WithKey changed the original signer")
		}
	}
}

func TestJWTSettings(t *testing.T) {
	cfg, err := LoadConfig(nil, env(map[string]string{"CHATCONFORM_JWT_KEY": " secret-key ", "CHATCONFORM_JWT_ALGORITHM": "hs512"}))
	if err != nil || cfg.JWTKey != "secret-key" || cfg.JWTAlgorithm != "HS512" {
		t.Fatalf("config %+v, %v", cfg, err)
	}
	if _, err := LoadConfig(nil, env(map[string]string{"CHATCONFORM_JWT_ALGORITHM": "RS256"})); err == nil || !strings.Contains(err.Error(), "HS256") {
		t.Errorf("RS256 accepted or unhelpful error: %v", err)
	}
	if r := cfg.Redacted(); r.JWTKey == cfg.JWTKey || strings.Contains(r.JWTKey, "secret") {
		t.Errorf("redacted JWT key %q", r.JWTKey)
	}
	b, _ := cfg.MarshalJSON()
	var back Config
	if err := back.UnmarshalJSON(b); err != nil || back.JWTKey != cfg.JWTKey || back.JWTAlgorithm != "HS512" {
		t.Errorf("JSON round trip: %+v, %v", back, err)
	}
}
