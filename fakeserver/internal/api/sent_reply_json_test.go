package api

import (
	"encoding/json"
	"math"
	"testing"
)

// TestSentReplyJSON: a send's reply appends itself as encoding/json writes it.
func TestSentReplyJSON(t *testing.T) {
	for _, id := range []int{0, 1, 42, -7, 1 << 40, math.MaxInt64, math.MinInt64} {
		want, err := json.Marshal(sentReply{ID: id})
		if err != nil {
			t.Fatal(err)
		}
		if got := (sentReply{ID: id}).AppendJSONObject(nil); string(got) != string(want) {
			t.Errorf("%d: %s, want %s", id, got, want)
		}
	}
}
