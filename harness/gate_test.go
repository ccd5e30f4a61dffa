package harness

import (
	"reflect"
	"testing"

	"github.com/onsi/ginkgo/v2"
)

func TestReq(t *testing.T) {
	tests := []struct {
		ids  []string
		want ginkgo.Labels // nil = must panic
	}{
		{[]string{"OP06-01"}, ginkgo.Labels{"req:OP06-01"}},
		{[]string{"CONV-01", "ERR-12", "OP21-99"}, ginkgo.Labels{"req:CONV-01", "req:ERR-12", "req:OP21-99"}},
		{[]string{"MSG-01", "RES-02", "STATE-03", "AUTH-04", "EVENT-05", "LIMIT-06", "VER-07", "OP01-01", "OP10-10"},
			ginkgo.Labels{"req:MSG-01", "req:RES-02", "req:STATE-03", "req:AUTH-04", "req:EVENT-05", "req:LIMIT-06", "req:VER-07", "req:OP01-01", "req:OP10-10"}},
		{nil, nil},
		{[]string{"op06-01"}, nil},
		{[]string{"OP6-01"}, nil},
		{[]string{"OP00-01"}, nil},
		{[]string{"OP22-01"}, nil},
		{[]string{"OP06-1"}, nil},
		{[]string{"OP06-001"}, nil},
		{[]string{"FOO-01"}, nil},
		{[]string{"OP06-01", "req:OP06-02"}, nil},
		{[]string{" OP06-01"}, nil},
	}
	for _, tt := range tests {
		got, panicked := func() (l ginkgo.Labels, panicked bool) {
			defer func() { panicked = recover() != nil }()
			return Req(tt.ids...), false
		}()
		if tt.want == nil {
			if !panicked {
				t.Errorf("Req(%q) = %v, want a panic", tt.ids, got)
			}
			continue
		}
		if panicked || !reflect.DeepEqual(got, tt.want) {
			t.Errorf("Req(%q) = %v (panicked %v), want %v", tt.ids, got, panicked, tt.want)
		}
	}
}

func TestReqIDs(t *testing.T) {
	got := ReqIDs([]string{"serial", "req:OP06-01", "slow", "req:ERR-01"})
	if !reflect.DeepEqual(got, []string{"OP06-01", "ERR-01"}) {
		t.Errorf("ReqIDs = %v", got)
	}
}
