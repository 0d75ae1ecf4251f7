//go:build !invariants

package alloc

// invariantsOn is false: the self-checks of the invariants build tag compile to nothing.
const invariantsOn = false

type invariantState struct{}

func (s *invariantState) init()                               {}
func (s *invariantState) allocated(a *Arena, h Handle, c int) {}
func (s *invariantState) freed(a *Arena, h Handle, c int)     {}
