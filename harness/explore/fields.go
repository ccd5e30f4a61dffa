package explore

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/chatconform/chatconform/specs/catalog"
)

// Rule says how the comparator treats one field of a reply or event.
type Rule string

// The rules of the field table. Exact, Set, Time and the ID rules are determined: a
// difference is a finding. Free is not compared; Type compares only the JSON type (a URL
// whose text is the server's own, but whose null-ness the document determines).
const (
	Exact Rule = "exact" // equal after ID mapping and the actors' names
	Set   Rule = "set"   // an array equal as a multiset: the document leaves the order open
	Time  Rule = "time"  // UNIX seconds, equal within the clock tolerance
	Free  Rule = "free"  // not compared: the document leaves it open (Line says where)
	Type  Rule = "type"  // only the JSON type (null, string, number, …) is compared
	// Text is Type for a text the server words itself where the document asks for one a
	// person can read (an error's msg): also whether it is empty is compared.
	Text Rule = "text"
	// Nullable is Type where the document allows null without requiring it: where the
	// reference sends null the target may send a string too.
	Nullable Rule = "nullable"
	Map      Rule = "map" // an object whose keys are data (bot storage): keys and values equal
	// IDPrefix starts the ID rules: "id:message", "id:channel", "id:user", … An ID maps to
	// the order in which the run first saw it, per kind; "idkeys:message" is an object
	// whose keys are IDs of that kind.
	IDPrefix     = "id:"
	IDKeysPrefix = "idkeys:"
	// SincePrefix starts "since:last_update_id": an update ID that the document relates to
	// the request's parameter of that name (at least the value passed, equal meaning no
	// updates, -1 when none was passed and no data came back), each server's counter being
	// its own: compared by where it stands against that value (compareSince).
	SincePrefix = "since:"
	// ObjectPrefix starts "object:Message": the field is an object whose fields are the
	// rows of reply "Message", shared by every reply and event that carries one.
	ObjectPrefix = "object:"
)

// Row is one row of the field table.
type Row struct {
	// Reply is the operation name of a step or read (fetch_message, send_message, …),
	// "event <type>" for an event, or "*" for every reply.
	Reply string `yaml:"reply"`
	// Path is the field's place: object keys joined by ".", "[]" for the elements of an
	// array and "{}" for the values of an object keyed by ID.
	Path string `yaml:"path"`
	Rule Rule   `yaml:"rule"`
	// Requirements are the catalog IDs of a determined field: a difference is attributed
	// to them.
	Requirements []string `yaml:"requirements,omitempty"`
	// Line is, for a free field, the document's line that leaves it open (verbatim).
	Line string `yaml:"line,omitempty"`
	// Why, for a free field the document does not name at all (a supporting operation's,
	// whose shape is the real server's, or an extra field, which DESIGN 4 always allows),
	// says why it is not compared.
	Why string `yaml:"why,omitempty"`
	// Only, on an array of strings, names the elements that are compared: the document
	// determines those and leaves the others open (message flags).
	Only []string `yaml:"only,omitempty"`
	// Scope, on an array, names the element field that must be an ID the run created for
	// the element to be compared at all (a target's own channels are not the run's).
	Scope string `yaml:"scope,omitempty"`
}

// Table is the parsed field table, looked up by reply and path.
type Table struct {
	rows map[string]Row
}

func key(reply, path string) string { return reply + "\x00" + path }

// Lookup returns the row of a field: the reply's own, else the one for every reply, else,
// inside an object row ("object:Message"), the object's own row for the rest of the path,
// else an element's array's, else the reply's catch-all.
func (t *Table) Lookup(reply, path string) (Row, bool) {
	if r, ok := t.rows[key(reply, path)]; ok {
		return r, true
	}
	// An event's fields fall back on the rows of every event, an operation's error on the
	// rows of every error, and then on its catch-all row.
	for _, family := range []string{"event", "error"} {
		if strings.HasPrefix(reply, family+" ") {
			if r, ok := t.Lookup(family, path); ok {
				return r, true
			}
		}
	}
	if r, ok := t.rows[key("*", path)]; ok {
		return r, true
	}
	// Inside an object row, the object's own rows; they come before the reply's catch-all,
	// which covers the fields the reply's rows do not name (a registration's other state).
	for i := len(path) - 1; i > 0; i-- {
		if path[i] != '.' && path[i] != '[' && path[i] != '{' {
			continue
		}
		prefix, rest := path[:i], strings.TrimPrefix(path[i:], ".")
		if r, ok := t.rows[key(reply, prefix)]; ok {
			if obj, isObj := strings.CutPrefix(string(r.Rule), ObjectPrefix); isObj {
				return t.Lookup(obj, rest)
			}
			break
		}
	}
	// The elements of an array (or ID-keyed object) without a row of their own are compared
	// as the array is; they come before the catch-all too.
	parent, isElem := strings.CutSuffix(path, "[]")
	if !isElem {
		parent, isElem = strings.CutSuffix(path, "{}")
	}
	if isElem {
		if r, ok := t.Lookup(reply, parent); ok && r.Rule != Free {
			return Row{Rule: Exact, Requirements: r.Requirements}, true
		}
	}
	if r, ok := t.rows[key(reply, "*")]; ok {
		return r, true
	}
	return Row{}, false
}

// Rows returns every row, in no particular order.
func (t *Table) Rows() []Row {
	out := make([]Row, 0, len(t.rows))
	for _, r := range t.rows {
		out = append(out, r)
	}
	return out
}

// LoadTable parses and checks the embedded field table against the catalog and the
// document held in doc (the text of docs/chat-api.md; nil skips the line check).
func LoadTable(doc []byte) (*Table, error) {
	return ParseTable(catalog.FieldsYAML(), doc)
}

// ParseTable parses a field table and checks every row: a known rule, determined rows with
// requirements the catalog holds, free rows with a line the document holds, no row twice.
func ParseTable(data, doc []byte) (*Table, error) {
	var rows []Row
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&rows); err != nil && !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("field table: %w", err)
	}
	cat, err := catalog.Load()
	if err != nil {
		return nil, err
	}
	known := map[string]bool{}
	for _, r := range cat.Requirements {
		known[r.ID] = true
	}
	t := &Table{rows: map[string]Row{}}
	var errs []error
	for i, r := range rows {
		where := fmt.Sprintf("field table row %d (%s %s)", i+1, r.Reply, r.Path)
		if r.Reply == "" || r.Path == "" {
			errs = append(errs, fmt.Errorf("%s: reply and path are required", where))
			continue
		}
		if _, dup := t.rows[key(r.Reply, r.Path)]; dup {
			errs = append(errs, fmt.Errorf("%s: given twice", where))
		}
		switch {
		case r.Rule == Free || r.Rule == Type || r.Rule == Nullable || r.Rule == Text:
			switch {
			case r.Line == "" && r.Why == "":
				errs = append(errs, fmt.Errorf("%s: a %s field needs the document's line that leaves it open, or why the document does not name it", where, r.Rule))
			case r.Line != "" && doc != nil && !bytes.Contains(doc, []byte(r.Line)):
				errs = append(errs, fmt.Errorf("%s: line %q is not in the document", where, r.Line))
			}
			if r.Rule != Free && len(r.Requirements) == 0 {
				errs = append(errs, fmt.Errorf("%s: a type field needs the requirements its type belongs to", where))
			}
		case strings.HasPrefix(string(r.Rule), ObjectPrefix):
			// Its fields carry the requirements.
		case r.Rule == Exact || r.Rule == Set || r.Rule == Time || r.Rule == Map ||
			strings.HasPrefix(string(r.Rule), IDPrefix) || strings.HasPrefix(string(r.Rule), IDKeysPrefix) || strings.HasPrefix(string(r.Rule), SincePrefix):
			if len(r.Requirements) == 0 {
				errs = append(errs, fmt.Errorf("%s: a determined field needs its requirements", where))
			}
			if r.Line != "" && r.Rule != Set {
				errs = append(errs, fmt.Errorf("%s: a line belongs to a free field (or a set, whose order it leaves open)", where))
			}
		default:
			errs = append(errs, fmt.Errorf("%s: unknown rule %q", where, r.Rule))
		}
		for _, id := range r.Requirements {
			if !known[id] {
				errs = append(errs, fmt.Errorf("%s: unknown requirement %s", where, id))
			}
		}
		t.rows[key(r.Reply, r.Path)] = r
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return t, nil
}

// idKind returns the kind of an ID rule ("message" for "id:message") and whether the rule
// is one.
func (r Rule) idKind() (string, bool) {
	k, ok := strings.CutPrefix(string(r), IDPrefix)
	return k, ok
}

// onItsOwn says whether a rule compares a value by more than its canonical form: a time
// within the tolerance, an update ID against the request.
func (r Rule) onItsOwn() bool {
	_, since := r.sinceParam()
	return r == Time || since
}

// sinceParam is the request parameter of a since rule ("last_update_id" for
// "since:last_update_id") and whether the rule is one.
func (r Rule) sinceParam() (string, bool) {
	p, ok := strings.CutPrefix(string(r), SincePrefix)
	return p, ok
}

// idKeysKind is idKind for "idkeys:" rules.
func (r Rule) idKeysKind() (string, bool) {
	k, ok := strings.CutPrefix(string(r), IDKeysPrefix)
	return k, ok
}
