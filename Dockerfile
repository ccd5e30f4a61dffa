# The fake server as a container image: a static binary on an empty base, so it starts in
# milliseconds. Built from the sources alone (`docker build .`, or `make image` for both images
# with the version stamped). It listens on 0.0.0.0 inside the container, where its control API
# needs a token; publish the port on the loopback address only:
#
#   docker run --rm -p 127.0.0.1:9991:9991 -e CHATCONFORM_CONTROL_TOKEN=my-token chatconform/fakeserver
#
# A fixture of your own is mounted and named after the image:
#
#   docker run --rm -p 127.0.0.1:9991:9991 -v "$PWD/realm.yaml:/fixtures/realm.yaml:ro" \
#     chatconform/fakeserver -fixture /fixtures/realm.yaml

# The build stage is the same, word for word, in Dockerfile.runner: building the second image
# reuses every layer of the first instead of compiling again.
ARG GO_IMAGE=golang:1.26
# The packages the two binaries take from outside the module (the standard library's follow).
FROM ${GO_IMAGE} AS deps
# Names the stages' images, which the image test prunes when a later run has replaced them.
LABEL org.chatconform.stage=build
ENV CGO_ENABLED=0
# Where modules come from (the go command's default when empty).
ARG GOPROXY
WORKDIR /src
COPY . .
RUN go list -deps -f '{{if not (or .Standard (and .Module .Module.Main))}}{{.ImportPath}}{{end}}' \
      ./cmd/fakeserver ./cmd/chatconform > /deps

FROM ${GO_IMAGE} AS build
LABEL org.chatconform.stage=build
ENV CGO_ENABLED=0
ARG GOPROXY
WORKDIR /src
# Those packages compiled in a layer of their own, kept while go.mod, go.sum and the list stay
# the same: a change to the module's sources compiles the module's packages, not every one.
COPY go.mod go.sum ./
COPY --from=deps /deps /deps
# (Read by the shell itself: the build stage may have no cat or xargs.)
RUN set --; while read -r p; do [ -z "$p" ] || set -- "$@" "$p"; done < /deps; go build -trimpath "$@"
COPY . .
ARG VERSION=dev
# Each image's root as a directory, so that one COPY keeps every mode (a world-writable /reports).
RUN go build -trimpath -ldflags "-X github.com/chatconform/chatconform/fakeserver/serve.Version=${VERSION}" \
      -o /out/fakeserver/fakeserver ./cmd/fakeserver && \
    go build -trimpath -ldflags "-X github.com/chatconform/chatconform/harness.Version=${VERSION}" \
      -o /out/runner/chatconform ./cmd/chatconform && \
    mkdir -p /out/runner/etc/ssl/certs && cp /etc/ssl/certs/ca-certificates.crt /out/runner/etc/ssl/certs/ && \
    mkdir -m 1777 /out/runner/reports

FROM scratch
ARG VERSION=dev
LABEL org.opencontainers.image.title="chatconform fake server" \
      org.opencontainers.image.description="The reference fake of the chatconform conformance suite: an in-memory team chat API server" \
      org.opencontainers.image.source="https://github.com/chatconform/chatconform" \
      org.opencontainers.image.licenses="Apache-2.0" \
      org.opencontainers.image.version="${VERSION}"
COPY --from=build /out/fakeserver/ /
# No root: the fake needs no privilege (65532 is the conventional unprivileged "nonroot").
USER 65532:65532
EXPOSE 9991
# The image has no shell: the binary checks itself. Every 2 s (Docker 20.10, the engine the
# project installs, has no --start-interval), so the container is healthy about 2 s after start.
HEALTHCHECK --interval=2s --timeout=2s --start-period=1s --retries=3 CMD ["/fakeserver", "-healthcheck", "-addr", "0.0.0.0:9991"]
ENTRYPOINT ["/fakeserver", "-addr", "0.0.0.0:9991"]
