package info

import (
	"strings"

	"github.com/kvserver/kvserver/command"
	"github.com/kvserver/kvserver/config"
	"github.com/kvserver/kvserver/keyspace"
)

// Commands returns the INFO row, fresh on each call (command.New finishes it in place). INFO
// reads counters only: the pipeline locks no shard for it.
func Commands(src Source) []*command.Command {
	return []*command.Command{
		{Name: "info", Locking: command.LockNone, Handler: func(ctx *command.Ctx) {
			sel := selectSections(ctx.Args.Len()-1, func(i int) []byte { return ctx.Args.Arg(i + 1) })
			ctx.W.Verbatim("txt", Generate(src, ctx.KS, ctx.Cfg, sel))
		}},
	}
}

// env is what a section writer reads: the server's Source, the keyspace, the configuration,
// and the hooks, fetched once per request.
type env struct {
	src   Source
	ks    *keyspace.Keyspace
	cfg   *config.Config
	hooks Hooks
}

// section is one INFO section: its header's name, how requests name it, and its writer. A
// writer that returns false writes nothing and its section is left out, header and all.
type section struct {
	header    string   // "CPU": the header is "# CPU"
	names     []string // lower-case names that select it ("modules" and "module_list")
	isDefault bool     // part of bare INFO and of "default"
	inAll     bool     // part of "all" (and "everything")
	write     func(e *env, f fields) bool
}

// sections in Redis 7.2's order (server.c genRedisInfoString). "debug" is Redis's only
// section outside "all": kvserver does not time its loops' cycles yet, so it has none.
var sections = []section{
	{"Server", []string{"server"}, true, true, writeServer},
	{"Clients", []string{"clients"}, true, true, writeClients},
	{"Memory", []string{"memory"}, true, true, writeMemory},
	{"Persistence", []string{"persistence"}, true, true, writePersistence},
	{"Stats", []string{"stats"}, true, true, writeStats},
	{"Replication", []string{"replication"}, true, true, writeReplication},
	{"CPU", []string{"cpu"}, true, true, writeCPU},
	// No modules can be loaded: the section is its header only.
	{"Modules", []string{"module_list", "modules"}, true, true, func(*env, fields) bool { return true }},
	{"Commandstats", []string{"commandstats"}, false, true, hookSection(func(h Hooks) func(*strings.Builder) { return h.CommandStats })},
	{"Errorstats", []string{"errorstats"}, true, true, writeErrorstats},
	{"Latencystats", []string{"latencystats"}, false, true, hookSection(func(h Hooks) func(*strings.Builder) { return h.LatencyStats })},
	{"Cluster", []string{"cluster"}, true, true, func(_ *env, f fields) bool { f.int("cluster_enabled", 0); return true }},
	{"Keyspace", []string{"keyspace"}, true, true, writeKeyspace},
}

// Selection is which sections a request asks for (Redis 7.2's genInfoSectionDict): named
// sections, with "default" adding the default ones, "all" every section but debug, and
// "everything" all of them and the modules' own sections.
type Selection struct {
	all   bool
	names map[string]bool // lower case
}

// selectSections reads INFO's n arguments: none is "default". Names are matched without
// regard to case; an unknown name selects nothing.
func selectSections(n int, arg func(i int) []byte) Selection {
	sel := Selection{names: map[string]bool{}}
	if n == 0 {
		sel.names["default"] = true
	}
	for i := 0; i < n; i++ {
		switch name := strings.ToLower(string(arg(i))); name {
		case "all", "everything":
			// Without modules, everything adds nothing to all.
			sel.all = true
		default:
			sel.names[name] = true
		}
	}
	return sel
}

// SelectNames is the Selection of INFO's arguments given as strings (for tests and callers
// outside a command).
func SelectNames(args ...string) Selection {
	return selectSections(len(args), func(i int) []byte { return []byte(args[i]) })
}

// wants reports whether sel includes sec.
func (sel Selection) wants(sec *section) bool {
	if sel.all && sec.inAll || sel.names["default"] && sec.isDefault {
		return true
	}
	for _, n := range sec.names {
		if sel.names[n] {
			return true
		}
	}
	return false
}

// Generate writes the sections sel asks for, as INFO replies them: "# Header" lines, fields
// "name:value" ending in CRLF, one empty line between sections.
func Generate(src Source, ks *keyspace.Keyspace, cfg *config.Config, sel Selection) string {
	e := &env{src: src, ks: ks, cfg: cfg, hooks: src.Hooks()}
	var b, sb strings.Builder
	for i := range sections {
		sec := &sections[i]
		if !sel.wants(sec) {
			continue
		}
		sb.Reset()
		if !sec.write(e, fields{&sb}) {
			continue
		}
		if b.Len() > 0 {
			b.WriteString("\r\n")
		}
		b.WriteString("# ")
		b.WriteString(sec.header)
		b.WriteString("\r\n")
		b.WriteString(sb.String())
	}
	return b.String()
}

// hookSection is the writer of a section the statistics package keeps: left out while its
// hook is nil (a header with no lines would claim that no command ran).
func hookSection(pick func(Hooks) func(*strings.Builder)) func(*env, fields) bool {
	return func(e *env, f fields) bool {
		w := pick(e.hooks)
		if w == nil {
			return false
		}
		w(f.b)
		return true
	}
}

// writeErrorstats writes the errorstats hook's lines; without the hook the section is its
// header only, as kvserver has always printed it (a default section that clients expect).
func writeErrorstats(e *env, f fields) bool {
	if e.hooks.ErrorStats != nil {
		e.hooks.ErrorStats(f.b)
	}
	return true
}
