package catalog

import (
	"bytes"
	_ "embed"
)

// fieldsYAML is the field table of chatconform explore: for every field of every reply and
// event it compares, whether the document determines it (and by which requirements) or
// leaves it free (and by which line). Package harness/explore parses and checks it.
//
//go:embed fields.yaml
var fieldsYAML []byte

// FieldsYAML returns the field table's text.
func FieldsYAML() []byte { return bytes.Clone(fieldsYAML) }
