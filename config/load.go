package config

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/kvserver/kvserver/conv"
)

// LoadError is a start-up configuration error. Its text is the block redis-server
// prints before exiting, followed by the file's name when the directive came from one:
//
//	*** FATAL CONFIG FILE ERROR (Redis 7.2.4) ***
//	Reading the configuration file, at line 2
//	>>> 'port abc'
//	argument couldn't be parsed into an integer
//	(in /etc/kvserver.conf)
type LoadError struct {
	File   string // the file the directive came from; "" for command-line arguments
	Line   int    // 1-based line in File, or the directive's position among the arguments; 0 if none
	Text   string // the line as Redis echoes it (trimmed; arguments quoted)
	Reason string // Redis's reason, e.g. "Bad directive or wrong number of arguments"
}

func (e *LoadError) Error() string {
	var b strings.Builder
	b.WriteString("*** FATAL CONFIG FILE ERROR (Redis " + RedisVersion + ") ***\n")
	if e.Line > 0 {
		fmt.Fprintf(&b, "Reading the configuration file, at line %d\n>>> '%s'\n", e.Line, e.Text)
	}
	b.WriteString(e.Reason)
	if e.File != "" {
		b.WriteString("\n(in " + e.File + ")")
	}
	return b.String()
}

// directive is one configuration line: its words, and where it came from.
type directive struct {
	args []string
	file string
	line int
	text string
}

// loader applies directives with start-up semantics (loadServerConfigFromString):
// immutable and protected parameters may be set, a MultiArg parameter given one
// argument splits it, and the first save line replaces the default rules while the
// following ones add to them. Values are staged and committed only if every directive
// is valid.
type loader struct {
	c        *Config
	staged   map[int]string
	setBy    map[int]directive // the last directive that set each staged parameter
	other    []directive
	saveSeen bool
	depth    int // include nesting
}

// maxIncludeDepth bounds include recursion (Redis has no bound and overflows its stack).
const maxIncludeDepth = 32

// Load applies directives, each a name and its arguments as ParseArgs returns them,
// with start-up semantics: immutable parameters may be set, `include` reads a file,
// and a save directive after the first adds to the rules instead of replacing them.
// Either every directive applies or none does; the error is a *LoadError.
// rename-command, user, loadmodule and module (dotted) directives are kept for the
// server to handle (Other). OnChange listeners are called for the values that changed.
func (c *Config) Load(directives [][]string) error {
	ds := make([]directive, 0, len(directives))
	for i, args := range directives {
		ds = append(ds, directive{args: args, line: i + 1, text: argsText(args)})
	}
	return c.load(ds)
}

// LoadFile reads a configuration file in redis.conf syntax (one directive a line,
// '#' comments, "double" and 'single' quoted arguments with Redis's escapes,
// `include` of further files or glob patterns) and applies it followed by overrides,
// the directives of the command line, as one Load: the arguments win, as they do in
// Redis, which appends them to the file's text.
func (c *Config) LoadFile(path string, overrides [][]string) error {
	ds, err := readFile(path)
	if err != nil {
		return err
	}
	for i, args := range overrides {
		ds = append(ds, directive{args: args, line: i + 1, text: argsText(args)})
	}
	return c.load(ds)
}

func (c *Config) load(ds []directive) error {
	c.writeMu.Lock()
	defer c.writeMu.Unlock()
	l := &loader{c: c, staged: map[int]string{}, setBy: map[int]directive{}}
	if err := l.apply(ds); err != nil {
		return err
	}
	if err := l.check(); err != nil {
		return err
	}
	c.mu.Lock()
	c.mu.other = append(c.mu.other, l.other...)
	c.mu.Unlock()
	c.commit(l.staged)
	return nil
}

// Other returns the directives Load kept but that are not parameters:
// rename-command, user, loadmodule and module configuration (names with a dot). The
// server must honour them or refuse to start.
func (c *Config) Other() [][]string {
	c.mu.RLock()
	defer c.mu.RUnlock()
	out := make([][]string, len(c.mu.other))
	for i, d := range c.mu.other {
		out[i] = append([]string(nil), d.args...)
	}
	return out
}

// Directive is a directive Load kept (Other), with where it was read.
type Directive struct {
	Args []string // the name, lower-cased, and its arguments
	at   directive
}

// Fail returns the start-up error for the directive: Redis's block naming its file, line and
// text, as the loader's own errors do.
func (d Directive) Fail(reason string) *LoadError {
	return &LoadError{File: d.at.file, Line: d.at.line, Text: d.at.text, Reason: reason}
}

// OtherDirectives is Other with each directive's place, for the server's errors.
func (c *Config) OtherDirectives() []Directive {
	c.mu.RLock()
	defer c.mu.RUnlock()
	out := make([]Directive, len(c.mu.other))
	for i, d := range c.mu.other {
		out[i] = Directive{Args: append([]string(nil), d.args...), at: d}
	}
	return out
}

// keep records a directive for the server (Other), its name lower-cased.
func (l *loader) keep(name string, d directive) {
	d.args = append([]string{name}, d.args[1:]...)
	l.other = append(l.other, d)
}

func (l *loader) current(i int) string {
	if v, ok := l.staged[i]; ok {
		return v
	}
	return l.c.value(i)
}

func (l *loader) apply(ds []directive) error {
	for _, d := range ds {
		if err := l.applyOne(d); err != nil {
			return err
		}
	}
	return nil
}

// deprecatedDirectives are accepted and ignored, with their argument count
// (loadServerConfigFromString's deprecated_configs).
var deprecatedDirectives = map[string]int{
	"list-max-ziplist-entries": 2,
	"list-max-ziplist-value":   2,
	"lua-replicate-commands":   2,
}

func (l *loader) applyOne(d directive) error {
	if len(d.args) == 0 {
		return nil
	}
	fail := func(reason string) error {
		return &LoadError{File: d.file, Line: d.line, Text: d.text, Reason: reason}
	}
	name := strings.ToLower(d.args[0])
	argc := len(d.args)
	if e, ok := lookup(name); ok {
		p := &params[e.param]
		if !p.Has(MultiArg) && argc != 2 {
			return fail("wrong number of arguments")
		}
		args := d.args[1:]
		if p.Has(MultiArg) && argc == 2 && args[0] != "" {
			// `bind "127.0.0.1 ::1"` and `--save "3600 1"`: one argument holding several.
			args, _ = conv.SplitArgs(args[0])
		}
		v, reason := p.setValue(l.current(e.param), args)
		if reason != "" {
			return fail(reason)
		}
		l.setBy[e.param] = d
		if e.param == idxSave {
			// The first save line replaces the defaults; later ones add rules, and
			// `save ""` clears them (setConfigSaveOption while reading_config_file).
			if l.saveSeen && v != "" && !(len(args) == 1 && args[0] == "") {
				if cur := l.current(idxSave); cur != "" {
					v = cur + " " + v
				}
			}
			l.saveSeen = true
		}
		l.staged[e.param] = v
		return nil
	}
	if n, ok := deprecatedDirectives[name]; ok && argc == n {
		return nil
	}
	switch {
	case name == "include" && argc == 2:
		return l.include(d.args[1], fail)
	case name == "rename-command" && argc == 3:
		l.keep(name, d)
		return nil
	case name == "user" && argc >= 2:
		l.keep(name, d)
		return nil
	case name == "loadmodule" && argc >= 2:
		if l.c.permissive {
			l.keep(name, d)
			return nil
		}
		return fail(refusedDirectiveReason(name))
	case strings.Contains(name, "."):
		if argc < 2 {
			return fail("Module config specified without value")
		}
		if l.c.permissive {
			l.keep(name, d)
			return nil
		}
		return fail("Module configuration '" + name + "' is not supported: kvserver does not load Redis modules")
	case name == "sentinel":
		return fail("sentinel directive while not in sentinel mode")
	}
	return fail("Bad directive or wrong number of arguments")
}

// include reads and applies another file (or every file a glob pattern matches, in
// order; a pattern that matches nothing is not an error), as loadServerConfig does.
func (l *loader) include(path string, fail func(string) error) error {
	if l.depth >= maxIncludeDepth {
		return fail("include nesting too deep")
	}
	files := []string{path}
	if strings.ContainsAny(path, "*?[") {
		var err error
		if files, err = filepath.Glob(path); err != nil {
			files = nil
		}
		sort.Strings(files)
	}
	for _, f := range files {
		ds, err := readFile(f)
		if err != nil {
			return err
		}
		l.depth++
		err = l.apply(ds)
		l.depth--
		if err != nil {
			return err
		}
	}
	return nil
}

// check is the end of loadServerConfigFromString, after kvserver's refusals: the log file must open, a cluster
// node cannot be a replica, and a cluster node has one database. Redis has changed
// directory to dir by then, so a relative log file is taken relative to dir.
func (l *loader) check() error {
	// A refused value is judged on the final one, so that a flag can override a file's line
	// (`/etc/redis/redis.conf --daemonize no`); the error names the line that set it.
	if !l.c.permissive {
		for i := range params {
			v, ok := l.staged[i]
			if !ok {
				continue
			}
			if reason := params[i].refusal(v); reason != "" {
				d := l.setBy[i]
				return &LoadError{File: d.file, Line: d.line, Text: d.text, Reason: reason}
			}
		}
	}
	if f := l.current(idxLogfile); f != "" {
		if !filepath.IsAbs(f) {
			f = filepath.Join(l.current(idxDir), f)
		}
		fp, err := os.OpenFile(f, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o666)
		if err != nil {
			return &LoadError{Reason: "Can't open the log file: " + strerror(err)}
		}
		fp.Close()
	}
	if l.current(idxClusterEnabled) == "yes" {
		if l.current(idxReplicaof) != "" {
			return &LoadError{Reason: "replicaof directive not allowed in cluster mode"}
		}
		if l.current(idxDatabases) != "1" {
			l.staged[idxDatabases] = "1"
		}
	}
	return nil
}

// readFile splits a configuration file into directives. It fails as Redis does on a
// file it cannot open, and with a *LoadError on unbalanced quotes.
func readFile(path string) ([]directive, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("Fatal error, can't open config file '%s': %s", path, strerror(err))
	}
	var ds []directive
	for i, line := range strings.Split(string(data), "\n") {
		line = strings.Trim(line, " \t\r\n")
		if line == "" || line[0] == '#' {
			continue
		}
		args, ok := conv.SplitArgs(line)
		if !ok {
			return nil, &LoadError{File: path, Line: i + 1, Text: line, Reason: "Unbalanced quotes in configuration line"}
		}
		if len(args) > 0 {
			ds = append(ds, directive{args: args, file: path, line: i + 1, text: line})
		}
	}
	return ds, nil
}

// argsText is the line Redis builds for a command-line directive: the name, then each
// argument quoted by sdscatrepr.
func argsText(args []string) string {
	if len(args) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString(args[0])
	for _, a := range args[1:] {
		b.WriteByte(' ')
		b.WriteString(conv.Repr(a))
	}
	return b.String()
}

// ErrHelp and ErrVersion are returned by ParseArgs for --help/-h and --version/-v.
var (
	ErrHelp    = errors.New("config: help requested")
	ErrVersion = errors.New("config: version requested")
)

// ParseArgs splits redis-server's command line (without the program name) as its
// main() does. An optional first argument not starting with '-' is the configuration
// file. Then each `--name` starts a directive and the arguments up to the next
// `--name` are its values: `--bind 127.0.0.1 ::1`, `--save ""`,
// `--save 3600 1 300 100`. As in Redis 7.2:
//
//   - a `--` word right after a name with no value yet is a value, not a name
//     (`--requirepass --secret`), except that `--save` followed by `--x` or last means
//     `--save ""`;
//   - "--port 6380" as one word is a name and its value;
//   - --help, -h, --version and -v are recognised as the first argument only
//     (ErrHelp, ErrVersion).
//
// Names are returned as given (Load lower-cases them). Reading the configuration
// from standard input ("-") is not supported.
func ParseArgs(args []string) (configFile string, directives [][]string, err error) {
	if len(args) == 0 {
		return "", nil, nil
	}
	switch args[0] {
	case "-v", "--version":
		return "", nil, ErrVersion
	case "--help", "-h":
		return "", nil, ErrHelp
	case "--test-memory", "--check-system":
		return "", nil, fmt.Errorf("%s is not supported", args[0])
	}
	j := 0
	if !strings.HasPrefix(args[0], "-") {
		configFile, j = args[0], 1
	}
	var cur []string
	started := false
	flush := func() {
		if started && len(cur) > 0 {
			directives = append(directives, cur)
		}
		cur, started = nil, false
	}
	handledLast := true // the current directive has at least one value
	for ; j < len(args); j++ {
		a := args[j]
		switch {
		case a == "-" && (j == 0 || j == len(args)-1):
			return "", nil, errors.New("reading the configuration from standard input is not supported")
		case handledLast && strings.HasPrefix(a, "--"):
			flush()
			started = true
			words, ok := conv.SplitArgs(a[2:])
			if !ok {
				return "", nil, fmt.Errorf("unbalanced quotes in argument %q", a)
			}
			cur = words
			if len(words) > 1 {
				break // "--port 6380": name and value in one word
			}
			handledLast = false
			last := j == len(args)-1
			switch {
			case strings.EqualFold(a, "--save") && (last || strings.HasPrefix(args[j+1], "--")):
				cur = append(cur, "")
				handledLast = !last
			case strings.EqualFold(a, "--sentinel") && !last && strings.HasPrefix(args[j+1], "--"):
				handledLast = true
			}
		default:
			if !started {
				started = true
			}
			cur = append(cur, a)
			handledLast = true
		}
	}
	flush()
	return configFile, directives, nil
}
