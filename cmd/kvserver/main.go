// Command kvserver runs the kvserver daemon. Arguments are redis-server's: an optional config
// file, then --directive value… pairs (`kvserver --port 7000 --save ""`).
//
// A start-up failure (a bad configuration, a directory or log file that cannot be used, a
// port in use) exits with status 1 after saying why on standard error: the configuration's
// errors as redis-server's FATAL CONFIG FILE ERROR block, every other one as one line (also
// written to the log file when there is one), never a stack trace.
package main

import (
	"errors"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"

	"go.uber.org/zap"

	"github.com/kvserver/kvserver/config"
	"github.com/kvserver/kvserver/logging"
	"github.com/kvserver/kvserver/server"
)

func main() { os.Exit(run(os.Args[1:])) }

// run starts the server and blocks until SIGTERM, SIGINT or SHUTDOWN; it returns the exit code.
func run(args []string) int {
	cfgFile, directives, err := config.ParseArgs(args)
	cfg := config.New()
	switch {
	case errors.Is(err, config.ErrHelp):
		fmt.Printf("Usage: kvserver [/path/to/redis.conf] [--directive value ...]\n\n"+
			"Examples:\n  kvserver --port 7777\n  kvserver /etc/redis/6379.conf --loglevel verbose\n\n%s",
			cfg.HelpText())
		return 0
	case errors.Is(err, config.ErrVersion):
		fmt.Printf("kvserver v=%s redis_version=%s\n", server.Version, server.RedisVersion)
		return 0
	case err != nil:
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	if cfgFile != "" {
		if abs, aerr := filepath.Abs(cfgFile); aerr == nil {
			cfgFile = abs
		}
		err = cfg.LoadFile(cfgFile, directives)
	} else {
		err = cfg.Load(directives)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	if cfg.Daemonize() {
		fmt.Fprintln(os.Stderr, "kvserver does not daemonize itself: set 'daemonize no' and run it in the foreground under a supervisor such as systemd (see scripts/kvserver.service)")
		return 1
	}
	// Redis works in dir: relative paths (logfile, pidfile, snapshots) are taken from there.
	if err := os.Chdir(cfg.Dir()); err != nil {
		fmt.Fprintf(os.Stderr, "Can't chdir to '%s': %s\n", cfg.Dir(), logging.Strerror(err))
		return 1
	}
	format, _ := cfg.Value("log-format")
	log, err := logging.New(logging.Options{Level: cfg.LogLevel(), File: cfg.LogFile(), Format: format})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	// Flushed, not closed: after a shutdown that timed out, a client's goroutine may still
	// log until the process exits.
	defer func() { _ = log.Sync() }()
	cfg.OnChange("log-format", func(v string) { _ = log.SetFormat(v) })
	// Redis's first lines, at warning so that every loglevel but nothing shows them.
	log.Warn("oO0OoO0OoO0Oo kvserver is starting oO0OoO0OoO0Oo")
	log.Warn(fmt.Sprintf("kvserver version=%s, redis_version=%s, bits=%d, pid=%d, just started",
		server.Version, server.RedisVersion, strconv.IntSize, os.Getpid()))
	log.Warn("Configuration loaded")

	exe, _ := os.Executable()
	srv, err := server.New(server.Options{Config: cfg, Logger: log.Logger, ConfigFile: cfgFile,
		Executable: exe, LogLevel: log.AtomicLevel()})
	var lineErr *config.LoadError
	if errors.As(err, &lineErr) && lineErr.Line > 0 {
		// A kept directive (a user line) refused: Redis's block naming the line, as for the
		// file's other errors.
		fmt.Fprintln(os.Stderr, lineErr)
		return 1
	}
	if err != nil {
		return startupFailed(log, cfg, "Can't create the server: "+err.Error())
	}
	startProfiling(log.Logger)
	signal.Ignore(syscall.SIGHUP, syscall.SIGPIPE)
	// Two slots: the second signal, during the bounded wait, must not be lost.
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, syscall.SIGTERM, syscall.SIGINT)
	if err := srv.Start(); err != nil {
		return startupFailed(log, cfg, err.Error())
	}
	log.Info(fmt.Sprintf("Running mode=standalone, port=%d.", cfg.Port()))
	log.Warn("Server initialized")
	if code, stop := loadDataset(log, cfg, srv, sigs); stop {
		return code
	}
	if cfg.Port() != 0 {
		log.Info("Ready to accept connections tcp", zap.Strings("addresses", srv.Addrs()))
	}
	if sock, _ := cfg.Value("unixsocket"); sock != "" {
		log.Info("Ready to accept connections unix", zap.String("path", sock))
	}
	if pf := cfg.PidFile(); pf != "" {
		if err := os.WriteFile(pf, []byte(fmt.Sprintf("%d\n", os.Getpid())), 0o644); err != nil {
			log.Warn("Failed to write PID file: "+logging.Strerror(err), zap.String("pidfile", pf))
		} else {
			defer os.Remove(pf)
		}
	}
	return awaitShutdown(log, cfg, srv, sigs)
}

// loadDataset loads the snapshot file while the server answers -LOADING. A file that cannot be
// loaded whole stops the server with status 1 (never a partial dataset served as whole). A
// SIGTERM or SIGINT during the load exits at once, with status 0 and without saving: the
// dataset is partial. It reports whether main must return, with the exit code.
func loadDataset(log *logging.Logger, cfg *config.Config, srv *server.Server, sigs <-chan os.Signal) (int, bool) {
	done := make(chan error, 1)
	go func() { done <- srv.LoadDataset() }()
	select {
	case err := <-done:
		if err != nil {
			return startupFailed(log, cfg, err.Error()), true
		}
		return 0, false
	case sig := <-sigs:
		log.Warn("Received " + signalName(sig) + " while loading the dataset: exiting now, without saving (the dataset is partial)")
		return 0, true
	}
}

// startupFailed reports an error that stops the server once it has a logger: one line on
// standard error, and in the log file too when there is one (the log on standard output
// would only repeat it). It returns the exit code, 1.
func startupFailed(log *logging.Logger, cfg *config.Config, msg string) int {
	msg = strings.Join(strings.Fields(msg), " ") // one line, whatever the error's text
	if cfg.LogFile() != "" {
		log.Warn(msg)
	}
	fmt.Fprintln(os.Stderr, msg)
	return 1
}
