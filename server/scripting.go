package server

import (
	"strconv"

	"go.uber.org/zap"

	"github.com/kvserver/kvserver/command"
	"github.com/kvserver/kvserver/config"
	"github.com/kvserver/kvserver/family/scriptfamily"
	"github.com/kvserver/kvserver/info"
	"github.com/kvserver/kvserver/scripting"
)

// scriptingState is the server's part of Lua scripting: the engine (compiled scripts, pooled
// Lua states), the pipeline's state of the runs (command.Scripts: BUSY, SCRIPT KILL), the
// family's rows, and the fillers of INFO's scripting fields.
type scriptingState struct {
	engine  *scripting.Engine
	scripts *command.Scripts
	family  *scriptfamily.Family
	// info fills # Memory's scripting fields; each part of scripting (EVAL's cache here,
	// functions in their file) adds its filler at start-up.
	info []func(m *info.Scripting)
}

// startScripting makes the engine, the runs' state and the family, before the command table
// (whose rows the family provides); tableReady finishes once the table exists.
func (s *Server) startScripting() {
	st := &s.scripting
	logf := func(level int, msg string) { s.scriptLog(level, msg) }
	st.engine = scripting.New(scripting.Options{Version: config.RedisVersion, VersionNum: redisVersionNum(config.RedisVersion), Log: logf})
	st.scripts = command.NewScripts(&s.pipeline, nil)
	st.scripts.Log = logf
	st.family = scriptfamily.New(st.engine, st.scripts)
	st.info = append(st.info, func(m *info.Scripting) {
		m.VMEval = st.engine.VMMemory()
		m.ScriptsEval = st.engine.ScriptsMemory()
		m.CachedScripts = int64(st.engine.Len())
	})
	s.startFunctions()
}

// scriptingTableReady gives the runs the command table redis.call looks commands up in, and
// acts on busy-reply-threshold (lua-time-limit).
func (s *Server) scriptingTableReady() {
	st := &s.scripting
	st.scripts.Table = s.cmds
	apply := func(v string) {
		ms, _ := strconv.ParseInt(v, 10, 64)
		st.scripts.SetBusyThreshold(ms)
	}
	v, _ := s.cfg.Value("busy-reply-threshold")
	apply(v)
	s.cfg.OnChange("busy-reply-threshold", apply)
}

// scriptingInfo is # Memory's scripting fields.
func (s *Server) scriptingInfo() info.Scripting {
	var m info.Scripting
	for _, fill := range s.scripting.info {
		fill(&m)
	}
	return m
}

// scriptLog is redis.log and the scripts' warnings (slow scripts), at Redis's levels.
func (s *Server) scriptLog(level int, msg string) {
	switch level {
	case scripting.LogDebug, scripting.LogVerbose:
		s.log.Debug(msg)
	case scripting.LogNotice:
		s.log.Info(msg)
	default:
		s.log.Warn(msg, zap.String("source", "script"))
	}
}

// redisVersionNum is redis.REDIS_VERSION_NUM of a version "major.minor.patch": 0x00MMmmpp.
func redisVersionNum(v string) int {
	n, part := 0, 0
	for i := 0; i <= len(v); i++ {
		if i == len(v) || v[i] == '.' {
			n = n<<8 | part
			part = 0
			continue
		}
		part = part*10 + int(v[i]-'0')
	}
	return n
}
