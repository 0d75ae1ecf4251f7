// Package prefetch asks the processor to start loading memory that a search is about to read,
// so that the cache lines of a node arrive together instead of one after another as the search
// reaches them.
//
// A B+tree node of zindex is eight cache lines. A search scans its keys, and only then reads
// the counts and the child it chose: read in that order, each line that misses the cache is a
// wait of its own. Asking for all of them the moment the node's address is known turns those
// waits into one. On processors this package has no instruction for, the functions do
// nothing, and the search runs as it would without them.
package prefetch
