package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
)

// File names Write uses in the report directory.
const (
	JSONFile = "conformance.json"
	HTMLFile = "conformance.html"
	// JUnitFile is where a run writes WriteJUnit's report, beside them.
	JUnitFile = "junit.xml"
)

// Write writes both reports into dir (created if needed) as JSONFile and
// HTMLFile.
func Write(c *Conformance, dir string) error {
	if err := WriteJSON(c, filepath.Join(dir, JSONFile)); err != nil {
		return err
	}
	return WriteHTML(c, filepath.Join(dir, HTMLFile))
}

// WriteJSON writes the report as indented JSON to path, creating its
// directory.
func WriteJSON(c *Conformance, path string) error {
	b, err := json.MarshalIndent(c, "", "  ")
	if err != nil {
		return fmt.Errorf("report: encoding JSON: %w", err)
	}
	// Every report written is held to its published schema.
	if err := Validate(b); err != nil {
		return err
	}
	return writeFile(path, append(b, '\n'))
}

// WriteHTML writes the report as one self-contained HTML page to path,
// creating its directory.
func WriteHTML(c *Conformance, path string) error {
	var buf bytes.Buffer
	if err := renderHTML(&buf, c); err != nil {
		return fmt.Errorf("report: rendering HTML: %w", err)
	}
	return writeFile(path, buf.Bytes())
}

// writeFile replaces path atomically, so a reader (a CI step) never sees
// half a report.
func writeFile(path string, data []byte) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("report: creating %s: %w", dir, err)
	}
	tmp, err := os.CreateTemp(dir, filepath.Base(path)+".*.tmp")
	if err != nil {
		return fmt.Errorf("report: writing %s: %w", path, err)
	}
	defer os.Remove(tmp.Name()) // no-op once renamed
	_, err = tmp.Write(data)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(tmp.Name(), 0o644)
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		return fmt.Errorf("report: writing %s: %w", path, err)
	}
	return nil
}
