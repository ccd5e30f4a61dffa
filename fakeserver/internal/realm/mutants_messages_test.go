package realm

import (
	"bytes"
	"encoding/json"
	"testing"
)

// The message view's flags and reactions are named list types only so that a mutant can change
// their JSON: with no point on they write byte for byte what the plain lists write, under an
// encoder that escapes HTML and one that does not (the replies'), and null when nil.
func TestListTypesWriteThePlainLists(t *testing.T) {
	type named struct {
		F flagList     `json:"f"`
		R reactionList `json:"r"`
	}
	type plain struct {
		F []string       `json:"f"`
		R []ReactionView `json:"r"`
	}
	reactions := []ReactionView{{EmojiName: "a<b&c>", EmojiCode: "1f389", ReactionType: "unicode_emoji", UserID: 3}}
	cases := map[string][2]any{
		"lists": {named{flagList{"read", "x<y"}, reactions}, plain{[]string{"read", "x<y"}, reactions}},
		"nil":   {named{}, plain{}},
	}
	for name, c := range cases {
		for _, escape := range []bool{true, false} {
			var got, want bytes.Buffer
			for buf, v := range map[*bytes.Buffer]any{&got: c[0], &want: c[1]} {
				enc := json.NewEncoder(buf)
				enc.SetEscapeHTML(escape)
				if err := enc.Encode(v); err != nil {
					t.Fatal(err)
				}
			}
			if got.String() != want.String() {
				t.Errorf("%s, escaping HTML %t: %s, want %s", name, escape, got.String(), want.String())
			}
		}
	}
}
