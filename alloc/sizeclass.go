package alloc

import "math/bits"

// Size classes. Requests are rounded up to a class, and the caller keeps the whole class as
// capacity (UsableSize is this project's nallocx):
//   - 16, 24, 32, …, 128 in 8-byte steps: small records and collection entries differ by a few
//     bytes, and at a million entries every 8 bytes of rounding is 8 MB (a 17-byte set member
//     takes 24 bytes, not 32; a 50-byte hash entry 56, not 64). The step is the handle
//     granularity (Quantum), which halves an arena's reach to 16 GiB of slab memory;
//   - then four classes per doubling (160, 192, 224, 256, 320, …), as jemalloc: internal waste is
//     at most 20% and growth by class is geometric, so exact growth stays amortised linear.
//
// Up to MaxSlabSize the classes are slab classes; above it the same four-per-doubling rule
// names the large page-run classes up to MaxRunSize, and beyond that a size is rounded to pages.
const (
	// Quantum is the step of the small classes and the unit in which slab handles count offsets.
	Quantum = 8
	// MinSlabSize is the smallest class: nothing is allocated smaller.
	MinSlabSize = 16
	// MaxSlabSize is the largest slab class: bigger objects come from the large-object tier.
	MaxSlabSize = 32 << 10
	// MaxRunSize is the largest page-run class: bigger objects get a mapping each.
	MaxRunSize = 2 << 20
	// PageSize is the rounding of mappings above MaxRunSize.
	PageSize = 4096

	smallClassMax = 128 // Quantum steps up to here, four classes per doubling above
)

// numSlabClasses is 15 classes of 16..128 and 4 for each doubling from 128 to 32 KiB.
const numSlabClasses = (smallClassMax-MinSlabSize)/Quantum + 1 + 4*8

// numRunClasses counts the page-run classes: 4 for each doubling from 32 KiB to 2 MiB.
const numRunClasses = 4 * 6

var (
	// slabClassSize[c] is the slot size of slab class c.
	slabClassSize = buildSlabClassSizes()
	// slabClassOfQ[(n+Quantum-1)/Quantum] is the slab class of a request of n bytes
	// (n ≤ MaxSlabSize).
	slabClassOfQ = buildSlabClassIndex()
)

func buildSlabClassSizes() (sizes [numSlabClasses]uint32) {
	c := 0
	for size := uint64(MinSlabSize); size <= MaxSlabSize; size = roundClass(size + 1) {
		sizes[c] = uint32(size)
		c++
	}
	if c != numSlabClasses {
		panic("alloc: slab class table does not match numSlabClasses")
	}
	return sizes
}

func buildSlabClassIndex() (t [MaxSlabSize/Quantum + 1]uint8) {
	c := 0
	for i := range t {
		for uint64(slabClassSize[c]) < uint64(i)*Quantum {
			c++
		}
		t[i] = uint8(c)
	}
	return t
}

// roundClass rounds n (≥ 1) up to its class size: MinSlabSize, then Quantum steps to 128,
// four classes per doubling to MaxRunSize, whole pages above.
func roundClass(n uint64) uint64 {
	switch {
	case n <= MinSlabSize:
		return MinSlabSize
	case n <= smallClassMax:
		return (n + Quantum - 1) &^ (Quantum - 1)
	case n <= MaxRunSize:
		// 2^p < n ≤ 2^(p+1): the classes in that doubling are 2^p + k·2^p/4, k = 1..4.
		p := bits.Len64(n-1) - 1
		step := uint64(1) << (p - 2)
		return (n + step - 1) &^ (step - 1)
	default:
		return (n + PageSize - 1) &^ (PageSize - 1)
	}
}

// runClassOf names the page-run class of a large size already rounded by roundClass
// (MaxSlabSize < size ≤ MaxRunSize).
func runClassOf(size uint64) int {
	p := bits.Len64(size-1) - 1 // 15 for (32 KiB, 64 KiB], … 20 for (1 MiB, 2 MiB]
	step := uint64(1) << (p - 2)
	return (p-15)*4 + int(size/step) - 5
}

// slabClass returns the slab class of a request of n bytes, 0 < n ≤ MaxSlabSize.
func slabClass(n int) int {
	return int(slabClassOfQ[(n+Quantum-1)/Quantum])
}

// UsableSize is the number of bytes an allocation of n bytes really provides (n ≥ 0; 0 is
// served as the smallest class). Callers keep the whole of it as capacity, and pass any size with
// the same usable size to Free and Realloc.
func UsableSize(n int) int {
	if n <= MaxSlabSize {
		if n <= 0 {
			return MinSlabSize
		}
		return int(slabClassSize[slabClass(n)])
	}
	return int(roundClass(uint64(n)))
}
