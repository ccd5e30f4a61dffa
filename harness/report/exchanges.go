package report

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"github.com/onsi/ginkgo/v2/types"

	"github.com/chatconform/chatconform/harness"
)

// ExchangesFile is where a run that records exchanges writes them, in the report directory.
const ExchangesFile = "exchanges.jsonl"

// SpecExchanges is one line of exchanges.jsonl: a spec, its outcome and every HTTP exchange
// it made, credentials redacted.
type SpecExchanges struct {
	Spec  string `json:"spec"`
	State string `json:"state"`
	// Reason is why a spec did not pass: its failure, or why it was skipped.
	Reason       string             `json:"reason,omitempty"`
	Requirements []string           `json:"requirements"`
	Exchanges    []harness.Exchange `json:"exchanges"`
}

// WriteExchanges writes one line per spec of the run, in the run's order.
func WriteExchanges(r types.Report, path string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	enc := json.NewEncoder(w)
	for _, s := range r.SpecReports {
		if s.LeafNodeType != types.NodeTypeIt {
			continue
		}
		line := SpecExchanges{Spec: s.FullText(), State: s.State.String(), Reason: harness.RedactText(strings.TrimSpace(s.Failure.Message)),
			Requirements: harness.ReqIDs(s.Labels()), Exchanges: harness.ExchangesOf(s.ReportEntries)}
		if err := enc.Encode(line); err != nil {
			f.Close()
			return err
		}
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// ReadExchanges reads an exchanges.jsonl file, by spec.
func ReadExchanges(path string) (map[string]SpecExchanges, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	out := map[string]SpecExchanges{}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for n := 1; sc.Scan(); n++ {
		var line SpecExchanges
		if err := json.Unmarshal(sc.Bytes(), &line); err != nil {
			return nil, fmt.Errorf("%s line %d: %w", path, n, err)
		}
		out[line.Spec] = line
	}
	return out, sc.Err()
}
