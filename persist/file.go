package persist

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"golang.org/x/sys/unix"

	"github.com/kvserver/kvserver/logging"
)

// autosyncBytes is how much a save writes between two requests to start writeback when
// rdb-save-incremental-fsync is on: Redis's REDIS_AUTOSYNC_BYTES (4 MB), so that the final
// fsync does not have a whole dataset of dirty pages to wait for.
const autosyncBytes = 4 << 20

// SaveFile writes a started snapshot to path through the temporary file tmp in the same directory:
// written, synced, then renamed over path and the directory synced, so that path always holds
// a whole snapshot (Redis's rdbSave). incrementalSync starts the writeback every 4 MB as the
// file is written. commit, when set, runs the rename (its argument) and may refuse it with an
// error (a save superseded meanwhile). On error the temporary file is removed and path is
// untouched.
func SaveFile(sn *Snapshot, path, tmp string, incrementalSync bool, commit func(rename func() error) error) (SnapshotResult, error) {
	var res SnapshotResult
	walked := false
	err := writeFile(path, tmp, incrementalSync, func(w io.Writer) error {
		var err error
		walked = true
		res, err = sn.Encode(w)
		return err
	}, commit)
	if !walked {
		// The file could not even be opened: the walk must still end.
		sn.Abandon()
	}
	return res, err
}

// writeFile writes a file through tmp as SaveFile does, with write producing its bytes.
func writeFile(path, tmp string, incrementalSync bool, write func(io.Writer) error, commit func(rename func() error) error) error {
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return fmt.Errorf("Failed opening the temp RDB file %s (in server root dir %s) for saving: %w", filepath.Base(tmp), filepath.Dir(tmp), unwrapPathError(err))
	}
	w := &syncingWriter{f: f, every: 0}
	if incrementalSync {
		w.every = autosyncBytes
	}
	err = write(w)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(tmp)
		if errors.Is(err, ErrCancelled) {
			return err
		}
		return fmt.Errorf("Write error saving DB on disk: %w", unwrapPathError(err))
	}
	rename := func() error { return os.Rename(tmp, path) }
	if commit != nil {
		err = commit(rename)
	} else {
		err = rename()
	}
	if err != nil {
		os.Remove(tmp)
		if errors.Is(err, ErrCancelled) || errors.Is(err, errSuperseded) {
			return err
		}
		return fmt.Errorf("Error moving temp DB file %s on the final destination %s (in server root dir %s): %w", filepath.Base(tmp), filepath.Base(path), filepath.Dir(path), unwrapPathError(err))
	}
	if d, err := os.Open(filepath.Dir(path)); err == nil {
		d.Sync()
		d.Close()
	}
	return nil
}

// syncingWriter writes to a file and, every `every` bytes (0: never), asks the kernel to start
// writing back what was written since (sync_file_range without waiting).
type syncingWriter struct {
	f       *os.File
	every   int64
	written int64
	synced  int64
}

func (w *syncingWriter) Write(p []byte) (int, error) {
	n, err := w.f.Write(p)
	w.written += int64(n)
	if w.every > 0 && w.written-w.synced >= w.every {
		unix.SyncFileRange(int(w.f.Fd()), w.synced, w.written-w.synced, unix.SYNC_FILE_RANGE_WRITE)
		w.synced = w.written
	}
	return n, err
}

// unwrapPathError drops the *os.PathError's operation and path, which the messages already
// name, leaving strerror's text as Redis logs it ("No space left on device").
func unwrapPathError(err error) error {
	return errors.New(logging.Strerror(err))
}
