package server

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strconv"
	"time"

	"github.com/kvserver/kvserver/command"
	"github.com/kvserver/kvserver/persist"
)

// Persistence's replies that the pipeline's gate gives, as Redis words them.
const (
	errLoading = "LOADING Redis is loading the dataset in memory"
	errMisconf = "MISCONF Redis is configured to save RDB snapshots, but it's currently unable to persist to disk. Commands that may modify the data set are disabled, because this instance is configured to report errors during writes if RDB snapshotting fails (stop-writes-on-bgsave-error option). Please check the Redis logs for details about the RDB error."
)

// errShutdownSave is SHUTDOWN's reply when its save failed and FORCE was not given.
var errShutdownSave = errors.New("ERR Errors trying to SHUTDOWN. Check logs.")

// startPersistence makes the persister: saves read the configuration when they start, and
// the gate follows the persister's state.
func (s *Server) startPersistence() {
	s.persist = persist.New(s.ks, s.persistSettings, s.log)
	s.persist.OnLatency = func(event string, d time.Duration) {
		s.observe.latency.AddSampleIfNeeded(event, d.Milliseconds())
	}
	s.persist.OnChange = s.updateGate
	s.pipeline.Gate = s.gate
}

// persistSettings reads what a save or a load needs from the configuration.
func (s *Server) persistSettings() persist.Settings {
	val := func(name string) string { v, _ := s.cfg.Value(name); return v }
	num := func(name string) int64 { n, _ := strconv.ParseInt(val(name), 10, 64); return n }
	var points []persist.SavePoint
	for _, sp := range s.cfg.Save() {
		points = append(points, persist.SavePoint{Seconds: sp.Seconds, Changes: int64(sp.Changes)})
	}
	return persist.Settings{
		Dir:               s.cfg.Dir(),
		DBFilename:        s.cfg.DBFilename(),
		Compress:          val("rdbcompression") == "yes",
		Checksum:          val("rdbchecksum") == "yes",
		IncrementalFsync:  val("rdb-save-incremental-fsync") == "yes",
		KeyDelay:          num("rdb-key-save-delay"),
		LoadDelay:         num("key-load-delay"),
		SavePoints:        points,
		StopWritesOnError: val("stop-writes-on-bgsave-error") == "yes",
		Access:            persist.AccessFor(s.cfg.MaxMemoryPolicy()),
		RedisVer:          RedisVersion,
		UsedMem:           s.usedMemory(),
	}
}

// gate is the pipeline's check of persistence state, in Redis's processCommand order: MISCONF
// for writes (and PING, as Redis) while background saves fail, then LOADING for every command
// without the loading flag while the dataset loads.
func (s *Server) gate(cmd *command.Command) string {
	if (cmd.Flags&command.Write != 0 || cmd.FullName == "ping") && s.persist.WritesRefused() {
		return errMisconf
	}
	if cmd.Flags&command.Loading == 0 && s.persist.Loading() {
		return errLoading
	}
	return ""
}

// updateGate switches the pipeline's gate on while a load runs or writes must be refused.
func (s *Server) updateGate() {
	s.pipeline.SetGated(s.persist.Loading() || s.persist.WritesRefused())
}

// expectLoad marks the server as loading when dbfilename exists, before it listens: no command
// is answered from an empty or partial keyspace before LoadDataset has loaded it whole.
func (s *Server) expectLoad() {
	if _, err := os.Stat(s.persistSettings().Path()); err == nil {
		s.persist.MarkLoading()
	}
}

// LoadDataset loads dbfilename from dir, if it exists, while the server answers -LOADING; the
// server must be started. An error means the file could not be loaded whole: the caller exits
// (Redis exits 1) rather than serve part of it.
func (s *Server) LoadDataset() error {
	st := s.persistSettings()
	start := time.Now()
	res, err := s.persist.LoadFile(st.Path(), false, false)
	if errors.Is(err, fs.ErrNotExist) {
		return nil // no file: an empty dataset, as Redis starts
	}
	if err != nil {
		return fmt.Errorf("Fatal error loading the DB (%s): %w. Exiting.", st.Path(), err)
	}
	s.log.Info(fmt.Sprintf("Loading RDB produced by version %s", res.Aux["redis-ver"]))
	s.log.Info(fmt.Sprintf("Done loading RDB, keys loaded: %d, keys expired: %d.", res.Keys, res.Expired))
	s.log.Info(fmt.Sprintf("DB loaded from disk: %.3f seconds", time.Since(start).Seconds()))
	return nil
}

// ShutdownSave is the save of a shutdown, when it must save: with every shard locked, so
// that nothing changes after the snapshot; once it is written the shards are frozen (a command
// waiting for a lock is refused rather than acknowledged and lost) and the locks released.
// On error nothing is frozen and the server goes on, unless force.
func (s *Server) ShutdownSave() error {
	s.log.Info("Saving the final RDB snapshot before exiting.")
	err := s.persist.SaveStopped(s.ks.LockAll)
	if err == nil {
		s.ks.FreezeLocked()
	}
	s.ks.UnlockAll()
	if err != nil {
		s.log.Warn("Error trying to save the DB, can't exit.")
	}
	return err
}

// ShouldSaveOnShutdown says whether a shutdown saves: SAVE and NOSAVE decide, else the save
// points do (Redis's default: save when there are any). Never while loading: the dataset is
// partial, and saving it would overwrite the file it comes from (Redis turns SAVE into NOSAVE
// then too).
func (s *Server) ShouldSaveOnShutdown(save, nosave bool) bool {
	if s.persist.Loading() {
		return false
	}
	return !nosave && (save || len(s.cfg.Save()) > 0)
}
