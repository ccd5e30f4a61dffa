package params

import (
	"math/rand/v2"
	"net/url"
	"reflect"
	"strings"
	"testing"
)

// TestParseFormMatchesParseQuery: parseForm reads every text as url.ParseQuery does, the same
// values by name in the same order and the same error, for listed texts and random ones.
func TestParseFormMatchesParseQuery(t *testing.T) {
	texts := []string{"", "&", "a", "a=", "=b", "a=1&a=2&b=3", "a=1;b=2", "a=%zz&b=2", "a=%41+b&c%3D=d",
		"type=stream&to=general&topic=load&content=" + strings.Repeat("x", 100), "x=1&&y=2&", strings.Repeat("a=1&", 300)}
	alphabet := []byte("ab=&;%+2F41z")
	r := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		b := make([]byte, r.IntN(12))
		for i := range b {
			b[i] = alphabet[r.IntN(len(alphabet))]
		}
		texts = append(texts, string(b))
	}
	for _, text := range texts {
		want, wantErr := url.ParseQuery(text)
		got, gotErr := parseForm(text)
		if (wantErr == nil) != (gotErr == nil) || wantErr != nil && wantErr.Error() != gotErr.Error() {
			t.Fatalf("%q: error %v, want %v", text, gotErr, wantErr)
		}
		asValues := url.Values{}
		for _, p := range got {
			asValues[p.name] = append(asValues[p.name], p.value)
		}
		if !reflect.DeepEqual(asValues, want) && !(len(asValues) == 0 && len(want) == 0) {
			t.Fatalf("%q: %v, want %v", text, asValues, want)
		}
	}
}
