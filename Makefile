# chatconform — see README.md. The two commands a fresh machine needs:
#   make conformance   the main job: the fake on its default fixture, and the suite against it
#   make test          every test: unit tests, catalog check, the suite in parallel and random
#                      order in-process, against the fake as a binary, and against its
#                      container image (a Docker engine is installed and started if missing)

GO      ?= go
GINKGO  := $(GO) tool ginkgo
# Parallel processes of the suite runs: one per core, but at least 2, so that every run
# proves the specs safe in parallel (plain `ginkgo -p` starts one per core less one, which on a
# two-core machine is no parallelism at all; more processes than cores only add start-up and
# contention). The level runs and .ci/suite-against-binary reuse it.
PROCS   ?= $(shell n=$$(nproc 2>/dev/null || echo 2); [ "$$n" -lt 2 ] && n=2; echo $$n)
SUITE_FLAGS ?= --procs=$(PROCS) --randomize-all --keep-going
# Whole runs of the runner at once (the level sweep, the mutants), and the unit run's test
# binaries at once: each waits on another program about as much as it works, so twice the
# cores keeps both busy. (Not the unit run's -parallel:
# Ginkgo refuses a go test -parallel flag in the packages that run its suites.)
RUNS    ?= $(shell echo $$(( $(PROCS) * 2 )))
# go test's bound on a test binary: it catches a hang, not a slow machine, so it stays far above
# a quiet run's time (minutes) for a machine several times busier.
TEST_TIMEOUT ?= 90m

.PHONY: help timings conformance test static engines lint race oldest-go unit suite suite-binary levels mutants mutants-sample docker-engine node chromium image fakeserver vet build bench load wrk

# Each target with the first sentence of the comment above it.
help:
	@awk '/^# / { c = c (c ? " " : "") substr($$0, 3); next } /^[a-z-]+:/ && c { sub(/:.*/, ""); n = index(c ". ", ". "); printf "  make %-15s %s\n", $$0, substr(c, 1, n) } { c = "" }' $(MAKEFILE_LIST)

# The main job: the suite against the fake on its embedded fixture.
conformance:
	$(GO) run -ldflags "-X github.com/chatconform/chatconform/harness.Version=$(VERSION)" ./cmd/chatconform

# Every test (the README's second command; .ci/run runs it on a clean clone). The static checks
# (CPU) and the engines' installs (network and disk, one apt at a time) run side by side, then
# the unit tests, which keep both cores busy alone. The later steps go two at a time, each
# target's output kept together: the race run, the level sweep and the suite's runs each wait
# on their fakes a good part of the time, which the other fills. Each step's time is printed
# after it, so that a slow run shows where it went. (All of them at once, three at a time,
# took longer: the unit run's container and consumer tests, which wait on Docker and Node.js,
# then got a sixth of a core each and ended minutes after the rest.)
test:
	@$(call timed,$(MAKE) --no-print-directory -j2 --output-sync=target static engines,static and engines)
	@$(call timed,$(MAKE) --no-print-directory unit,unit)
	@$(call timed,$(MAKE) --no-print-directory -j2 --output-sync=target race levels,race and levels)
	@$(call timed,$(MAKE) --no-print-directory -j2 --output-sync=target suite suite-binary mutants-sample,suite and mutants)

# timed runs a command and prints how long it took: $(call timed,command,name).
timed = start=$$(date +%s); $(1) && echo "make test: $(2) took $$(( $$(date +%s) - start )) s"

# The static checks: the linters, vet's passes among them. Neither go vet nor oldest-go runs
# here as well: lint runs vet's passes, stdversion among them, which checks every use of the
# standard library against go.mod's go line, as the compiler holds the language to it; each of
# the two would only compile the module once more (oldest-go with a toolchain of its own, from
# an empty cache on a fresh machine: minutes of make test for a patch release's difference).
static: lint

# The engines some unit tests need, installed one after another (apt takes one at a time).
engines:
	$(MAKE) --no-print-directory docker-engine node chromium

# go vet over the whole module.
vet:
	$(GO) vet ./...

# The linters (.ci/lint/golangci.yml): vet, staticcheck, errorlint, misspell, unused, errcheck and gofmt.
# golangci-lint is pinned as a Go tool in a module of its own (.ci/lint/go.mod), so that its
# two hundred modules stay out of the graph of anyone who imports the fake or the harness.
# Another lint run on the machine (a second clone's make test) is waited for, not failed on.
lint:
	$(GO) tool -modfile=.ci/lint/go.mod golangci-lint run --allow-serial-runners --config .ci/lint/golangci.yml ./...

# The fake and the harness under the race detector: both serve and send concurrently.
# -short leaves out the tests that start other programs (the container, a consumer module, Chromium),
# which the unit run covers and which add nothing for the detector.
# RACE_BULK are long tests that run one thing at a time (the bad-input table, the fake's longest
# single-threaded tables, the property tests of the parsers and indexes, the OpenAPI check's
# tables and its walk of every described path, and the harness's specs run in Ginkgo one after
# another; each 10 s to three minutes under the detector): the detector finds nothing in them
# that the unit run does not check, so they run there only.
race:
	$(WITHOUT_SETTINGS) $(GO) test -race -short -timeout $(TEST_TIMEOUT) -skip '$(RACE_SKIP)' $(RACE_PKGS)
RACE_PKGS = ./fakeserver/... ./harness/...
RACE_BULK = TestBadInput TestBotStorage TestPasswordChange TestRealmSettings TestEmailChange \
	TestCreateBotServices TestKeptItemsAreBounded TestUpdateSettingsEachSetting TestOversizedBody \
	TestRouteTableCoversRouter TestRoutesByLevel TestParseErrors TestCompilePattern \
	TestNarrowedFetchesEqualAScan TestIDListMatchesASortedSlice TestCostPerByte \
	TestExchanges TestEvents TestFakeAnswersAgreeWithDescription TestInGinkgo
RACE_SKIP = ^($(subst $(space),|,$(strip $(RACE_BULK))))$$
space := $(subst ,, )

OLDEST_GO := $(shell sed -n 's/^go //p' go.mod)
# Vet with the oldest Go the module claims (go.mod's go line, the newest its dependencies need):
# a consumer's go line is never raised beyond what the code needs. The go command downloads that
# toolchain once. Not part of make test (see static); worth running when the go line is lowered.
oldest-go:
	GOTOOLCHAIN=go$(OLDEST_GO) $(GO) vet ./...

# Build every package.
build:
	$(GO) build ./...

# Everything but the conformance suite itself; includes the catalog coverage check. The suite
# at older levels is make levels' work. $(RUNS) test binaries at once, not go test's one per
# core: the longest (the container's, Chromium's, the runner's whole runs) wait on another
# program most of their time, and with one per core they would hold both cores' turns while
# waiting.
unit:
	$(WITHOUT_SETTINGS) $(GO) test -p $(RUNS) -timeout $(TEST_TIMEOUT) -skip '^TestSuiteAtOlderLevels$$' $$($(GO) list ./... | grep -v '/specs$$')

# The test runs ignore any chatconform setting exported in the caller's shell: `make test`
# always checks the fake, whatever target a developer was pointing the suite at.
WITHOUT_SETTINGS = env $$(env | sed -n 's/^\(CHATCONFORM_[A-Z_]*\)=.*/-u \1/p')

# The suite against an in-process fake, in parallel and in random order.
suite:
	$(WITHOUT_SETTINGS) CHATCONFORM_REPORT_DIR=$(CURDIR)/reports $(GINKGO) $(SUITE_FLAGS) ./specs

# The suite against the fake started as its own binary.
suite-binary:
	PROCS=$(PROCS) bash .ci/suite-against-binary

# The suite against the fake at older feature levels (docs/feature-levels.md): the whole suite at
# the sample levels, and at every other boundary, the catalog's and the fake's, and the level
# below each, the specs of the requirements that change there (the catalog's levels and
# specs/verdicts/level_gates.yaml say which). Each requirement it checks passes, or is not
# applicable where it belongs to a later level. The runner is built once; $(RUNS) levels run at
# once, each against a fake of its own.
levels:
	$(WITHOUT_SETTINGS) $(GO) test -count=1 -v -run '^TestSuiteAtOlderLevels$$' -parallel $(RUNS) -timeout $(TEST_TIMEOUT) ./specs/verdicts -args -every-boundary

# The suite's strength (docs/mutation.md): the suite against every mutant (the fake with one
# documented rule broken; each must fail) and every benign variant (another choice the
# document leaves open; each must pass), $(RUNS) at once; the table goes to reports/mutants.md.
# Then the explore column (docs/explore.md): chatconform explore alone against each entry, from
# a fixed seed, bounded in steps (4 sequences of at most 150), in reports/mutants-explore.md.
mutants:
	$(WITHOUT_SETTINGS) $(GO) run ./cmd/mutants -j $(RUNS)
	$(WITHOUT_SETTINGS) $(GO) run ./cmd/mutants -explore-sequences 4 -j $(RUNS)

# The fixed sample of make test, so that the harness cannot rot: about 20 mutants, each against
# the specs of its requirements, and 5 variants against the whole suite.
mutants-sample:
	$(WITHOUT_SETTINGS) $(GO) run ./cmd/mutants -sample -j $(RUNS) -out reports/mutants-sample

# A running Docker engine, for the container test among the unit tests.
docker-engine:
	bash .ci/ensure-docker-engine

# Node.js and npm, for the zulip-js end-to-end test among the unit tests.
node:
	bash .ci/ensure-node

# Headless Chromium, for the HTML report's browser test among the unit tests.
chromium:
	bash .ci/ensure-chromium

VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
# Both images, chatconform/fakeserver and chatconform/runner, tagged latest and version-stamped.
# Each Dockerfile builds its binaries itself (`docker build -f Dockerfile.runner .` works alone);
# .ci/go-builder-image names the build stage's Go image, so that no registry is needed here.
image:
	go_image=$$(bash .ci/go-builder-image) && \
	docker build --build-arg GO_IMAGE=$$go_image --build-arg VERSION=$(VERSION) -t chatconform/fakeserver:$(VERSION) -t chatconform/fakeserver . && \
	docker build --build-arg GO_IMAGE=$$go_image --build-arg VERSION=$(VERSION) -f Dockerfile.runner -t chatconform/runner:$(VERSION) -t chatconform/runner .

# Run the fake alone on 127.0.0.1:9991.
fakeserver:
	$(GO) run ./cmd/fakeserver

# Benchmarks of the fake beside a bare handler (docs/performance.md), then the writes that
# touch many messages at 10^3 to 10^6 messages (fewer rounds: each round prepares its topic
# from the realm's oldest messages).
bench:
	$(GO) test -run=NONE -bench='Routes|Scale$$' -benchtime=2000x ./fakeserver/...
	$(GO) test -run=NONE -bench=ScaleWrites -benchtime=200x ./fakeserver/
	$(GO) test -run=NONE -bench=NewTestServer -benchmem -count=5 ./fakeserver/
	$(GO) test -run=NONE -bench=HeapHTTP -benchtime=1x ./fakeserver/

# A bounded load against the fake binary on loopback, beside a bare net/http server, driven by
# wrk (installed if missing) pinned to one core and the servers to the other; it fails when wrk,
# not the bare server, sets the pace.
load: wrk
	$(GO) run ./cmd/fakeload -messages 100000 -duration 2s -rounds 3

# The README's times of make conformance and make test, measured on this tree and written into
# README.md (.ci/timings); run it on a quiet machine. With an empty build cache, as on a fresh
# machine; CACHE=warm keeps the machine's own, as a CI runner that keeps one has it.
timings:
	bash .ci/timings

# wrk, make load's load generator, and taskset, which pins it.
wrk:
	bash .ci/ensure-wrk
