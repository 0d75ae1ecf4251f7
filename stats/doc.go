// Package stats keeps the statistics the command pipeline gathers after each command: per
// command calls, time, rejected and failed calls (INFO commandstats), a latency histogram per
// command (INFO latencystats, LATENCY HISTOGRAM), error replies by code (INFO errorstats,
// total_error_replies), and hands slow commands to the slow log and the latency monitor.
//
// Stats is the pipeline's command.Observer. The counters are striped by P: a command counts
// into the stripe of the P it runs on, pinned to it for those few stores, so that commands on
// different cores never write the same cache line and need no locked instruction (a plain
// store, see store_plain.go; atomic under the race detector). Readers
// (INFO, LATENCY HISTOGRAM) sum the stripes. CONFIG RESETSTAT (Reset) starts a new epoch: a
// stripe of an older epoch is ignored by readers and zeroed by its next writer, so a reset
// never races a writer's plain stores.
package stats
