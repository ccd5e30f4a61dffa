// Package specs is the chatconform conformance suite: Ginkgo specs that turn every rule of
// the chat API document into an executable check against a target server.
//
// The specs live in ordinary (non-test) files so the suite is a library: `go test ./specs`
// and `go tool ginkgo -p ./specs` run it, and cmd/chatconform runs it as a single binary.
// Each spec names the requirement IDs it checks (harness.Req); specs/catalog holds them.
//
// The target is configured through harness settings (flags, environment, YAML file). With
// no URL, the suite starts the reference fake in-process on its default fixture.
package specs

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/chatconform/chatconform/fakeserver"
	"github.com/chatconform/chatconform/fixtures"
	"github.com/chatconform/chatconform/harness"
	"github.com/chatconform/chatconform/harness/report"
	"github.com/chatconform/chatconform/specs/catalog"
)

func init() { harness.BindFlags(flag.CommandLine) }

// SuiteName names the suite in Ginkgo's output and reports.
const SuiteName = "chatconform conformance"

// Run runs the suite; t is the *testing.T of a Go test, or any GinkgoTestingT for a binary.
func Run(t GinkgoTestingT) bool {
	RegisterFailHandler(harness.RedactingFail) // ginkgo.Fail, with credentials redacted
	return RunSpecs(t, SuiteName)
}

// inProcess is the fake started when no target URL is configured (process 1 only).
var inProcess *fakeserver.TestServer

// prepared is the target Prepare set up, encoded; nil when the suite sets it up itself.
var (
	prepared    []byte
	lastReport  *report.Conformance
	lastReportM sync.Mutex
)

// Prepare sets the target up before the suite runs, as the suite's first node otherwise does:
// it starts the in-process fake when no URL is configured, connects and provisions the cast.
// A runner calls it so that a setup failure is one error, and its exit status, rather than a
// failed suite; the setup's exchanges are not shown. Call it once, in the process that runs
// the suite.
func Prepare() error {
	cfg, err := harness.ResolveConfig()
	if err != nil {
		return err
	}
	encoded, err := setUp(cfg, io.Discard)
	if err != nil {
		if inProcess != nil {
			inProcess.Close()
			inProcess = nil
		}
		return err
	}
	prepared = encoded
	return nil
}

// setUp starts the in-process fake when cfg has no URL, and connects to the target.
func setUp(cfg harness.Config, log io.Writer) ([]byte, error) {
	if cfg.UsesFake() {
		inProcess = fakeserver.NewTestServer()
		owner, _ := inProcess.Server.Fixture().UserByRole(fixtures.RoleOwner)
		cfg.URL = inProcess.URL
		cfg.Owner = harness.Credentials{Email: owner.Email, APIKey: owner.APIKey}
	}
	target, err := harness.ConnectLogging(cfg, log)
	if err != nil {
		return nil, err
	}
	return target.Encode(), nil
}

// LastReport is the conformance report of the run that ended last in this process, nil before.
func LastReport() *report.Conformance {
	lastReportM.Lock()
	defer lastReportM.Unlock()
	return lastReport
}

var _ = SynchronizedBeforeSuite(func() []byte {
	if prepared != nil {
		return prepared
	}
	cfg, err := harness.ResolveConfig()
	Expect(err).NotTo(HaveOccurred(), "configuration")
	// The exchanges of the setup go to the GinkgoWriter, as a spec's do.
	encoded, err := setUp(cfg, nil)
	Expect(err).NotTo(HaveOccurred(), "connecting to the target %s", cfg.URL)
	return encoded
}, func(encoded []byte) {
	target, err := harness.DecodeTarget(encoded)
	Expect(err).NotTo(HaveOccurred())
	harness.SetCurrent(target)
})

// Every spec takes the next accounts of the persistent cast, so that no account needs more
// requests in a run than the real server's rate limit allows (docs/footprint.md).
var _ = BeforeEach(func() {
	harness.TakeExchanges() // what came before the spec (another spec's cleanup) is not the spec's
	harness.Current().NextCast()
})

// A spec's exchanges, structured, go into its report where the reports show them: a failed
// spec's, or every spec's when the run records them for chatconform diff.
var _ = AfterEach(func() {
	exchanges := harness.TakeExchanges()
	if len(exchanges) > 0 && (CurrentSpecReport().Failed() || harness.Current().Config.RecordExchanges) {
		AddReportEntry(harness.ExchangesEntry, ReportEntryVisibilityNever, exchanges)
	}
})

// The runner's console prints the first failed spec of each finding in full and the others on
// one line; it learns of each spec here, just before Ginkgo's reporter prints it.
var _ = ReportAfterEach(func(r SpecReport) { report.ConsoleAdd(r) })

var _ = SynchronizedAfterSuite(func() {
	if target, ok := harness.TryCurrent(); ok {
		Expect(target.TeardownProcess()).To(Succeed(), "archiving this process's shared channel")
	}
}, func() {
	// What the run made for itself alone goes when every process is done (docs/footprint.md).
	if target, ok := harness.TryCurrent(); ok {
		Expect(target.Teardown()).To(Succeed(), "deactivating the run's bot")
	}
	if inProcess != nil {
		inProcess.Close()
	}
})

// The conformance report: per requirement, from the specs that name it. It also enforces the
// catalog: an unknown ID, or a requirement that is neither covered nor pending, fails the run.
var _ = ReportAfterSuite("conformance report", func(r Report) {
	cat, err := catalog.Load()
	Expect(err).NotTo(HaveOccurred())
	// The target is missing when setup failed; the report then records that failure.
	target, _ := harness.TryCurrent()
	conf := report.Build(cat, r, target)
	lastReportM.Lock()
	lastReport = conf
	lastReportM.Unlock()
	dir := reportDir(target)
	Expect(report.Write(conf, dir)).To(Succeed())
	Expect(report.WriteJUnit(r, filepath.Join(dir, "junit.xml"))).To(Succeed())
	if target != nil && target.Config.RecordExchanges {
		Expect(report.WriteExchanges(r, filepath.Join(dir, report.ExchangesFile))).To(Succeed())
	}
	fmt.Fprint(os.Stdout, report.Summary(conf))
	if abs, err := filepath.Abs(dir); err == nil {
		dir = abs
	}
	fmt.Fprintf(os.Stdout, "reports: %s (conformance.json, conformance.html, junit.xml)\n\n", dir)
	Expect(report.CheckCoverage(cat, r.SpecReports)).To(Succeed())
})

// reportDir is where the reports go: the target's setting, or, when setup failed before a
// target existed, the configured one, so a failed run still reports where it was asked to.
func reportDir(target *harness.Target) string {
	if target != nil {
		return target.ReportDir()
	}
	if cfg, err := harness.ResolveConfig(); err == nil && cfg.ReportDir != "" {
		return cfg.ReportDir
	}
	return "reports"
}
