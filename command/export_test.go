package command

// CrashOnPanic tells the external tests (package command_test) whether this build crashes on a
// handler's panic (the invariants build) instead of recovering it.
const CrashOnPanic = crashOnPanic
