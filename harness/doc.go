// Package harness connects the chatconform specs to a target server.
//
// It loads the target's configuration (flags, environment, YAML file),
// connects to the server and provisions a cast of users of every role,
// builds httpexpect clients that authenticate as those users, offers the
// envelope matchers every spec uses, gates specs on capabilities, features
// and feature levels, and (in package report) turns a Ginkgo run into a
// per-requirement conformance report.
//
// A spec acts as someone in one way: every action takes a User (t.As(u),
// t.SendToChannel(u, …), t.Listen(u, …)), and t.User(role) is the cast
// member of a role. The Target's methods sit in the file of the resource they
// act on (messages.go, channels.go, users.go, groups.go, realm.go, …).
//
// Specs reach the target only through its public HTTP API (docs/design.md,
// "Public API only"); the fake's control API under /_fake/ is offered separately by
// Target.Fake for specs that declared the capability they need.
package harness
