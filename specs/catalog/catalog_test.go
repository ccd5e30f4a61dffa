package catalog

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
)

// entry renders one YAML entry; tests build small documents from it so each case
// shows only what it breaks.
func entry(id, feature, extra string) string {
	s := fmt.Sprintf("  - id: %s\n    section: \"Conventions\"\n    text: \"some rule\"\n    feature: %s\n", id, feature)
	if extra != "" {
		s += "    " + extra + "\n"
	}
	return s
}

func doc(entries ...string) []byte {
	return []byte("requirements:\n" + strings.Join(entries, ""))
}

func TestParseValidation(t *testing.T) {
	tests := []struct {
		name string
		data []byte
		// wantErr lists substrings the error must contain; empty means success.
		wantErr []string
	}{
		{
			name: "valid",
			data: doc(entry("CONV-01", "core", ""), entry("OP21-03", "vcall", "min_level: 3"), entry("OP06-01", "messages", "pending: issue-4")),
		},
		{
			name:    "duplicate id",
			data:    doc(entry("CONV-01", "core", ""), entry("CONV-01", "core", "")),
			wantErr: []string{"CONV-01", "duplicate id"},
		},
		{
			name:    "bad id: operation 22 does not exist",
			data:    doc(entry("OP22-01", "core", "")),
			wantErr: []string{"OP22-01", "does not match"},
		},
		{
			name:    "bad id: one-digit number",
			data:    doc(entry("MSG-1", "core", "")),
			wantErr: []string{"MSG-1", "does not match"},
		},
		{
			name:    "bad id: unknown area",
			data:    doc(entry("FOO-01", "core", "")),
			wantErr: []string{"FOO-01", "does not match"},
		},
		{
			name:    "missing id",
			data:    doc("  - section: \"Conventions\"\n    text: \"x\"\n    feature: core\n"),
			wantErr: []string{"entry at line 2", "missing id"},
		},
		{
			name:    "unknown feature",
			data:    doc(entry("CONV-02", "chat", "")),
			wantErr: []string{"CONV-02", `unknown feature "chat"`},
		},
		{
			name:    "unknown yaml field in an entry",
			data:    doc(entry("CONV-03", "core", "minlevel: 3")),
			wantErr: []string{"CONV-03", `unknown field "minlevel"`},
		},
		{
			name:    "unknown top-level yaml field",
			data:    []byte("requirement:\n" + entry("CONV-01", "core", "")),
			wantErr: []string{"requirement"},
		},
		{
			name:    "bad pending",
			data:    doc(entry("CONV-04", "core", "pending: issue-7")),
			wantErr: []string{"CONV-04", `unknown pending "issue-7"`},
		},
		{
			name:    "negative min_level",
			data:    doc(entry("VER-05", "core", "min_level: -1")),
			wantErr: []string{"VER-05", "negative min_level"},
		},
		{
			name:    "min_level of the wrong type",
			data:    doc(entry("VER-06", "core", "min_level: high")),
			wantErr: []string{"VER-06"},
		},
		{
			name:    "empty text",
			data:    doc("  - id: ERR-01\n    section: \"Errors\"\n    text: \" \"\n    feature: core\n"),
			wantErr: []string{"ERR-01", "empty text"},
		},
		{
			name:    "empty section",
			data:    doc("  - id: ERR-02\n    text: \"x\"\n    feature: core\n"),
			wantErr: []string{"ERR-02", "empty section"},
		},
		{
			name:    "all problems reported together",
			data:    doc(entry("CONV-01", "chat", ""), entry("CONV-02", "core", "pending: soon")),
			wantErr: []string{"CONV-01", "CONV-02"},
		},
		{
			name:    "no requirements",
			data:    []byte("requirements: []\n"),
			wantErr: []string{"no requirements"},
		},
		{
			name:    "empty document",
			data:    []byte(""),
			wantErr: []string{"empty document"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := Parse(tt.data)
			if len(tt.wantErr) == 0 {
				if err != nil {
					t.Fatalf("Parse: unexpected error: %v", err)
				}
				if c == nil || len(c.Requirements) == 0 {
					t.Fatalf("Parse: empty catalog")
				}
				return
			}
			if err == nil {
				t.Fatalf("Parse: want error containing %q, got none", tt.wantErr)
			}
			for _, want := range tt.wantErr {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("error %q does not contain %q", err, want)
				}
			}
		})
	}
}

func TestCatalogAccessors(t *testing.T) {
	c, err := Parse(doc(
		entry("CONV-01", "core", ""),
		entry("OP06-01", "messages", "pending: issue-4"),
		entry("OP06-02", "messages", "min_level: 334"),
	))
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(c.IDs(), ","); got != "CONV-01,OP06-01,OP06-02" {
		t.Errorf("IDs() = %s", got)
	}
	r, ok := c.Get("OP06-02")
	if !ok || r.MinLevel != 334 || r.Area() != "OP06" || r.IsPending() {
		t.Errorf("Get(OP06-02) = %+v, %v", r, ok)
	}
	if _, ok := c.Get("OP06-03"); ok {
		t.Error("Get(OP06-03) found an ID that is not in the catalog")
	}
	if p := c.Pending(); len(p) != 1 || p[0].ID != "OP06-01" {
		t.Errorf("Pending() = %+v", p)
	}
	if cov := c.Covered(); len(cov) != 2 {
		t.Errorf("Covered() = %+v", cov)
	}
	if a := c.InArea("OP06"); len(a) != 2 {
		t.Errorf("InArea(OP06) = %+v", a)
	}
	// A literal Catalog has no index; Get must still work.
	lit := &Catalog{Requirements: []Requirement{{ID: "ERR-01"}}}
	if !lit.Has("ERR-01") || lit.Has("ERR-02") {
		t.Error("Has on a literal Catalog")
	}
}

func TestEmbeddedCatalog(t *testing.T) {
	c, err := Load()
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	if n := len(c.Requirements); n <= 150 {
		t.Errorf("embedded catalog has %d entries, want > 150", n)
	}
	for op := 1; op <= 21; op++ {
		area := fmt.Sprintf("OP%02d", op)
		if len(c.InArea(area)) == 0 {
			t.Errorf("operation %s has no requirement", area)
		}
	}
	for _, area := range []string{"CONV", "MSG", "RES", "STATE", "AUTH", "EVENT", "ERR", "LIMIT", "VER"} {
		if len(c.InArea(area)) == 0 {
			t.Errorf("area %s has no requirement", area)
		}
	}
	if len(c.Covered()) == 0 {
		t.Error("no requirement is covered")
	}
	// IDs are numbered in document order within an area and new ones are appended,
	// so numbers must ascend in file order (gaps are allowed for retired IDs).
	last := map[string]int{}
	for _, r := range c.Requirements {
		n, err := strconv.Atoi(strings.TrimPrefix(r.ID, r.Area()+"-"))
		if err != nil {
			t.Fatalf("%s: %v", r.ID, err)
		}
		if n <= last[r.Area()] {
			t.Errorf("%s comes after %s-%02d in the file", r.ID, r.Area(), last[r.Area()])
		}
		last[r.Area()] = n
	}
}

func TestMustLoad(t *testing.T) {
	if c := MustLoad(); !c.Has("OP06-01") {
		t.Error("MustLoad: OP06-01 missing")
	}
}
