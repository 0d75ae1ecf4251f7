// Package config is kvserver's configuration registry: every parameter of Redis 7.2,
// named as redis.conf names it, with its aliases, type, default, bounds and
// mutability, and the three ways to set them.
//
// The table (Params) is src/config.c's static_configs[] row for row, so CONFIG GET *
// lists what Redis 7.2.4 lists and CONFIG SET accepts and refuses what Redis does, with
// its messages. A value is kept as the text CONFIG GET prints (memory in plain bytes,
// booleans as yes/no, enums in their canonical spelling); typed accessors (Port, Bind,
// MaxMemory, …) read the parameters the server acts on, and OnChange listeners let it
// react to a change (hz, maxclients, bind, port, dir …). Parameters the server does not
// implement are remembered, so that CONFIG GET returns them.
//
// Values arrive three ways:
//
//   - at start-up, from redis-server style arguments (ParseArgs, then Load) and a
//     redis.conf file with includes (LoadFile), where immutable parameters may be set
//     and errors are redis-server's FATAL CONFIG FILE ERROR block (LoadError);
//   - at run time from CONFIG SET (Set, SetLocal): all pairs or none;
//   - through the pflag definitions of FlagSet, which are Load underneath.
//
// Deliberate differences from Redis 7.2: bind defaults to "127.0.0.1 -::1" (the value
// of the redis.conf Redis ships) rather than the compiled-in "* -::*"; setting dir
// checks the directory and records its absolute path but leaves the chdir to the
// server's listener; locale-collate is not checked against the system's locales; a
// Load that fails changes nothing (redis-server exits instead).
//
// A Config is safe for concurrent use: readers take a read lock for one value; Set
// and Load are serialised with the listener calls they make.
package config
