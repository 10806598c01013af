# selfplay as a container image: a static binary (no cgo: the SQLite driver
# is pure Go), run as a non-root user. Used by deploy/k8s.
#
#   docker build -t selfplay .
#
# Build stage: the same go build as the README's "Running on a cluster".
FROM golang:1.25-bookworm AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
RUN CGO_ENABLED=0 go build -trimpath -o selfplay ./cmd/selfplay

# Run stage: busybox for the shell and cp of the Job's script (databases
# are written on the pod's local disk and copied to the volume when done).
FROM busybox:1.36.1
COPY --from=build /src/selfplay /usr/local/bin/selfplay
USER 65532:65532
WORKDIR /work
ENTRYPOINT ["/usr/local/bin/selfplay"]
