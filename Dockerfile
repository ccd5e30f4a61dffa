# The fake server as a container image: a static binary on an empty base, so the image builds
# without any registry and starts in milliseconds. `make image` builds the binary (its version
# stamped), then this. It listens on 0.0.0.0 inside the container, where its control API needs
# a token; publish the port on the loopback address only:
#
#   docker run --rm -p 127.0.0.1:9991:9991 -e CHATCONFORM_CONTROL_TOKEN=my-token chatconform/fakeserver
#
# A fixture of your own is mounted and named after the image:
#
#   docker run --rm -p 127.0.0.1:9991:9991 -v "$PWD/realm.yaml:/fixtures/realm.yaml:ro" \
#     chatconform/fakeserver -fixture /fixtures/realm.yaml
FROM scratch
ARG VERSION=dev
LABEL org.opencontainers.image.title="chatconform fake server" \
      org.opencontainers.image.description="The reference fake of the chatconform conformance suite: an in-memory team chat API server" \
      org.opencontainers.image.source="https://github.com/chatconform/chatconform" \
      org.opencontainers.image.licenses="Apache-2.0" \
      org.opencontainers.image.version="${VERSION}"
COPY bin/fakeserver /fakeserver
# No root: the fake needs no privilege (65532 is the conventional unprivileged "nonroot").
USER 65532:65532
EXPOSE 9991
# The image has no shell: the binary checks itself. Every 2 s (Docker 20.10, the engine the
# project installs, has no --start-interval), so the container is healthy about 2 s after start.
HEALTHCHECK --interval=2s --timeout=2s --start-period=1s --retries=3 CMD ["/fakeserver", "-healthcheck", "-addr", "0.0.0.0:9991"]
ENTRYPOINT ["/fakeserver", "-addr", "0.0.0.0:9991"]
