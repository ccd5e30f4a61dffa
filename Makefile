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

.PHONY: conformance test oldest-go unit suite suite-binary mutants mutants-sample docker-engine node chromium image fakeserver vet build bench load

conformance:
	$(GO) run ./cmd/chatconform

test: vet oldest-go docker-engine node chromium unit suite suite-binary mutants-sample

vet:
	$(GO) vet ./...

# The oldest Go the module says it supports (go.mod's go line, the newest its dependencies
# need) must build and vet it: a consumer's go line is never raised beyond what the code needs.
# The go command downloads that toolchain once.
OLDEST_GO := $(shell sed -n 's/^go //p' go.mod)
oldest-go:
	GOTOOLCHAIN=go$(OLDEST_GO) $(GO) vet ./...

build:
	$(GO) build ./...

# Everything but the conformance suite itself; includes the catalog coverage check.
unit:
	$(WITHOUT_SETTINGS) $(GO) test $$($(GO) list ./... | grep -v '/specs$$')

# The test runs ignore any chatconform setting exported in the caller's shell: `make test`
# always checks the fake, whatever target a developer was pointing the suite at.
WITHOUT_SETTINGS = env $$(env | sed -n 's/^\(CHATCONFORM_[A-Z_]*\)=.*/-u \1/p')

# The suite against an in-process fake, in parallel and in random order.
suite:
	$(WITHOUT_SETTINGS) CHATCONFORM_REPORT_DIR=$(CURDIR)/reports $(GINKGO) $(SUITE_FLAGS) ./specs

# The suite against the fake started as its own binary.
suite-binary:
	PROCS=$(PROCS) bash .ci/suite-against-binary

# The suite's strength (docs/mutation.md): the suite against every mutant (the fake with one
# documented rule broken; each must fail) and every benign variant (another choice the
# document leaves open; each must pass), $(PROCS) at once; the table goes to reports/mutants.md.
mutants:
	$(WITHOUT_SETTINGS) $(GO) run ./cmd/mutants -j $(PROCS)

# The fixed sample of make test, so that the harness cannot rot: about 20 mutants, each against
# the specs of its requirements, and 5 variants against the whole suite.
mutants-sample:
	$(WITHOUT_SETTINGS) $(GO) run ./cmd/mutants -sample -j $(PROCS) -out reports/mutants-sample

# A running Docker engine, for the container test among the unit tests.
docker-engine:
	bash .ci/ensure-docker-engine

# Node.js and npm, for the zulip-js end-to-end test among the unit tests.
node:
	bash .ci/ensure-node

# Headless Chromium, for the HTML report's browser test among the unit tests.
chromium:
	bash .ci/ensure-chromium

# The fake's container image, chatconform/fakeserver (FROM scratch: no registry needed).
# Both images, their binaries stamped with the version: chatconform/fakeserver and
# chatconform/runner (the runner takes the machine's CA certificates for HTTPS targets).
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
image:
	CGO_ENABLED=0 $(GO) build -ldflags "-X github.com/chatconform/chatconform/fakeserver/serve.Version=$(VERSION)" -o bin/fakeserver ./cmd/fakeserver
	CGO_ENABLED=0 $(GO) build -ldflags "-X github.com/chatconform/chatconform/harness.Version=$(VERSION)" -o bin/chatconform ./cmd/chatconform
	cp /etc/ssl/certs/ca-certificates.crt bin/ca-certificates.crt
	docker build --build-arg VERSION=$(VERSION) -t chatconform/fakeserver:$(VERSION) -t chatconform/fakeserver .
	docker build --build-arg VERSION=$(VERSION) -f Dockerfile.runner -t chatconform/runner:$(VERSION) -t chatconform/runner .

# Run the fake alone on 127.0.0.1:9991.
fakeserver:
	$(GO) run ./cmd/fakeserver

# Benchmarks of the fake beside a bare handler (README, "Performance"); about 15 s, building
# the 10^6-message realm of BenchmarkScale included.
bench:
	$(GO) test -run=NONE -bench=. -benchtime=2000x ./fakeserver/...

# A bounded load against the fake binary on loopback, beside a bare net/http server.
load:
	$(GO) run ./cmd/fakeload -messages 100000 -duration 2s
