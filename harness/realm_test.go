package harness

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

var _ = Describe("state and crowd helpers", func() {
	var (
		fake *testFake
		tgt  *Target
	)
	BeforeEach(func() { fake, tgt = connectToTestFake() })

	It("reads a user's state and deletes the queue the registration made", func() {
		member := tgt.Users[Member]
		state := tgt.StateOf(member, "realm")
		Expect(state.Value("max_topic_length").Number().Raw()).To(BeNumerically("==", 60))
		Expect(fake.fetchEventTypes[len(fake.fetchEventTypes)-1]).To(Equal(`["realm"]`))
		queueID := state.Value("queue_id").String().Raw()
		fake.mu.Lock()
		defer fake.mu.Unlock()
		Expect(fake.queues.deleted).To(ContainElement(queueID), "the queue is deleted at once")
		Expect(fake.queues.byID).NotTo(HaveKey(queueID))
	})

	It("sizes a wildcard-mention crowd one above the configured threshold", func() {
		tgt.Config.WildcardMentionThreshold = 20
		Expect(tgt.WildcardMentionCrowdSize()).To(Equal(21))
	})

	It("sizes a wildcard-mention crowd by the fake's threshold when the target is the fake", func() {
		tgt.Capabilities["config"] = true // the test fake's health answers
		Expect(tgt.WildcardMentionCrowdSize()).To(Equal(16))
	})
})

var _ = Describe("wildcard crowd", func() {
	It("skips without a threshold", func() {
		fake, tgt := connectToTestFake()
		fake.health = "" // not a fake: no control API
		tgt.Capabilities["config"] = true
		tgt.WildcardMentionCrowdSize()
		Fail("did not skip")
	})
})
