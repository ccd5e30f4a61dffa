package explore

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/chatconform/chatconform/harness"
	"github.com/chatconform/chatconform/harness/report"
)

// ReportFile is the explorer's machine-readable report in the report directory; each
// finding's replay file and curl script go next to it, under FindingsDir.
const (
	ReportFile  = "explore.json"
	FindingsDir = "explore"
)

// Report is what explore.json holds.
type Report struct {
	Kind string `json:"kind"`
	// Target describes the server explored, credentials redacted, as the suite's report does.
	Target report.Target `json:"target"`
	Seed   uint64        `json:"seed"`
	Steps  int           `json:"steps_per_sequence"`
	Budget string        `json:"budget"`
	Result Result        `json:"result"`
	// Requirements are those the findings are attributed to.
	Requirements []string `json:"requirements"`
}

// Write writes explore.json, and for each finding a replay file (X01.json) and a curl script
// (X01.sh) into dir/explore, and returns the paths of the replay files by finding ID.
func Write(dir string, t *harness.Target, opts Options, res Result) (map[string]string, error) {
	fdir := filepath.Join(dir, FindingsDir)
	if err := os.MkdirAll(fdir, 0o755); err != nil {
		return nil, err
	}
	paths := map[string]string{}
	for _, f := range res.Findings {
		base := filepath.Join(fdir, f.ID)
		fc := f
		if err := WriteScript(base+".json", Script{Seed: f.Seed, Level: t.FeatureLevel, Steps: f.Steps, Finding: &fc}); err != nil {
			return nil, err
		}
		if err := os.WriteFile(base+".sh", []byte(CurlScript(f, t)), 0o755); err != nil {
			return nil, err
		}
		paths[f.ID] = base + ".json"
	}
	data, err := json.MarshalIndent(Report{Kind: "ExploreReport", Target: report.TargetFrom(t), Seed: opts.Seed, Steps: opts.Steps,
		Budget: opts.Budget.String(), Result: res, Requirements: requirementsOf(res.Findings)}, "", "  ")
	if err != nil {
		return nil, err
	}
	return paths, os.WriteFile(filepath.Join(dir, ReportFile), append(data, '\n'), 0o644)
}

// CurlScript is a finding's sequence as the target received it, one curl command per step.
// The IDs are those of that run on that target; credentials come from variables named after
// each actor (OWNER_EMAIL, OWNER_API_KEY, …), never from the script.
func CurlScript(f Finding, t *harness.Target) string {
	var b strings.Builder
	fmt.Fprintf(&b, "#!/bin/sh\n# chatconform explore, finding %s: %s %s differs (requirements %s)\n",
		f.ID, f.Difference.Reply, f.Difference.Path, strings.Join(f.Requirements, ", "))
	fmt.Fprintf(&b, "# target: %s, reference: %s (as the %s read it)\n", f.Difference.Target, f.Difference.Reference, f.Difference.Actor)
	b.WriteString("# The requests of the minimal sequence as the target received them: the IDs are that run's.\n")
	b.WriteString("# To replay the sequence afresh against any server: chatconform explore --replay " + f.ID + ".json --url URL …\n")
	b.WriteString("# Set URL and, for each actor below, <ACTOR>_EMAIL and <ACTOR>_API_KEY.\n")
	fmt.Fprintf(&b, ": \"${URL:=%s}\"\n", t.URL)
	for _, ex := range f.Requests {
		v := strings.ToUpper(ex.Actor)
		args := []string{"curl", "-sS", "-X", ex.Method}
		if ex.Actor != "anonymous" {
			args = append(args, "-u", fmt.Sprintf(`"$%s_EMAIL:$%s_API_KEY"`, v, v))
		}
		if ex.Body != "" {
			args = append(args, "--data", shellQuote(ex.Body))
		}
		for _, f := range ex.Form {
			if name, ok := strings.CutPrefix(f, "file=@"); ok { // the file the run uploaded, made afresh
				fmt.Fprintf(&b, "printf 'chatconform explore: %%s\\n' %s > %s\n", shellQuote(name), shellQuote(name))
			}
			args = append(args, "-F", shellQuote(f))
		}
		args = append(args, `"$URL"`+shellQuote(ex.URL))
		fmt.Fprintf(&b, "%s\necho\n", strings.Join(args, " "))
	}
	return b.String()
}

func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// Print writes the findings for a person: one paragraph each, with the replay command.
func Print(w io.Writer, res Result, replays map[string]string) {
	fmt.Fprintf(w, "explore: %d sequences, %d steps (%d succeeded on the reference) in %.0fs from seed %d: ", res.Sequences, res.Steps, res.Succeeded, res.Seconds, res.Seed)
	if len(res.Findings) == 0 {
		fmt.Fprintln(w, "no difference from the reference")
	} else {
		fmt.Fprintf(w, "%d differences from the reference\n", len(res.Findings))
	}
	for _, f := range res.Findings {
		fmt.Fprintf(w, "\n%s", findingText(f, replays[f.ID]))
	}
	for _, g := range res.Gaps {
		fmt.Fprintf(w, "explore: the field table has no row for %s (not compared)\n", g)
	}
}

// findingText is a finding for a person: the answer, the field and its requirements, both
// sides' values, the steps and, when it was written, the replay file and curl script.
func findingText(f Finding, replay string) string {
	var b strings.Builder
	d := f.Difference
	fmt.Fprintf(&b, "%s  %s %s  [%s]\n", f.ID, d.Reply, d.Path, strings.Join(f.Requirements, ", "))
	fmt.Fprintf(&b, "    as the %s: target %s\n    reference %s\n", d.Actor, d.Target, d.Reference)
	fmt.Fprintf(&b, "    after %d steps:\n", len(f.Steps))
	for i, st := range f.Steps {
		fmt.Fprintf(&b, "      %d. %s as %s: %s %s %s\n", i+1, st.Op, st.Actor, st.Method, st.Path, paramsText(st.Params))
	}
	if replay != "" {
		fmt.Fprintf(&b, "    replay: chatconform explore --replay %s (curl: %s)\n", replay, strings.TrimSuffix(replay, ".json")+".sh")
	}
	return b.String()
}

func paramsText(p map[string]string) string {
	if len(p) == 0 {
		return ""
	}
	data, _ := json.Marshal(p)
	return clip(string(data), 300)
}
