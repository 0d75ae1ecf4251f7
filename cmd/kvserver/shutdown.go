package main

import (
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/kvserver/kvserver/config"
	"github.com/kvserver/kvserver/logging"
	"github.com/kvserver/kvserver/server"
)

// awaitShutdown blocks until SIGTERM, SIGINT or SHUTDOWN, then stops the server and returns
// the exit code. The server stops accepting at once and closes its clients; a client still
// running a command (DEBUG SLEEP, a long KEYS) is waited for at most shutdown-timeout
// seconds. Past that the process exits all the same, with status 0 and a warning naming how
// many clients were still running, as Redis exits 0 when shutdown-timeout passes with lagging
// replicas; the keyspace's memory is then not freed (a running command may still touch it),
// which the exit does anyway. shutdown-timeout 0 does not wait. A second SIGTERM or SIGINT
// during the wait exits at once with status 1, as Redis's "You insist... exiting now."
func awaitShutdown(log *logging.Logger, cfg *config.Config, srv *server.Server, sigs <-chan os.Signal) int {
	for waiting := true; waiting; {
		select {
		case sig := <-sigs:
			log.Warn("Received " + signalName(sig) + " scheduling shutdown...")
			log.Warn("User requested shutdown...")
			if !signalShutdownSave(log, cfg, srv, sig) {
				continue
			}
			waiting = false
		case <-srv.Done():
			waiting = false
		}
	}
	srv.Shutdown()

	timeout := shutdownTimeout(cfg)
	stopped := make(chan struct{})
	go func() {
		srv.Wait()
		close(stopped)
	}()
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	select {
	case <-stopped:
		srv.Close()
	case <-timer.C:
		log.Warn(fmt.Sprintf("shutdown-timeout (%d seconds) passed with %d clients still running a command: exiting without waiting for them",
			int(timeout/time.Second), srv.ConnectedClients()))
		srv.Abandon() // a DEBUG SLEEP in progress ends: nothing waits on it any more
	case sig := <-sigs:
		log.Warn("Received " + signalName(sig) + " during shutdown: You insist... exiting now.")
		return 1
	}
	log.Warn("kvserver is now ready to exit, bye bye...")
	return 0
}

// signalShutdownSave makes the save a SIGTERM or SIGINT asks for (shutdown-on-sigterm,
// shutdown-on-sigint: default saves when save points exist; save, nosave, force) and reports
// whether the shutdown goes on. When the save fails without force the server goes on
// serving, as Redis's does.
func signalShutdownSave(log *logging.Logger, cfg *config.Config, srv *server.Server, sig os.Signal) bool {
	name := "shutdown-on-sigterm"
	if sig == syscall.SIGINT {
		name = "shutdown-on-sigint"
	}
	flags, _ := cfg.Value(name)
	has := func(f string) bool { return slices.Contains(strings.Fields(flags), f) }
	if !srv.ShouldSaveOnShutdown(has("save"), has("nosave")) {
		return true
	}
	if err := srv.ShutdownSave(); err != nil && !has("force") {
		log.Warn(signalName(sig) + " received but errors trying to shut down the server, check the logs for more information")
		return false
	}
	return true
}

// shutdownTimeout is shutdown-timeout, read when the shutdown begins (CONFIG SET changes it).
func shutdownTimeout(cfg *config.Config) time.Duration {
	v, _ := cfg.Value("shutdown-timeout")
	secs, err := strconv.ParseInt(v, 10, 64)
	if err != nil || secs < 0 {
		secs = 10 // Redis's default; the config table does not let a bad value through
	}
	return time.Duration(secs) * time.Second
}

// signalName is a signal as Redis names it in its log: SIGTERM, SIGINT.
func signalName(sig os.Signal) string {
	switch sig {
	case syscall.SIGTERM:
		return "SIGTERM"
	case syscall.SIGINT:
		return "SIGINT"
	}
	return sig.String()
}
