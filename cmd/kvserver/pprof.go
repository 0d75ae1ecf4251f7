package main

import (
	"net"
	"net/http"
	_ "net/http/pprof" // registers /debug/pprof on the default mux, served only on request
	"os"
	"runtime"
	"strconv"

	"go.uber.org/zap"
)

// startProfiling serves Go's pprof endpoints on KVSERVER_PPROF_ADDR (e.g. 127.0.0.1:6060)
// when that variable is set: CPU and heap profiles of a running server, for performance work.
// It is an environment variable, not a directive, so that CONFIG and redis.conf stay Redis's.
func startProfiling(log *zap.Logger) {
	addr := os.Getenv("KVSERVER_PPROF_ADDR")
	if addr == "" {
		return
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		log.Warn("cannot serve pprof", zap.String("addr", addr), zap.Error(err))
		return
	}
	// Every allocation sampled: exact heap profiles, at a cost only profiling runs pay (the
	// profile's records live outside the heap). KVSERVER_PPROF_MEMRATE=0 keeps Go's default,
	// for memory figures undisturbed by the profiler.
	runtime.MemProfileRate = 1
	if rate, err := strconv.Atoi(os.Getenv("KVSERVER_PPROF_MEMRATE")); err == nil {
		if rate == 0 {
			rate = 512 * 1024
		}
		runtime.MemProfileRate = rate
	}
	log.Info("serving pprof", zap.String("addr", ln.Addr().String()))
	go func() { _ = http.Serve(ln, nil) }()
}
