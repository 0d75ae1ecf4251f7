// Command kvserver runs the kvserver daemon. Arguments are redis-server's: an optional config
// file, then --directive value… pairs (`kvserver --port 7000 --save ""`).
package main

import (
	"errors"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"

	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"

	"github.com/kvserver/kvserver/config"
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
		fmt.Fprintf(os.Stderr, "Can't chdir to '%s': %v\n", cfg.Dir(), err)
		return 1
	}
	log, level, err := newLogger(cfg)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer func() { _ = log.Sync() }()

	exe, _ := os.Executable()
	srv, err := server.New(server.Options{Config: cfg, Logger: log, ConfigFile: cfgFile, Executable: exe, LogLevel: &level})
	if err != nil {
		log.Error("cannot create the server: " + err.Error())
		return 1
	}
	startProfiling(log)
	signal.Ignore(syscall.SIGHUP, syscall.SIGPIPE)
	stop := make(chan os.Signal, 1)
	signal.Notify(stop, syscall.SIGTERM, syscall.SIGINT)
	if err := srv.Start(); err != nil {
		log.Error("cannot start", zap.Error(err))
		return 1
	}
	log.Info("kvserver started",
		zap.String("version", server.Version), zap.String("redis_version", server.RedisVersion),
		zap.Strings("addresses", srv.Addrs()), zap.Int("pid", os.Getpid()))
	if pf := cfg.PidFile(); pf != "" {
		if err := os.WriteFile(pf, []byte(fmt.Sprintf("%d\n", os.Getpid())), 0o644); err != nil {
			log.Warn("cannot write the pidfile", zap.String("pidfile", pf), zap.Error(err))
		} else {
			defer os.Remove(pf)
		}
	}
	select {
	case sig := <-stop:
		log.Info("received signal, shutting down", zap.String("signal", sig.String()))
	case <-srv.Done():
	}
	srv.Shutdown()
	srv.Wait()
	srv.Close()
	log.Info("kvserver is now ready to exit, bye bye...")
	return 0
}

// newLogger makes the zap logger from loglevel and logfile (Redis's levels: debug and verbose
// are zap's debug, notice is info, warning is warn). The level it returns is the logger's:
// CONFIG SET loglevel changes it.
func newLogger(cfg *config.Config) (*zap.Logger, zap.AtomicLevel, error) {
	level := zap.NewAtomicLevelAt(server.ZapLevel(cfg.LogLevel()))
	zc := zap.NewProductionConfig()
	zc.Level = level
	zc.Sampling = nil
	zc.EncoderConfig.EncodeTime = zapcore.ISO8601TimeEncoder
	zc.OutputPaths = []string{"stdout"}
	if f := cfg.LogFile(); f != "" {
		zc.OutputPaths = []string{f}
	}
	log, err := zc.Build()
	return log, level, err
}
