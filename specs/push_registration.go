package specs

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"maps"
	"net/http"
	"strconv"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/gavv/httpexpect/v2"

	"github.com/chatconform/chatconform/harness"
	"github.com/chatconform/chatconform/specs/ops"
)

// pushFields are parameters of POST /mobile_push/register.
type pushFields map[string]any

// randomBase64 is standard Base64 of n random bytes.
func randomBase64(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return base64.StdEncoding.EncodeToString(b)
}

// secretBoxKey is a push key for cryptosystem 0x31: the byte 0x31 and a 32-byte key.
func secretBoxKey() string {
	b := make([]byte, 33)
	_, _ = rand.Read(b)
	b[0] = 0x31
	return base64.StdEncoding.EncodeToString(b)
}

// keyFields are the push key fields, with a fresh key and key ID.
func keyFields() pushFields {
	return pushFields{"push_key": secretBoxKey(), "push_key_id": randomUint32()}
}

// tokenIDOf is the token_id of a provider token: standard Base64 of the first 8 bytes of
// its SHA-256 hash.
func tokenIDOf(token string) string {
	sum := sha256.Sum256([]byte(token))
	return base64.StdEncoding.EncodeToString(sum[:8])
}

// tokenFields are the token fields for a provider token of the given kind. The registration
// is encrypted for the bouncer, which the server cannot read: any ciphertext will do.
func tokenFields(kind, token string) pushFields {
	return pushFields{
		"token_kind": kind, "token_id": tokenIDOf(token),
		"bouncer_public_key": randomBase64(32), "encrypted_push_registration": randomBase64(96),
	}
}

// with returns a copy of f with the changes applied; a nil value removes the field.
func (f pushFields) with(changes pushFields) pushFields {
	out := maps.Clone(f)
	for k, v := range changes {
		if v == nil {
			delete(out, k)
		} else {
			out[k] = v
		}
	}
	return out
}

// newDevice registers a client device of u (POST /register_client_device) and returns its ID.
func newDevice(u harness.User) int {
	GinkgoHelper()
	return int(harness.Success(harness.Current().As(u).POST("/register_client_device").Expect()).
		Value("device_id").Number().IsInt().Raw())
}

// deviceState returns the device's entry in the user's devices state (POST /register with
// the "device" state). The document gives no other way to read a registration back; the real
// server gives that state from the level of the documented registration (468, the level every
// operation 7 spec gates on), so a spec that reached here demands it: a rotation is then
// checked, never taken on trust.
func deviceState(u harness.User, device int) map[string]any {
	GinkgoHelper()
	devices, ok := harness.Current().StateOf(u, "device").Raw()["devices"].(map[string]any)
	Expect(ok).To(BeTrue(), "POST /register gives no devices state at this level")
	d, ok := devices[strconv.Itoa(device)].(map[string]any)
	Expect(ok).To(BeTrue(), "the devices state has no entry for device %d", device)
	return d
}

// registerPush sends POST /mobile_push/register as u for the device with the fields given.
func registerPush(u harness.User, device int, fields ...pushFields) *httpexpect.Response {
	req := harness.Current().As(u).POST("/mobile_push/register")
	if device != 0 {
		req = req.WithFormField("device_id", device)
	}
	for _, f := range fields {
		for k, v := range f {
			req = req.WithFormField(k, v)
		}
	}
	return req.Expect()
}

// The push service is server configuration, switched per spec on the fake: these specs run alone.
var _ = Describe("Operation 7: register an E2EE push device (POST /mobile_push/register)", Serial, func() {
	var t *harness.Target
	BeforeEach(func() {
		t = harness.Current()
	})

	It("answers PUSH_SERVICE_NOT_CONFIGURED when the server has no push notification service",
		harness.Req("OP07-11", "ERR-10"), func() {
			t.WithoutPushService()
			user := t.Spare(harness.Member)
			harness.FailsWith(registerPush(user, newDevice(user), keyFields(), tokenFields("fcm", harness.UniqueName("token"))),
				"PUSH_SERVICE_NOT_CONFIGURED")
		})

	// Rule 4 names no kind of request: a rotation of a device registered while the service
	// was there is refused as well once it is gone.
	DescribeTable("answers PUSH_SERVICE_NOT_CONFIGURED to a rotation when the server has no push notification service",
		func(rotation func() pushFields) {
			t.UsePushService()
			user := t.Spare(harness.Member)
			device := newDevice(user)
			harness.Success(registerPush(user, device, keyFields(), tokenFields("fcm", harness.UniqueName("token"))))
			t.WithoutPushService()
			harness.FailsWith(registerPush(user, device, rotation()), "PUSH_SERVICE_NOT_CONFIGURED")
		},
		Entry("of the push key", harness.Req("OP07-11"), func() pushFields { return keyFields() }),
		Entry("of the token", harness.Req("OP07-11"), func() pushFields { return tokenFields("fcm", harness.UniqueName("token")) }),
	)

	Describe("with a push notification service", func() {
		var (
			user   harness.User
			device int
			token  string
		)
		BeforeEach(func() {
			t.UsePushService()
			user = t.Spare(harness.Member)
			device = newDevice(user)
			token = harness.UniqueName("fcm-token")
		})

		DescribeTable("accepts an initial registration with the push key fields and the token fields, with no extra fields in the answer",
			func(kind string) {
				harness.BareSuccess(registerPush(user, device, keyFields(), tokenFields(kind, token)))
			},
			Entry("of an FCM token", harness.Req("OP07-07", "OP07-12", "VER-20", "VER-22"), "fcm"),
			Entry("of an APNs token", harness.Req("OP07-07", "OP07-12", "OP07-04"), "apns"),
		)

		DescribeTable("refuses an initial registration without both the push key fields and the token fields",
			func(fields func() pushFields) {
				harness.Fails(registerPush(user, device, fields()))
			},
			Entry("only the push key fields", harness.Req("OP07-06"), func() pushFields { return keyFields() }),
			Entry("only the token fields", harness.Req("OP07-06"), func() pushFields { return tokenFields("fcm", token) }),
			Entry("the token fields and push_key without push_key_id", harness.Req("OP07-06"), func() pushFields {
				return tokenFields("fcm", token).with(pushFields{"push_key": secretBoxKey()})
			}),
			Entry("the push key fields and the token fields but token_id", harness.Req("OP07-06"), func() pushFields {
				return keyFields().with(tokenFields("fcm", token)).with(pushFields{"token_id": nil})
			}),
		)

		It("requires device_id", harness.Req("OP07-01"), func() {
			harness.Fails(registerPush(user, 0, keyFields(), tokenFields("fcm", token)))
		})

		It("rotates the push key with only the push key fields", harness.Req("OP07-08"), func() {
			harness.Success(registerPush(user, device, keyFields(), tokenFields("fcm", token)))
			rotated := keyFields()
			harness.BareSuccess(registerPush(user, device, rotated))
			Expect(deviceState(user, device)["push_key_id"]).To(BeNumerically("==", rotated["push_key_id"]), "the device's push_key_id after the rotation")
		})

		It("rotates the token with only the token fields", harness.Req("OP07-09"), func() {
			harness.Success(registerPush(user, device, keyFields(), tokenFields("fcm", token)))
			newToken := harness.UniqueName("new-token")
			harness.BareSuccess(registerPush(user, device, tokenFields("fcm", newToken)))
			// The new token waits for the push service's confirmation, or is already in use.
			d := deviceState(user, device)
			Expect([]any{d["push_token_id"], d["pending_push_token_id"]}).To(ContainElement(tokenIDOf(newToken)),
				"the device's token after the rotation")
		})

		DescribeTable("takes push_key_id as an unsigned 32-bit integer",
			func(id any, ok bool) {
				resp := registerPush(user, device, keyFields().with(pushFields{"push_key_id": id}), tokenFields("fcm", token))
				if ok {
					harness.Success(resp)
				} else {
					harness.Fails(resp)
				}
			},
			Entry("0", harness.Req("OP07-02", "LIMIT-10"), 0, true),
			Entry("4294967295, the largest", harness.Req("OP07-02", "LIMIT-10"), int64(4294967295), true),
			Entry("-1", harness.Req("OP07-02", "LIMIT-10"), -1, false),
			Entry("4294967296", harness.Req("OP07-02", "LIMIT-10"), int64(4294967296), false),
			Entry("1.5", harness.Req("OP07-02", "LIMIT-10"), "1.5", false),
		)

		// Read back after the refusal: the device is still not registered.
		DescribeTable("refuses a push_key that is not standard Base64 of 0x31 and a 32-byte key, and registers nothing",
			func(key func() string) {
				harness.Fails(registerPush(user, device, keyFields().with(pushFields{"push_key": key()}), tokenFields("fcm", token)))
				Expect(deviceState(user, device)["push_key_id"]).To(BeNil(), "the refused registration set the device's push key")
			},
			Entry("not Base64", harness.Req("OP07-03"), func() string { return "not base64!" }),
			Entry("URL-safe Base64", harness.Req("OP07-03"), func() string {
				b := make([]byte, 33)
				b[0], b[1], b[2] = 0x31, 0xfb, 0xff // encodes to characters outside the standard alphabet
				return base64.URLEncoding.EncodeToString(b)
			}),
			Entry("another cryptosystem", harness.Req("OP07-03"), func() string {
				b := make([]byte, 33)
				b[0] = 0x32
				return base64.StdEncoding.EncodeToString(b)
			}),
			Entry("a 31-byte key", harness.Req("OP07-03", "LIMIT-11"), func() string {
				return base64.StdEncoding.EncodeToString(append([]byte{0x31}, make([]byte, 31)...))
			}),
			Entry("a 33-byte key", harness.Req("OP07-03", "LIMIT-11"), func() string {
				return base64.StdEncoding.EncodeToString(append([]byte{0x31}, make([]byte, 33)...))
			}),
		)

		It("refuses a token_kind other than fcm or apns", harness.Req("OP07-04"), func() {
			harness.Fails(registerPush(user, device, keyFields(), tokenFields("gcm", token)))
		})

		// Only token_id is refused: the document gives bouncer_public_key and
		// encrypted_push_registration a format but no rule that the server rejects others, and a
		// server may leave them to the bouncer (the real server does), so demanding it here could
		// fail a conformant server. The fake refuses them too; its own tests check that.
		It("refuses a token_id that is not standard Base64", harness.Req("OP07-05"), func() {
			harness.Fails(registerPush(user, device, keyFields(), tokenFields("fcm", token).with(pushFields{"token_id": "not*base64"})))
		})

		Describe("and a legacy push registration", func() {
			BeforeEach(func() {
				harness.Success(t.As(user).POST("/users/me/android_gcm_reg_id").WithFormField("token", token).Expect())
			})

			It("removes the user's legacy registration with the same token on success", harness.Req("OP07-10", "VER-21"), func() {
				harness.Success(registerPush(user, device, keyFields(), tokenFields("fcm", token)))
				// The legacy registration is gone: removing it again finds nothing.
				harness.Fails(t.As(user).DELETE("/users/me/android_gcm_reg_id").WithFormField("token", token).Expect())
			})

			It("keeps a legacy registration of another token", harness.Req("OP07-10"), func() {
				harness.Success(registerPush(user, device, keyFields(), tokenFields("fcm", harness.UniqueName("other-token"))))
				harness.Success(t.As(user).DELETE("/users/me/android_gcm_reg_id").WithFormField("token", token).Expect())
			})
		})
	})
})

// From level 406 the route exists; its shape before 468 is not in the document, so below 468
// the spec checks only that: a request without parameters gets an error envelope, not the
// answer to a route the server does not have (HTTP 404 or 405).
var _ = Describe("Operation 7: E2EE push registration from level 406", func() {
	It("is a route of the server: a request without parameters gets an error, not a missing route", harness.Req("VER-19"), func() {
		t := harness.Current()
		resp := registerPush(t.Spare(harness.Member), 0)
		harness.Fails(resp)
		Expect(resp.Raw().StatusCode).NotTo(BeElementOf(http.StatusNotFound, http.StatusMethodNotAllowed),
			"the server answers as for a route it does not have")
	})
})

// Between levels 432 and 467 the registration had the real server's earlier form, which the
// document does not give, so the real server decides: a push account ID names it and every
// field is required, the key among them as push_key, which replaced push_public_key at 432.
var _ = Describe("Operation 7: push_key in push registration before the redesign", Serial, func() {
	It("accepts a registration with push_key and refuses one with push_public_key in its place", harness.Req("VER-22"), func() {
		t := harness.Current()
		ops.NeedLevelBefore(t, "OP07-01") // the documented form from there
		t.UsePushService()
		user := t.Spare(harness.Member)
		early := pushFields{
			"token_kind": "fcm", "push_account_id": randomUint32(), "push_key": secretBoxKey(),
			"bouncer_public_key": randomBase64(32), "encrypted_push_registration": randomBase64(96),
		}
		harness.Fails(registerPush(user, 0, early.with(pushFields{"push_key": nil, "push_public_key": secretBoxKey()})))
		harness.BareSuccess(registerPush(user, 0, early))
	})
})

// randomUint32 is a client's random ID: a push key ID, or the early form's push account ID.
func randomUint32() uint32 {
	var id [4]byte
	_, _ = rand.Read(id[:])
	return binary.BigEndian.Uint32(id[:])
}
