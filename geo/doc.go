// Package geo is Redis's geohash arithmetic (geohash.c, geohash_helper.c and the helpers of
// geo.c in Redis 7.2), with the same floating-point steps so that positions, distances and the
// cells a search scans match redis-server's digit for digit.
//
// The model: a position (longitude in [-180, 180], latitude in [-85.05112878, 85.05112878],
// the Web Mercator limits) is a 52-bit cell number, 26 bits of each coordinate interleaved
// (latitude bits at the even positions, longitude at the odd ones). A geo key is a sorted set
// whose scores are those cell numbers (as float64, exact below 2^53), so the members of one
// cell at any step are one contiguous score range ([Align52(h), Align52(h+1)) ). A search
// (GEOSEARCH, GEORADIUS) picks a step from the radius, then scans the centre cell and its
// eight neighbours (AreasByShape), and keeps the points inside the shape (Shape.Within).
//
// Nothing here knows of sorted sets or commands: package family/geofamily does.
//
// Files: geohash.go (encoding, decoding, neighbours), distance.go (haversine, units),
// exact.go (correctly rounded sin, cos, asin as glibc's, for the distances that must be Redis's
// to the bit), search.go (steps, bounding box, the nine cells, the shape test), format.go
// (reply texts: distances, coordinates, GEOHASH's base32 string).
package geo
