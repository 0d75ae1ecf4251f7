package main

import (
	"net"
	"net/http"
	_ "net/http/pprof" // registers /debug/pprof on the default mux, served only on request
	"os"
	"runtime"

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
	// Every allocation sampled: exact heap profiles, at a cost only profiling runs pay.
	runtime.MemProfileRate = 1
	log.Info("serving pprof", zap.String("addr", ln.Addr().String()))
	go func() { _ = http.Serve(ln, nil) }()
}
