// Package querybuf turns the bytes a client sends into commands: an incremental parser of RESP2
// multibulk and inline requests that behaves exactly as Redis 7.2's processInlineBuffer and
// processMultibulkBuffer (src/networking.c), a per-client argument arena, the private query
// buffer and big-argument buffers, the protocol limits and the protocol errors. It knows
// nothing about commands.
//
// # The model
//
// A Parser belongs to one client and keeps the state of a half-parsed command (the request
// type, the arguments still expected, the length of the bulk argument being read and how much
// of it has arrived), so a command arriving in any number of pieces is never rescanned from its
// start. The server reads into a shared buffer, calls Parse, gives the buffer back, and only
// then runs the complete commands (NumCommands, Command) and calls ResetCommands.
//
// Parse consumes everything but an incomplete line at the end of its data — an inline request,
// a "*<count>" line or a "$<len>" line still waiting for its terminator. The caller keeps those
// bytes in the client's private buffer (at most InlineMaxSize, 64 KiB, plus the last read: a
// longer line without terminator is a protocol error) and presents them again, followed by the
// next bytes read, at the start of the next call's data. Parse remembers how far it searched
// them. Everything else is copied out before Parse returns: the arguments of complete commands,
// and the received part of a bulk argument in progress, so nothing refers to data afterwards.
//
// # The arena
//
// Arguments are bytes of one flat per-client buffer named by 32-bit end offsets, with one
// offset per command marking where it ends: no slice per argument, no allocation per command
// once the buffers have grown. An argument of BigArgThreshold (32 KiB) or more instead gets a
// buffer of its own of exactly its length plus two, allocated when its header is parsed; the
// connection may read straight into it (BigArgTail, BigArgAdvance), and the value may later be
// adopted without a copy. Every buffer grows by doubling from a minimum, and never past what
// client-query-buffer-limit lets the unfinished command hold; Trim shrinks them by Redis's
// query buffer rule.
//
// # The private buffer and the clients' arena
//
// Private is a client's private query buffer, where the caller keeps the incomplete line Parse
// leaves (ParseShared and ParseRead do the keeping): exact growth, the peak, the cron's Trim by
// Redis's clientsCronResizeQueryBuffer rules, and the numbers CLIENT LIST shows (Use). Buffers
// is the memory of the private buffers and of big arguments: an alloc arena the server owns,
// passed in with the lock of its allocations; it is the BigBuffers a socket client's parser
// uses, and Adopt hands a big argument's buffer to a shard's arena without a copy.
//
// An Args view, and every slice its Arg returns, is valid until ResetCommands, Trim or Reset.
// Parse only appends, so views stay valid across it. Copy what must outlive the command.
//
// # Errors and limits
//
// A *ProtocolError carries Redis's reply text; the server runs the commands completed before it,
// replies with the error and closes the client. ErrQueryBufLimit closes the client without a
// reply. The limit counts the unparsed bytes plus all the unfinished command holds (see
// Limits.QueryBufLimit) — a deliberate difference from Redis, which lets a command of millions
// of tiny arguments grow without bound.
//
// Two Redis behaviours are kept although they look accidental, because clients see them: the
// byte after the CR of a header line and the two bytes after a bulk argument's data are skipped
// without being checked, and a header or inline line containing a NUL byte before its
// terminator never completes (Redis searches it with strchr), so the client waits until the
// 64 KiB limit closes it.
//
// # Goroutines
//
// A Parser or a Private is owned by one goroutine at a time (the client's, or the cron holding
// the client's lock for Trim); none of their methods may be called concurrently. Buffers is
// safe for concurrent use.
package querybuf
