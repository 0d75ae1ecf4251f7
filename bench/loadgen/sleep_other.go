//go:build !linux

package main

import "time"

// preciseSleepSetup does nothing outside Linux.
func preciseSleepSetup() {}

// sleepFor sleeps with time.Sleep, which can overshoot short sleeps by a millisecond: the
// benchmark's figures come from Linux.
func sleepFor(ns int64) { time.Sleep(time.Duration(ns)) }
