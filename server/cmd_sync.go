package server

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/kvserver/kvserver/command"
	"github.com/kvserver/kvserver/conv"
	"github.com/kvserver/kvserver/querybuf"
	"github.com/kvserver/kvserver/replyerr"
)

// What a client declared with REPLCONF (Server.replConfs: kept beside the clients rather than
// in each, as only redis-cli --rdb and replicas send it).
const (
	replCapaEOF uint32 = 1 << iota // capa eof: it reads the diskless form ($EOF:<mark>)
	replRDBOnly                    // rdb-only 1: it wants the snapshot, not a replication stream
)

// errNoReplication refuses a SYNC from a real replica: it would load the snapshot and then
// wait for a command stream kvserver does not send yet, serving stale data as if in sync.
const errNoReplication = "ERR kvserver has no replication stream yet: SYNC serves only clients that sent REPLCONF rdb-only 1 (redis-cli --rdb)"

// syncStreamChunk is how much of the snapshot is buffered before it is written to the socket.
const syncStreamChunk = 64 << 10

// syncCommands are SYNC and REPLCONF: enough of the replication handshake for redis-cli --rdb.
func syncCommands() []*command.Command {
	return []*command.Command{
		{Name: "sync", Locking: command.LockNone, Handler: clientCommand(syncCommand)},
		{Name: "replconf", Locking: command.LockNone, Handler: clientCommand(replconfCommand)},
	}
}

// replconfCommand: REPLCONF <option> <value> … — records capa eof and rdb-only, accepts
// listening-port, ip-address, capa psync2 and rdb-filter-only, and answers ACK and GETACK with
// nothing, as a master does.
func replconfCommand(c *client, args querybuf.Args) {
	if args.Len()%2 == 0 {
		c.w.Error(replyerr.Syntax.Error())
		return
	}
	flags := c.srv.replConf(c.id)
	for i := 1; i < args.Len(); i += 2 {
		opt, val := args.Arg(i), args.Arg(i+1)
		switch {
		case conv.EqFold(opt, "ack"), conv.EqFold(opt, "getack"), conv.EqFold(opt, "fack"):
			return // no reply, as Redis's master
		case conv.EqFold(opt, "capa"):
			if conv.EqFold(val, "eof") {
				flags |= replCapaEOF
			}
		case conv.EqFold(opt, "rdb-only"):
			if string(val) == "1" {
				flags |= replRDBOnly
			} else {
				flags &^= replRDBOnly
			}
		case conv.EqFold(opt, "listening-port"), conv.EqFold(opt, "ip-address"), conv.EqFold(opt, "rdb-filter-only"):
		default:
			c.w.Error("ERR Unrecognized REPLCONF option: " + string(opt))
			return
		}
	}
	c.srv.replConfs.Store(c.id, flags)
	c.w.OK()
}

// syncCommand: SYNC — a full synchronization for a client that asked for the snapshot only
// (REPLCONF rdb-only 1): the RDB of this instant, in the diskless form ("$EOF:<40 random
// bytes>", the payload, the same 40 bytes) when the client declared capa eof and
// repl-diskless-sync is yes, else in the disk form ("$<length>", the payload) from a temporary
// file deleted at once. The connection is closed after it, as Redis closes an rdb-only
// replica's.
func syncCommand(c *client, _ querybuf.Args) {
	flags := c.srv.replConf(c.id)
	if flags&replRDBOnly == 0 {
		c.w.Error(errNoReplication)
		return
	}
	s := c.srv
	s.log.Info(fmt.Sprintf("Replica %s asks for synchronization", c.remoteAddr()))
	diskless, _ := s.cfg.Value("repl-diskless-sync")
	var err error
	if flags&replCapaEOF != 0 && diskless == "yes" {
		s.log.Info("Starting BGSAVE for SYNC with target: replicas sockets")
		err = c.syncDiskless()
	} else {
		s.log.Info("Starting BGSAVE for SYNC with target: disk")
		err = c.syncDisk()
	}
	if err != nil {
		s.log.Warn(fmt.Sprintf("SYNC with %s failed: %v", c.remoteAddr(), err))
	} else {
		s.log.Info(fmt.Sprintf("Synchronization with replica %s succeeded", c.remoteAddr()))
	}
	c.closeAfterReply = true
}

// syncDiskless streams the snapshot to the client between two copies of a random mark.
func (c *client) syncDiskless() error {
	var raw [20]byte
	_, _ = rand.Read(raw[:])
	mark := hex.EncodeToString(raw[:]) // 40 bytes, as Redis's RDB_EOF_MARK_SIZE
	out := &clientStream{c: c}
	out.Write([]byte("$EOF:" + mark + "\r\n"))
	if _, err := c.srv.persist.StreamSnapshot(out); err != nil {
		return err
	}
	out.Write([]byte(mark))
	return out.flush()
}

// syncDisk writes the snapshot to a temporary file in dir, then sends its length and its bytes.
func (c *client) syncDisk() error {
	f, err := os.CreateTemp(c.srv.cfg.Dir(), fmt.Sprintf("temp-sync-%d-*.rdb", os.Getpid()))
	if err != nil {
		return err
	}
	defer os.Remove(f.Name())
	defer f.Close()
	res, err := c.srv.persist.StreamSnapshot(f)
	if err != nil {
		return fmt.Errorf("writing %s: %w", filepath.Base(f.Name()), err)
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return err
	}
	out := &clientStream{c: c}
	out.Write([]byte(fmt.Sprintf("$%d\r\n", res.Bytes)))
	if _, err := io.Copy(out, f); err != nil {
		return err
	}
	return out.flush()
}

// clientStream writes bytes that are not replies (a snapshot) to the client's socket through
// its reply buffer, flushing every syncStreamChunk bytes: on the client's goroutine a full
// socket is waited for, so memory stays at one chunk whatever the snapshot's size.
type clientStream struct {
	c   *client
	err error
}

func (s *clientStream) Write(p []byte) (int, error) {
	if s.err != nil {
		return 0, s.err
	}
	s.c.takeReplyBuffer()
	s.c.w.Raw(p)
	if s.c.w.Len() >= syncStreamChunk {
		s.err = s.flush()
	}
	return len(p), s.err
}

func (s *clientStream) flush() error {
	if s.c.flush(false) != flushOK {
		return fmt.Errorf("the connection failed")
	}
	return nil
}

// replConf is what client id declared with REPLCONF, 0 if nothing.
func (s *Server) replConf(id int64) uint32 {
	if v, ok := s.replConfs.Load(id); ok {
		return v.(uint32)
	}
	return 0
}
