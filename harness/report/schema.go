package report

import (
	"bytes"
	_ "embed"
	"fmt"

	"github.com/chatconform/chatconform/fixtures/embedschema"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// SchemaJSON is the JSON Schema (2020-12) of conformance.json, published beside this file
// (conformance.schema.json): what a CI step reading the report may rely on.
//
//go:embed conformance.schema.json
var SchemaJSON []byte

var schema = embedschema.Loader("conformance.schema.json", SchemaJSON)

// Validate checks an encoded report against the schema; Write refuses to write one that fails.
func Validate(report []byte) error {
	s, err := schema()
	if err != nil {
		return fmt.Errorf("report: the schema: %w", err)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(report))
	if err != nil {
		return fmt.Errorf("report: not JSON: %w", err)
	}
	if err := s.Validate(doc); err != nil {
		return fmt.Errorf("report: does not match conformance.schema.json: %w", err)
	}
	return nil
}
