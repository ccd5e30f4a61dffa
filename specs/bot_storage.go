package specs

import (
	"encoding/json"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/gavv/httpexpect/v2"

	"github.com/chatconform/chatconform/harness"
)

// Each spec stores data as a bot of its own: a bot's storage is shared by everything that
// acts as that bot.

// storeForBot fills a bot's storage (PUT /bot_storage, the real server's supporting operation).
func storeForBot(bot harness.User, entries map[string]string) {
	GinkgoHelper()
	encoded, _ := json.Marshal(entries)
	harness.Success(harness.Current().As(bot).PUT("/bot_storage").WithFormField("storage", string(encoded)).Expect())
}

// storedByBot returns a bot's whole storage (GET /bot_storage).
func storedByBot(bot harness.User) map[string]any {
	GinkgoHelper()
	return harness.Success(harness.Current().As(bot).GET("/bot_storage").Expect()).Value("storage").Object().Raw()
}

// removeStorage sends DELETE /bot_storage as u, with keys JSON-encoded unless nil.
func removeStorage(u harness.User, keys []string) *httpexpect.Response {
	req := harness.Current().As(u).DELETE("/bot_storage")
	if keys != nil {
		encoded, _ := json.Marshal(keys)
		req = req.WithFormField("keys", string(encoded))
	}
	return req.Expect()
}

var _ = Describe("Operation 20: remove a bot's stored data (DELETE /bot_storage)", func() {
	var (
		t   *harness.Target
		bot harness.User
	)
	BeforeEach(func() {
		t = harness.Current()
		bot = t.NewUser(harness.Bot) // a bot of its own: its storage is what the specs change
		storeForBot(bot, map[string]string{"alpha": "1", "beta": "2", "gamma": "3"})
	})

	It("deletes exactly the listed keys", harness.Req("OP20-02"), func() {
		harness.Success(removeStorage(bot, []string{"alpha", "gamma"}))
		Expect(storedByBot(bot)).To(Equal(map[string]any{"beta": "2"}))
	})

	// Only omitting keys deletes everything: an empty list lists no key.
	It("deletes nothing for an empty keys list", harness.Req("OP20-02"), func() {
		harness.Success(removeStorage(bot, []string{}))
		Expect(storedByBot(bot)).To(HaveLen(3))
	})

	It("deletes all of the bot's data when keys is omitted", harness.Req("OP20-03"), func() {
		harness.Success(removeStorage(bot, nil))
		Expect(storedByBot(bot)).To(BeEmpty())
	})

	It("answers a removal with the success envelope and no further fields", harness.Req("OP20-05"), func() {
		harness.BareSuccess(removeStorage(bot, []string{"alpha"}))
	})

	// An error answers a request that failed: the listed key that does exist is not removed
	// either (the real server checks every key before it removes any).
	It("answers BAD_REQUEST for a key that does not exist, and removes none of the keys", harness.Req("OP20-04", "ERR-04"), func() {
		harness.FailsWith(removeStorage(bot, []string{"alpha", "no-such-key"}), "BAD_REQUEST")
		Expect(storedByBot(bot)).To(Equal(map[string]any{"alpha": "1", "beta": "2", "gamma": "3"}), "the refused removal changed the storage")
	})

	It("touches no other bot's data", harness.Req("OP20-03"), func() {
		other := t.NewUser(harness.Bot)
		storeForBot(other, map[string]string{"alpha": "other"})
		harness.Success(removeStorage(bot, nil))
		Expect(storedByBot(other)).To(Equal(map[string]any{"alpha": "other"}))
	})

	DescribeTable("refuses keys that are not a JSON-encoded list of strings, and removes nothing",
		func(keys string) {
			harness.Fails(t.As(bot).DELETE("/bot_storage").WithFormField("keys", keys).Expect())
			Expect(storedByBot(bot)).To(HaveLen(3))
		},
		Entry("not JSON", harness.Req("OP20-02"), `["alpha"`),
		Entry("a JSON string", harness.Req("OP20-02"), `"alpha"`),
		Entry("a list of numbers", harness.Req("OP20-02"), `[1, 2]`),
	)

	// With keys and without: the refusal is the caller's, whatever the request names.
	DescribeTable("answers PERMISSION_DENIED to a caller that is not a bot",
		func(role harness.Role, keys string) {
			req := t.As(t.User(role)).DELETE("/bot_storage")
			if keys != "" {
				req = req.WithFormField("keys", keys)
			}
			harness.FailsWith(req.Expect(), "PERMISSION_DENIED")
		},
		Entry("a member", harness.Req("OP20-01", "ERR-13", "VER-23"), harness.Member, ""),
		Entry("a member naming keys", harness.Req("OP20-01", "ERR-13", "VER-23"), harness.Member, `["alpha"]`),
		Entry("an administrator", harness.Req("OP20-01", "ERR-13", "VER-23"), harness.Admin, ""),
		Entry("an administrator naming keys", harness.Req("OP20-01", "ERR-13", "VER-23"), harness.Admin, `["alpha"]`),
		Entry("the owner of the bot", harness.Req("OP20-01", "ERR-13"), harness.Owner, ""),
	)
})
