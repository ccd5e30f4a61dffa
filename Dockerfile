# The fake server as a container image: a static binary on an empty base, so the image builds
# without any registry and starts in milliseconds. `make image` builds the binary, then this.
#
#   docker run --rm -p 127.0.0.1:9991:9991 -e CHATCONFORM_CONTROL_TOKEN=my-token chatconform/fakeserver
FROM scratch
COPY bin/fakeserver /fakeserver
EXPOSE 9991
ENTRYPOINT ["/fakeserver", "-addr", "0.0.0.0:9991"]
