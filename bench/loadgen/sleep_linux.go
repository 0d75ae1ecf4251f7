package main

import "syscall"

// prSetTimerSlack is prctl's PR_SET_TIMERSLACK.
const prSetTimerSlack = 29

// preciseSleepSetup sets the calling thread's timer slack to 1 ns (Linux's default of 50 µs
// would add about that much to every sleep). Call it on a locked OS thread.
func preciseSleepSetup() {
	syscall.RawSyscall(syscall.SYS_PRCTL, prSetTimerSlack, 1, 0)
}

// sleepFor sleeps ns nanoseconds in nanosleep(2), which overshoots by tens of microseconds;
// time.Sleep rounds short sleeps up to about a millisecond when the Go scheduler is idle.
func sleepFor(ns int64) {
	ts := syscall.NsecToTimespec(ns)
	syscall.Nanosleep(&ts, nil)
}
