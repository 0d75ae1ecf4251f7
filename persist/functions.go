package persist

// Function libraries in snapshots: Redis writes each library (opcode 245, its code) after the
// AUX fields and before the databases, and loads them back with the keys. A library that
// fails to load fails the load, as Redis refuses to start.

// Functions is the server's function libraries as snapshots and loads see them
// (funclib.Registry).
type Functions interface {
	// Codes returns every library's code as of now, in the order a snapshot writes them.
	Codes() [][]byte
	// LoadCode creates a library from its code as read from a file, in Redis's words on error
	// ("Library 'x' already exists"…); replace lets it replace a library of the same name
	// (DEBUG RELOAD MERGE, Redis's RDBFLAGS_ALLOW_DUP).
	LoadCode(code []byte, replace bool) error
	// Changes counts the changes to the libraries (LOAD, DELETE, FLUSH, RESTORE), which count
	// toward the save points as changes to keys do (Redis's server.dirty++).
	Changes() int64
}

// dirty is Redis's server.dirty: the changes to keys and to function libraries.
func (p *Persister) dirty() int64 {
	if p.Functions == nil {
		return p.ks.Dirty()
	}
	return p.ks.Dirty() + p.Functions.Changes()
}

// functionCodes are the libraries' codes a snapshot starting now writes (none without
// Functions).
func (p *Persister) functionCodes() [][]byte {
	if p.Functions == nil {
		return nil
	}
	return p.Functions.Codes()
}

// onFunction is a load's hook for libraries: nil (a library is then an unsupported opcode)
// without Functions.
func (p *Persister) onFunction(merge bool) func(code []byte) error {
	if p.Functions == nil {
		return nil
	}
	return func(code []byte) error { return p.Functions.LoadCode(code, merge) }
}
