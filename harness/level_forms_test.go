package harness

import "testing"

// Each form one level below the real server's boundary and at it.
func TestLevelForms(t *testing.T) {
	cases := []struct {
		level            int
		direct, operator string
	}{
		{173, "private", "stream"},
		{174, "direct", "stream"},
		{249, "direct", "stream"},
		{250, "direct", "channel"},
	}
	for _, c := range cases {
		target := &Target{FeatureLevel: c.level}
		if got := target.DirectMessageType(); got != c.direct {
			t.Errorf("level %d: direct message type %q, want %q", c.level, got, c.direct)
		}
		if got := target.ChannelOperator(); got != c.operator {
			t.Errorf("level %d: channel operator %q, want %q", c.level, got, c.operator)
		}
	}
	for _, c := range []struct {
		answer map[string]any
		want   string
		ok     bool
	}{
		{map[string]any{"url": "/user_uploads/a", "uri": "/user_uploads/a"}, "/user_uploads/a", true},
		{map[string]any{"uri": "/user_uploads/b"}, "/user_uploads/b", true},
		{map[string]any{"result": "success"}, "", false},
	} {
		if got, ok := uploadURLOf(c.answer); got != c.want || ok != c.ok {
			t.Errorf("uploadURLOf(%v) = %q, %v; want %q, %v", c.answer, got, ok, c.want, c.ok)
		}
	}
}
