package keyfamily

import (
	"bytes"

	"github.com/kvserver/kvserver/alloc"
	"github.com/kvserver/kvserver/command"
	"github.com/kvserver/kvserver/conv"
	"github.com/kvserver/kvserver/keyspace"
	"github.com/kvserver/kvserver/object"
	"github.com/kvserver/kvserver/replyerr"
)

// RENAME, RENAMENX, COPY and MOVE: a value changes name or database. The pipeline holds both
// keys' shards (one when they share it); a key's shard is the same in every database, so COPY
// … DB and MOVE touch no other shard.

func renameCommand(ctx *command.Ctx)   { renameGenericCommand(ctx, false) }
func renamenxCommand(ctx *command.Ctx) { renameGenericCommand(ctx, true) }

// renameGenericCommand is Redis's: RENAME answers OK, RENAMENX 1 when it renamed and 0 when
// the new name was taken (or is the same name).
func renameGenericCommand(ctx *command.Ctx, nx bool) {
	renamed, err := opRename(ctx, ctx.Args.Arg(1), ctx.Args.Arg(2), nx)
	switch {
	case err != nil:
		ctx.W.Error(err.Error())
	case !nx:
		ctx.W.OK()
	case renamed:
		ctx.W.Int(1)
	default:
		ctx.W.Int(0)
	}
}

// opRename moves src's value and expire to dst. Redis's order: no such key (even when both
// names are the same), then the same name (nothing to do: false), then NX's check, then the
// move. The record holds its key, so it is rebuilt under the new name in the arena of dst's
// shard.
func opRename(ctx *command.Ctx, src, dst []byte, nx bool) (bool, error) {
	ssh, dsh := ctx.Shard(src), ctx.Shard(dst)
	h, ok := ctx.LookupWrite(ssh, src)
	if !ok {
		return false, replyerr.NoSuchKey
	}
	if bytes.Equal(src, dst) {
		return false, nil
	}
	if _, exists := ctx.LookupWrite(dsh, dst); exists && nx {
		return false, nil
	}
	if ssh == dsh && object.TypeOf(ssh.Arena(), h) != object.TypeString {
		if err := renameInShard(ctx, ssh, h, src, dst); err != nil {
			return false, err
		}
	} else {
		if err := storeCopy(ctx, ssh, h, dsh, ctx.DB, dst); err != nil {
			return false, err
		}
		ssh.DeleteLocked(ctx.DB, src)
	}
	ctx.NotifyNew(dst) // the old dst was deleted, then dst added (Redis's dbAdd)
	ctx.Notify(keyspace.NotifyGeneric, "rename_from", src)
	ctx.Notify(keyspace.NotifyGeneric, "rename_to", dst)
	return true, nil
}

// renameInShard renames collection record h of sh, key src, to dst (another name) in the
// client's database: the value stays where it is — a new record named dst takes over its root,
// replacing any value dst had, and the old record leaves the table and is freed alone.
func renameInShard(ctx *command.Ctx, sh *keyspace.Shard, h alloc.Handle, src, dst []byte) error {
	a := sh.Arena()
	var when int64
	if w, has := object.Expire(a, h); has {
		when = w
	}
	enc, root := object.Root(a, h)
	nh, err := object.NewCollection(a, dst, object.TypeOf(a, h), enc, root, when)
	if err != nil {
		return err
	}
	if _, err := sh.ReplaceFlagsLocked(ctx.DB, dst, nh, ctx.WriteFlags()); err != nil {
		object.FreeRecordOnly(a, nh)
		return err
	}
	sh.UnlinkLocked(ctx.DB, src)
	object.FreeRecordOnly(a, h)
	return nil
}

// copyCommand: COPY source destination [DB destination-db] [REPLACE]. Options are parsed in
// order (a bad DB is reported where it stands); then the same key in the same database is an
// error; a missing source or an existing destination without REPLACE answers 0.
func copyCommand(ctx *command.Ctx) {
	args := ctx.Args
	dstDB, replace := ctx.DB, false
	for j := 3; j < args.Len(); j++ {
		switch opt := args.Arg(j); {
		case conv.EqFold(opt, "replace"):
			replace = true
		case conv.EqFold(opt, "db") && j+1 < args.Len():
			db, err := getDBIndex(ctx, args.Arg(j+1))
			if err != nil {
				ctx.W.Error(err.Error())
				return
			}
			dstDB = db
			j++
		default:
			ctx.W.Error(replyerr.Syntax.Error())
			return
		}
	}
	copied, err := opCopy(ctx, args.Arg(1), args.Arg(2), dstDB, replace)
	switch {
	case err != nil:
		ctx.W.Error(err.Error())
	case copied:
		ctx.W.Int(1)
	default:
		ctx.W.Int(0)
	}
}

// opCopy copies src of the client's database to dst of database dstDB and reports whether it
// did: not when src is missing or dst exists without replace.
func opCopy(ctx *command.Ctx, src, dst []byte, dstDB int, replace bool) (bool, error) {
	if dstDB == ctx.DB && bytes.Equal(src, dst) {
		return false, errSameObject
	}
	ssh, dsh := ctx.Shard(src), ctx.Shard(dst)
	h, ok := ctx.LookupRead(ssh, src)
	if !ok {
		return false, nil
	}
	if _, exists := ctx.LookupWriteDB(dsh, dstDB, dst); exists && !replace {
		return false, nil
	}
	if err := storeCopy(ctx, ssh, h, dsh, dstDB, dst); err != nil {
		return false, err
	}
	ctx.NotifyDB(keyspace.NotifyNew, command.EventNew, dstDB, dst) // replaced: deleted, then added
	ctx.NotifyDB(keyspace.NotifyGeneric, "copy_to", dstDB, dst)
	return true, nil
}

// storeCopy stores under key in database db of dsh a copy of record h of ssh, replacing any
// value there: what RENAME and COPY write.
func storeCopy(ctx *command.Ctx, ssh *keyspace.Shard, h alloc.Handle, dsh *keyspace.Shard, db int, key []byte) error {
	nh, err := copyRecord(ctx, ssh, h, dsh, key)
	if err != nil {
		return err
	}
	if _, err := dsh.ReplaceFlagsLocked(db, key, nh, ctx.WriteFlags()); err != nil {
		object.Free(dsh.Arena(), nh)
		return err
	}
	return nil
}

// copyRecord makes, in dst's arena, a record named key with the value and expire of record h
// of src (both shards locked; they may be the same), its LRU clock set to now. A collection is
// copied deep, in its encoding (object.CopyCollection). A string's encoding is
// kept where our embedding rule allows — an int stays int, a raw value stays raw, an embstr
// stays embstr even when its text is a canonical integer (INCRBYFLOAT's "3": Redis's
// dupStringObject keeps it embstr) — but an embstr value that no longer fits in a record with
// the new key goes raw (exact size).
//
// The value is copied, whatever its size. The design moves a large raw value by handle
// (alloc's Adopt) instead; object has no call for that yet.
func copyRecord(ctx *command.Ctx, src *keyspace.Shard, h alloc.Handle, dst *keyspace.Shard, key []byte) (alloc.Handle, error) {
	a := src.Arena()
	var when int64
	if w, has := object.Expire(a, h); has {
		when = w
	}
	if object.TypeOf(a, h) != object.TypeString {
		nh, err := object.CopyCollection(a, h, dst.Arena(), key, when)
		if err != nil {
			return 0, err
		}
		object.SetLRU(dst.Arena(), nh, ctx.KS.LRUClock())
		return nh, nil
	}
	val := object.Value(a, h, ctx.Scratch[:0])
	kind := object.WriteSet
	switch object.EncodingOf(a, h) {
	case object.EncRaw:
		// A SET-kind write would make a short or numeric value embstr or int: keep it raw.
		if _, isInt := object.CanonicalInt(val); isInt || object.Embeds(len(key), len(val), when != 0, object.WriteSet) {
			kind = object.WriteGrow
		}
	case object.EncEmbstr:
		// A SET-kind write would make a numeric text int: a text write never does.
		kind = object.WriteText
	}
	nh, err := object.NewString(dst.Arena(), key, val, when, kind)
	if err != nil {
		return 0, err
	}
	object.SetLRU(dst.Arena(), nh, ctx.KS.LRUClock())
	return nh, nil
}

// moveCommand: MOVE key db — 1 when the key moved to database db, 0 when it is missing here or
// exists there.
func moveCommand(ctx *command.Ctx) {
	dstDB, err := getDBIndex(ctx, ctx.Args.Arg(2))
	if err != nil {
		ctx.W.Error(err.Error())
		return
	}
	moved, err := opMove(ctx, ctx.Args.Arg(1), dstDB)
	switch {
	case err != nil:
		ctx.W.Error(err.Error())
	case moved:
		ctx.W.Int(1)
	default:
		ctx.W.Int(0)
	}
}

// opMove moves key from the client's database to dstDB. A key's shard is the same in every
// database, so the record moves between two tables of one shard, unchanged.
func opMove(ctx *command.Ctx, key []byte, dstDB int) (bool, error) {
	if dstDB == ctx.DB {
		return false, errSameObject
	}
	sh := ctx.Shard(key)
	if _, ok := ctx.LookupWrite(sh, key); !ok {
		return false, nil
	}
	if _, exists := ctx.LookupWriteDB(sh, dstDB, key); exists {
		return false, nil
	}
	h, _ := sh.UnlinkLocked(ctx.DB, key)
	if err := sh.InsertLocked(dstDB, key, h); err != nil {
		if sh.InsertLocked(ctx.DB, key, h) != nil {
			object.Free(sh.Arena(), h)
		}
		return false, err
	}
	ctx.NotifyDB(keyspace.NotifyNew, command.EventNew, dstDB, key)
	ctx.Notify(keyspace.NotifyGeneric, "move_from", key)
	ctx.NotifyDB(keyspace.NotifyGeneric, "move_to", dstDB, key)
	return true, nil
}
