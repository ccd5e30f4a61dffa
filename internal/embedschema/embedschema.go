// Package embedschema compiles a JSON Schema that a package embeds: the fixture format's
// (fixtures) and the report's (harness/report) load the same way, once, on first use.
package embedschema

import (
	"bytes"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// Loader returns a function that compiles doc, a JSON Schema document known by name (the
// name its errors and references use), on its first call, and hands back that same schema,
// or error, on every later one.
func Loader(name string, doc []byte) func() (*jsonschema.Schema, error) {
	return sync.OnceValues(func() (*jsonschema.Schema, error) {
		parsed, err := jsonschema.UnmarshalJSON(bytes.NewReader(doc))
		if err != nil {
			return nil, err
		}
		c := jsonschema.NewCompiler()
		if err := c.AddResource(name, parsed); err != nil {
			return nil, err
		}
		return c.Compile(name)
	})
}
