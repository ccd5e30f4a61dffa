package embedschema

import (
	"bytes"
	"slices"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

func TestLoader(t *testing.T) {
	const object = `{"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object",
		"properties": {"n": {"type": "integer"}}, "required": ["n"]}`
	for _, tc := range []struct {
		name, doc string
		wantErr   bool
		valid     []string // instances the schema must accept
		invalid   []string // and refuse
	}{
		{name: "a schema", doc: object, valid: []string{`{"n": 1}`}, invalid: []string{`{}`, `{"n": "1"}`, `[]`}},
		{name: "not JSON", doc: `{"type": `, wantErr: true},
		{name: "not a schema", doc: `{"type": 7}`, wantErr: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			load := Loader("test.schema.json", []byte(tc.doc))
			s, err := load()
			if tc.wantErr {
				if err == nil {
					t.Fatalf("compiled %q", tc.doc)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if again, _ := load(); again != s {
				t.Errorf("second call compiled again")
			}
			for _, inst := range append(tc.valid, tc.invalid...) {
				v, err := jsonschema.UnmarshalJSON(bytes.NewReader([]byte(inst)))
				if err != nil {
					t.Fatal(err)
				}
				accepted := s.Validate(v) == nil
				if want := slices.Contains(tc.valid, inst); accepted != want {
					t.Errorf("%s: accepted %v, want %v", inst, accepted, want)
				}
			}
		})
	}
}
