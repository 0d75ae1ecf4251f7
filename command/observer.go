package command

// Observer is told of every command the pipeline answers: the statistics kept after a command
// (INFO commandstats, errorstats and latencystats, the slow log, the latency monitor). Its
// methods run on the command's goroutine, after its locks are released, and must be cheap:
// they are on the hot path.
type Observer interface {
	// Called: ctx.Cmd ran for ns nanoseconds (the handler alone, as Redis's call() times it).
	// errCode is the code of the error reply it wrote ("ERR", "WRONGTYPE"), nil if its reply
	// was not an error. The slice is valid only during the call. conn is nil for a handler
	// that panicked (Pipeline.Recover): then ns is 0.
	Called(ctx *Ctx, conn Conn, ns int64, errCode []byte)
	// Rejected: the pipeline refused the command before its handler, with an error reply whose
	// code is errCode. ctx.Cmd is nil for an unknown command (Redis counts the error but no
	// command's rejected_calls).
	Rejected(ctx *Ctx, errCode []byte)
}

// errorCode returns the code of the reply starting at reply[0] when it is an error, else nil:
// Redis's afterErrorReply rule — the word after '-' up to the first space, looked for in the
// first 32 bytes, "ERR" when none is there.
func errorCode(reply []byte) []byte {
	if len(reply) == 0 || reply[0] != '-' {
		return nil
	}
	limit := min(len(reply), 32)
	for i := 1; i < limit; i++ {
		if reply[i] == ' ' {
			return reply[1:i]
		}
	}
	return errCodeERR
}

var errCodeERR = []byte("ERR")
