package server

import (
	"github.com/kvserver/kvserver/funclib"
	"github.com/kvserver/kvserver/info"
)

// startFunctions makes the registry of function libraries over the scripting engine and hands
// it to those that use it: the family (FUNCTION, FCALL), the persister (libraries in every
// snapshot, loaded with the dataset) and INFO's # Memory. It runs once the engine, the family
// and the persister exist.
func (s *Server) startFunctions() {
	st := &s.scripting
	reg := funclib.New(st.engine)
	st.family.Functions = reg
	s.persist.Functions = reg
	st.info = append(st.info, func(m *info.Scripting) {
		n := reg.Stats()
		m.NumFunctions, m.NumLibraries = int64(n.Functions), int64(n.Libraries)
		m.VMFunctions = st.engine.FunctionsVMMemory()
		m.Functions = reg.Memory()
	})
}
