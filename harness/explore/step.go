package explore

import (
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"slices"
	"strings"
)

// Step is one request of a sequence, as both sides send it. Paths and parameter values name
// what the run created by tokens, which each side resolves to its own IDs and names:
//
//	{channel:c3}  the ID of channel c3         {name:c3}   its name (the run's prefix + "c3")
//	{message:#2}  the ID of the third message the run saw   {user:member}  an actor's user ID
//	{email:member} an actor's email             {now+3600}  the side's clock, in UNIX seconds
//	{upload:f1}   the path_id of uploaded file f1  {attachment:f1}  its attachment ID
//	{dummy:u1}    an account's dummy email (user<ID>@<host>)  {field:Website}  a custom profile field's ID
//	{device:d1}   the ID of client device d1
//	{jwt:member}  a JSON Web Token for the actor's email, signed with the side's JWT key
//	              ({jwt:member/forged}: with another key)
//	{tokenid:t1}  the token_id of push token {name:t1}: Base64 of its SHA-256 hash's first 8 bytes
//
// A parameter named "@file" is sent as a multipart file part named "file", its value the
// file's name.
//
// A token for something a side does not have becomes an ID no server has.
type Step struct {
	// Op names the operation; the field table's rows for its reply use this name.
	Op     string            `json:"op"`
	Actor  string            `json:"actor"`
	Method string            `json:"method"`
	Path   string            `json:"path"`
	Params map[string]string `json:"params,omitempty"`
	// Channel and Message are what the step may change, which the run reads back after it
	// from every actor ("" for nothing).
	Channel string `json:"channel,omitempty"`
	Message string `json:"message,omitempty"`
	// Learn names the channel a successful creation makes, whose ID the run looks up, or,
	// as "upload:f1", the file an upload makes, whose path and attachment ID it looks up.
	Learn string `json:"learn,omitempty"`
	// Upload names an uploaded file the step may change: the run reads back every actor's
	// attachments and whether each may still fetch it.
	Upload string `json:"upload,omitempty"`
	// User names an account the step may change: the run reads back every actor's view of
	// the users and that account.
	User string `json:"user,omitempty"`
	// Control sends the step to the fake's control API (Path is under /_fake/) on both
	// sides, as the specs move the clock and configure the fake; its answer is not compared.
	// Actor is the user a video-call token step reads back as.
	Control bool `json:"control,omitempty"`
}

// Script is a sequence of steps as a replay file holds it: what ran, from which seed, and
// the difference it showed (empty for a sequence that showed none).
type Script struct {
	Seed  uint64 `json:"seed"`
	Level int    `json:"feature_level,omitempty"`
	Steps []Step `json:"steps"`
	// Finding is the difference the last step shows, for the reader.
	Finding *Finding `json:"finding,omitempty"`
}

// ReadScript reads a replay file.
func ReadScript(path string) (Script, error) {
	var s Script
	data, err := os.ReadFile(path)
	if err != nil {
		return s, err
	}
	if err := json.Unmarshal(data, &s); err != nil {
		return s, fmt.Errorf("replay file %s: %w", path, err)
	}
	if len(s.Steps) == 0 {
		return s, fmt.Errorf("replay file %s holds no steps", path)
	}
	for i, st := range s.Steps {
		if !slices.Contains(actorNames, st.Actor) || st.Method == "" || !strings.HasPrefix(st.Path, "/") {
			return s, fmt.Errorf("replay file %s: step %d: needs a known actor (%s), a method and a path starting with /", path, i+1, strings.Join(actorNames, ", "))
		}
	}
	return s, nil
}

// WriteScript writes a replay file.
func WriteScript(path string, s Script) error {
	data, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(data, '\n'), 0o644)
}

// token is one reference of a step to a side's own values.
var token = regexp.MustCompile(`\{(channel|name|message|user|group|email|now|upload|attachment|dummy|field|device|jwt|tokenid|update)([:+#-])([^{}]*)\}`)

// missingID is the ID a token for something a side lacks becomes: no server has it.
const missingID = "987654321"
