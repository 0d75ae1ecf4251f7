# kvserver — `make run` starts the server on embedded defaults, `make test` runs every test.
# Both install what is missing first (scripts/deps.sh).
GO ?= go
BIN := bin/kvserver
# make run PORT=7000 ARGS="--loglevel verbose": the port, and further --directive value pairs.
# (A config file would have to come before --port: run bin/kvserver kvserver.conf for one.)
PORT ?= 6379
ARGS ?=
# Packages with goroutines or shared state, run again under the race detector (which also
# selects alloc's Go-heap backend: the detector cannot see memory outside the Go heap).
RACE_PKGS := ./alloc/... ./sds/... ./object/... ./htable/... ./hashval/... ./setval/... ./quicklist/... ./listval/... ./zsetval/... ./geo/... ./keyspace/... ./querybuf/... ./resp/... ./glob/... ./config/... ./command/... ./family/... ./conv/... ./logging/... ./evict/... ./stats/... ./slowlog/... ./latency/... ./info/... ./pubsub/... ./server/...

.PHONY: all deps build run test test-unit test-race test-invariants test-e2e-race vet bench clean

all: build

deps:
	@scripts/deps.sh

build:
	$(GO) build -o $(BIN) ./cmd/kvserver

run: deps build
	./$(BIN) --port $(PORT) $(ARGS)

vet:
	$(GO) vet ./...
	@test -z "$$(gofmt -l $$(git ls-files '*.go'))" || { gofmt -l $$(git ls-files '*.go'); echo "gofmt: files above need formatting"; exit 1; }

test-unit:
	$(GO) test -count=1 ./...

# The invariants build: the allocator's poisoned frees, double-free and size-mismatch panics, and
# the pipeline's check that a handler reaches only the shards its row made it lock.
test-invariants:
	$(GO) test -count=1 -tags invariants ./alloc/... ./sds/... ./listpack/... ./intset/... ./quicklist/... ./object/... ./htable/... ./hashval/... ./setval/... ./listval/... ./zindex/... ./zsetval/... ./rdb/... ./persist/... ./keyspace/... ./evict/... ./command/... ./family/...

test-race:
	$(GO) test -count=1 -race $(RACE_PKGS)

# The end-to-end tests again, against a kvserver built with the race detector: the server's
# goroutines (clients, cron, readiness loops) under real clients.
test-e2e-race:
	KVSERVER_BUILD_FLAGS=-race $(GO) test -count=1 ./tests/

test: deps build vet test-unit test-invariants test-race test-e2e-race

bench: build
	@scripts/deps.sh --bench
	bench/run.sh

clean:
	rm -rf bin
