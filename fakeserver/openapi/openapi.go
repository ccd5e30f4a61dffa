// Package openapi holds the fake's own OpenAPI 3.1 description of every route it serves
// (openapi.yaml beside this file), which the fake serves at GET /openapi.json and against which
// package check validates every exchange of a suite run.
package openapi

import (
	_ "embed"
	"encoding/json"
	"fmt"

	"gopkg.in/yaml.v3"
)

//go:embed openapi.yaml
var description []byte

//go:embed client_operations.txt
var clientOperations []byte

// ClientOperations is the list of the real server's client operations (client_operations.txt):
// method, path and the feature level each appeared at, and why the fake lacks those it lacks.
func ClientOperations() []byte { return clientOperations }

// YAML is the description as written.
func YAML() []byte { return description }

// JSON is the description as JSON, for clients and generators that read only JSON.
func JSON() ([]byte, error) {
	var doc any
	if err := yaml.Unmarshal(description, &doc); err != nil {
		return nil, fmt.Errorf("openapi.yaml: %w", err)
	}
	return json.Marshal(doc)
}
