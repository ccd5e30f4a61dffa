package harness

import (
	"crypto/rand"
	"encoding/hex"
	"net/url"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"github.com/onsi/ginkgo/v2"
	"github.com/onsi/gomega"
)

// JWTSigner makes JSON Web Tokens for the target's JWT fetch (operation 9), signed with the
// key and algorithm the target verifies them with.
type JWTSigner struct {
	Key       string
	Algorithm string
	now       func() time.Time
}

// jwtValidity is how long the tokens of TokenFor stay valid: long enough for any clock skew
// between the suite and the target.
const jwtValidity = 24 * time.Hour

// NeedJWT returns a signer of tokens the target accepts, or skips the spec. The key and
// algorithm come from the settings jwt-key and jwt-algorithm for a target that claims the
// feature jwt; a fake whose configuration (the config capability) holds the JWT key gets a
// fresh random key for the spec, and its previous configuration back when the spec ends —
// such specs must be Serial. Without either the spec is skipped: not applicable when the
// target does not claim jwt, else as needing the key.
func (t *Target) NeedJWT() JWTSigner {
	ginkgo.GinkgoHelper()
	alg := t.Config.JWTAlgorithm
	if alg == "" {
		alg = JWTAlgorithms[0]
	}
	if t.Config.JWTKey != "" {
		t.NeedFeature("jwt")
		return JWTSigner{Key: t.Config.JWTKey, Algorithm: alg, now: t.Now}
	}
	if t.Capabilities["config"] {
		if prev, ok := t.fakeJWTConfig(); ok {
			requireSerial("setting the fake's JWT key")
			signer := JWTSigner{Key: randomKey(), Algorithm: alg, now: t.Now}
			set := url.Values{"jwt_key": {signer.Key}, "jwt_algorithm": {signer.Algorithm}}
			g.Expect(t.setFakeJWTConfig(set)).To(gomega.Succeed(), "harness: setting the fake's JWT key")
			ginkgo.DeferCleanup(func() {
				g.Expect(t.setFakeJWTConfig(prev)).To(gomega.Succeed(), "harness: restoring the fake's JWT settings")
			})
			return signer
		}
	}
	t.NeedFeature("jwt")
	ginkgo.Skip(NeedsCapabilityPrefix + " config (or the JWT key in the setting " + settingFlag("jwt-key") + ")")
	return JWTSigner{}
}

// fakeJWTConfig returns the PATCH /_fake/config parameters that restore the fake's JWT
// settings as they are now; ok is false when its configuration has no JWT settings. The fake
// never shows its key, only whether one is set, so a set key is restored as the fixture's.
func (t *Target) fakeJWTConfig() (url.Values, bool) {
	obj, err := t.call("GET", t.URL+"/_fake/config", nil, nil)
	if err != nil {
		return nil, false
	}
	cfg := object(asMap(obj["config"]))
	alg, hasAlg := cfg.string("jwt_algorithm")
	set, hasSet := cfg["jwt_key_set"].(bool)
	switch {
	case !hasAlg || !hasSet:
		return nil, false
	case set:
		return url.Values{"fixture_jwt_key": {"true"}}, true
	default:
		return url.Values{"jwt_key": {""}, "jwt_algorithm": {alg}}, true
	}
}

func (t *Target) setFakeJWTConfig(params url.Values) error {
	_, err := t.call("PATCH", t.URL+"/_fake/config", nil, params)
	return err
}

// randomKey is a fresh 256-bit key, hex encoded.
func randomKey() string {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		panic("harness: no randomness for a JWT key: " + err.Error())
	}
	return hex.EncodeToString(b)
}

// Token signs arbitrary claims, for specs about malformed payloads.
func (j JWTSigner) Token(claims map[string]any) string {
	ginkgo.GinkgoHelper()
	method := jwt.GetSigningMethod(j.Algorithm)
	g.Expect(method).NotTo(gomega.BeNil(), "harness: unknown JWT algorithm %q", j.Algorithm)
	token, err := jwt.NewWithClaims(method, jwt.MapClaims(claims)).SignedString([]byte(j.Key))
	g.Expect(err).NotTo(gomega.HaveOccurred(), "harness: signing a JWT")
	return token
}

// TokenFor is a valid token for the user with this email: the email claim, and an expiry
// a day after the target's current time.
func (j JWTSigner) TokenFor(email string) string {
	ginkgo.GinkgoHelper()
	return j.Token(map[string]any{"email": email, "exp": j.now().Add(jwtValidity).Unix()})
}

// ExpiredTokenFor is TokenFor with an expiry a day before the target's current time.
func (j JWTSigner) ExpiredTokenFor(email string) string {
	ginkgo.GinkgoHelper()
	return j.Token(map[string]any{"email": email, "exp": j.now().Add(-jwtValidity).Unix()})
}

// WithKey returns a signer with another key, for badly signed tokens.
func (j JWTSigner) WithKey(key string) JWTSigner {
	j.Key = key
	return j
}
