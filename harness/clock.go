package harness

import (
	"fmt"
	"net/url"
	"strconv"
	"time"

	"github.com/onsi/ginkgo/v2"
	"github.com/onsi/gomega"
)

// measureClockOffset learns how far the target's clock is from the runner's, once per run: the
// timestamp of a message (targetSeconds) is compared with the middle of the request. Timestamp checks then compare with the target's clock (Now), so a
// target whose clock is off by minutes or hours is not failed for it. The message is deleted
// again; a target that refuses the deletion keeps one message per run. A measurement that
// fails does not stop the run: it says so, and the runner's clock is used.
func (t *Target) measureClockOffset() error {
	if err := t.tryMeasureClockOffset(); err != nil {
		fmt.Fprintf(t.logWriter(), "chatconform: the target's clock offset is unknown (%v): timestamps are compared with the runner's clock\n", err)
	}
	return nil
}

func (t *Target) tryMeasureClockOffset() error {
	before := time.Now()
	ts, err := t.targetSeconds()
	after := time.Now()
	if err != nil {
		return err
	}
	mid := before.Add(after.Sub(before) / 2)
	// The timestamp has whole seconds: the offset is known to a second.
	t.Realm.ClockOffsetSeconds = int64(time.Unix(int64(ts), 0).Sub(mid).Round(time.Second) / time.Second)
	fmt.Fprintf(t.logWriter(), "chatconform: the target's clock is %s the runner's (from a message timestamp at setup)\n", t.ClockOffsetText())
	return nil
}

// targetSeconds reads the target's time without the control API: the timestamp of a direct
// message a staff administrator (the owner, without staff) sends itself, deleted again.
func (t *Target) targetSeconds() (int, error) {
	sender := t.staffer()
	sent, err := t.api("POST", "/messages", &sender, url.Values{
		"type": {t.DirectMessageType()}, "to": {jsonParam([]int{sender.ID})},
		"content": {"chatconform clock check " + t.RunID},
	})
	if err != nil {
		return 0, err
	}
	id, ok := sent.int("id")
	if !ok {
		return 0, fmt.Errorf("POST /messages returned no integer id")
	}
	ts, err := t.messageTimestamp(sender, id)
	if err != nil {
		return 0, err
	}
	_, _ = t.api("DELETE", "/messages/"+strconv.Itoa(id), &sender, nil)
	return ts, nil
}

// LetTimePass lets at least d pass on the target's clock: by the control API where the run has
// the clock capability, else by waiting. A target whose clock stood still while the spec waited
// (the fake's frozen clock, run without its clock capability) cannot show what the spec needs:
// the spec is skipped as needing the clock capability, never failed for the wait.
func (t *Target) LetTimePass(d time.Duration) {
	ginkgo.GinkgoHelper()
	if t.Capabilities["clock"] {
		t.PassTime(d)
		return
	}
	before, err := t.targetSeconds()
	g.Expect(err).NotTo(gomega.HaveOccurred(), "harness: reading the target's time")
	time.Sleep(d)
	after, err := t.targetSeconds()
	g.Expect(err).NotTo(gomega.HaveOccurred(), "harness: reading the target's time")
	if after <= before {
		ginkgo.Skip(fmt.Sprintf("%s clock: the target's clock stood still for the %s this spec waited", NeedsCapabilityPrefix, d))
	}
}

// messageTimestamp reads a message's timestamp as u: from GET /messages/{id}, or below level
// 120, where the real server answers that with raw_content only (its changelog), from
// GET /messages narrowed to the message.
func (t *Target) messageTimestamp(u User, id int) (int, error) {
	if t.FeatureLevel >= levelWholeMessageFetch {
		got, err := t.api("GET", "/messages/"+strconv.Itoa(id), &u, nil)
		if err != nil {
			return 0, err
		}
		msg, _ := got["message"].(map[string]any)
		if ts, ok := object(msg).int("timestamp"); ok {
			return ts, nil
		}
		return 0, fmt.Errorf("GET /messages/%d returned no integer message.timestamp", id)
	}
	got, err := t.api("GET", "/messages", &u, url.Values{
		"anchor": {strconv.Itoa(id)}, "num_before": {"0"}, "num_after": {"0"},
		"narrow": {`[{"operator":"id","operand":"` + strconv.Itoa(id) + `"}]`},
	})
	if err != nil {
		return 0, err
	}
	if list, _ := got["messages"].([]any); len(list) == 1 {
		msg, _ := list[0].(map[string]any)
		if ts, ok := object(msg).int("timestamp"); ok {
			return ts, nil
		}
	}
	return 0, fmt.Errorf("GET /messages narrowed to message %d returned no one message with an integer timestamp", id)
}

// ClockOffset is how far the target's clock is ahead of the runner's (negative: behind).
func (t *Target) ClockOffset() time.Duration {
	return time.Duration(t.Realm.ClockOffsetSeconds) * time.Second
}

// ClockOffsetText says the offset in words: "5s ahead of", "2m0s behind", "in step with".
func (t *Target) ClockOffsetText() string {
	switch d := t.ClockOffset(); {
	case d > 0:
		return d.String() + " ahead of"
	case d < 0:
		return (-d).String() + " behind"
	}
	return "in step with"
}

// Now returns the target's current time: GET /_fake/clock when the target
// has the clock capability (the fake's virtual clock moves only when told),
// else the wall clock corrected by the target's clock offset measured at
// setup, so a target whose clock is off is not failed for it.
func (t *Target) Now() time.Time {
	ginkgo.GinkgoHelper()
	if !t.Capabilities["clock"] {
		return time.Now().Add(t.ClockOffset())
	}
	obj, err := t.call("GET", t.URL+"/_fake/clock", nil, nil)
	g.Expect(err).NotTo(gomega.HaveOccurred(), "harness: reading the target's clock")
	sec, ok := obj.int("now")
	g.Expect(ok).To(gomega.BeTrue(), "harness: GET /_fake/clock returned no integer now")
	return time.Unix(int64(sec), 0)
}
