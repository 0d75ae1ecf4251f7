// Command gencommandmeta writes command/redis72.json, Redis 7.2's metadata of every command
// (what COMMAND INFO and COMMAND DOCS say), out of a running redis-server's own COMMAND INFO
// and COMMAND DOCS, plus what Redis 7.2 changed after 7.0.15 (the redis-server Debian ships),
// kept by hand in redis72.go with the reason of each change:
//
//	redis-server --port 7390 --save '' &
//	go run ./scripts/gencommandmeta -addr 127.0.0.1:7390 -o command/redis72.json
//
// The same server gives the same bytes: Redis lists commands and subcommands in its hash
// tables' random order, and the file sorts them by name. The server must be a 7.0: the
// hand-kept list describes the step from 7.0.15 to 7.2.4 (the version kvserver reports).
package main

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"sort"
	"strconv"
	"strings"

	"github.com/kvserver/kvserver/command"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:6379", "address of the redis-server 7.0 to ask")
	out := flag.String("o", "", "file to write (default: standard output)")
	flag.Parse()
	data, err := generate(*addr)
	if err == nil {
		if *out == "" {
			_, err = os.Stdout.Write(data)
		} else {
			err = os.WriteFile(*out, data, 0o644)
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "gencommandmeta:", err)
		os.Exit(1)
	}
}

func generate(addr string) ([]byte, error) {
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	r := bufio.NewReaderSize(conn, 1<<20)
	ask := func(args ...string) (value, error) {
		var b strings.Builder
		fmt.Fprintf(&b, "*%d\r\n", len(args))
		for _, a := range args {
			fmt.Fprintf(&b, "$%d\r\n%s\r\n", len(a), a)
		}
		if _, err := io.WriteString(conn, b.String()); err != nil {
			return value{}, err
		}
		return read(r)
	}
	info, err := ask("INFO", "server")
	if err != nil {
		return nil, err
	}
	if !strings.Contains(info.str, "redis_version:7.0.") {
		return nil, errors.New("the server is not a Redis 7.0: redis72.go describes the step from 7.0.15 to 7.2")
	}
	infos, err := ask("COMMAND", "INFO")
	if err != nil {
		return nil, err
	}
	docs, err := ask("COMMAND", "DOCS")
	if err != nil {
		return nil, err
	}
	byName := map[string]*command.Meta{}
	var top []*command.Meta
	for _, v := range infos.arr {
		m, err := metaFromInfo(v)
		if err != nil {
			return nil, err
		}
		top = append(top, m)
		byName[m.Name] = m
		for _, s := range m.Subcommands {
			byName[s.Name] = s
		}
	}
	if err := addDocs(byName, docs); err != nil {
		return nil, err
	}
	top, err = apply72(top)
	if err != nil {
		return nil, err
	}
	sortMetas(top)
	return command.EncodeMetaFile(top)
}

func sortMetas(ms []*command.Meta) {
	sort.Slice(ms, func(i, j int) bool { return ms[i].Name < ms[j].Name })
	for _, m := range ms {
		sortMetas(m.Subcommands)
	}
}

// metaFromInfo reads one COMMAND INFO entry: name, arity, flags, first, last, step,
// categories, tips, key specs, subcommands.
func metaFromInfo(v value) (*command.Meta, error) {
	if len(v.arr) != 10 {
		return nil, fmt.Errorf("COMMAND INFO entry of %d fields, want 10", len(v.arr))
	}
	m := &command.Meta{
		Name:          strings.ToLower(v.arr[0].str),
		Arity:         int(v.arr[1].num),
		Flags:         strs(v.arr[2]),
		FirstKey:      int(v.arr[3].num),
		LastKey:       int(v.arr[4].num),
		KeyStep:       int(v.arr[5].num),
		ACLCategories: strs(v.arr[6]),
		Tips:          strs(v.arr[7]),
	}
	if len(m.Tips) == 0 {
		m.Tips = nil
	}
	for _, s := range v.arr[8].arr {
		ks, err := keySpec(pairs(s))
		if err != nil {
			return nil, fmt.Errorf("%s: %v", m.Name, err)
		}
		m.KeySpecs = append(m.KeySpecs, ks)
	}
	for _, s := range v.arr[9].arr {
		sub, err := metaFromInfo(s)
		if err != nil {
			return nil, err
		}
		m.Subcommands = append(m.Subcommands, sub)
	}
	return m, nil
}

func keySpec(p map[string]value) (command.KeySpec, error) {
	ks := command.KeySpec{Notes: p["notes"].str}
	for _, f := range strs(p["flags"]) {
		flag := keyFlag(f)
		if flag == 0 {
			return ks, fmt.Errorf("key spec flag %q", f)
		}
		ks.Flags |= flag
	}
	bs, fk := pairs(p["begin_search"]), pairs(p["find_keys"])
	spec := pairs(bs["spec"])
	switch bs["type"].str {
	case "index":
		ks.BeginSearch, ks.Index = command.BeginSearchIndex, int(spec["index"].num)
	case "keyword":
		ks.BeginSearch, ks.Keyword, ks.StartFrom = command.BeginSearchKeyword, spec["keyword"].str, int(spec["startfrom"].num)
	case "unknown":
	default:
		return ks, fmt.Errorf("begin_search %q", bs["type"].str)
	}
	spec = pairs(fk["spec"])
	switch fk["type"].str {
	case "range":
		ks.FindKeys = command.FindKeysRange
		ks.LastKey, ks.KeyStep, ks.Limit = int(spec["lastkey"].num), int(spec["keystep"].num), int(spec["limit"].num)
	case "keynum":
		ks.FindKeys = command.FindKeysKeyNum
		ks.KeyNumIdx, ks.FirstKey, ks.KeyStep = int(spec["keynumidx"].num), int(spec["firstkey"].num), int(spec["keystep"].num)
	case "unknown":
	default:
		return ks, fmt.Errorf("find_keys %q", fk["type"].str)
	}
	return ks, nil
}

func keyFlag(name string) command.KeyFlags {
	for f := command.KeyRO; f <= command.KeyVariableFlags; f <<= 1 {
		if names := f.Names(); names[0] == name {
			return f
		}
	}
	return 0
}

// addDocs reads COMMAND DOCS (a map of full name to docs, subcommands nested) into the metas.
func addDocs(byName map[string]*command.Meta, v value) error {
	for i := 0; i+1 < len(v.arr); i += 2 {
		name := strings.ToLower(v.arr[i].str)
		m := byName[name]
		if m == nil {
			return fmt.Errorf("COMMAND DOCS has %s, COMMAND INFO has not", name)
		}
		p := pairs(v.arr[i+1])
		d := &m.Docs
		d.Summary, d.Since, d.Group, d.Complexity = p["summary"].str, p["since"].str, p["group"].str, p["complexity"].str
		d.DeprecatedSince, d.ReplacedBy = p["deprecated_since"].str, p["replaced_by"].str
		if f := strs(p["doc_flags"]); len(f) > 0 {
			d.DocFlags = f
		}
		for _, h := range p["history"].arr {
			d.History = append(d.History, command.HistoryEntry{Version: h.arr[0].str, Change: h.arr[1].str})
		}
		d.Arguments = args(p["arguments"])
		if subs, ok := p["subcommands"]; ok {
			if err := addDocs(byName, subs); err != nil {
				return err
			}
		}
	}
	return nil
}

func args(v value) []command.Arg {
	var out []command.Arg
	for _, a := range v.arr {
		p := pairs(a)
		arg := command.Arg{Name: p["name"].str, Type: p["type"].str, KeySpecIndex: -1, Token: p["token"].str,
			Summary: p["summary"].str, Since: p["since"].str, DeprecatedSince: p["deprecated_since"].str,
			Flags: strs(p["flags"]), Arguments: args(p["arguments"])}
		if d, ok := p["display_text"]; ok && d.str != arg.Name {
			arg.DisplayText = d.str
		}
		if k, ok := p["key_spec_index"]; ok {
			arg.KeySpecIndex = int(k.num)
		}
		if len(arg.Flags) == 0 {
			arg.Flags = nil
		}
		out = append(out, arg)
	}
	return out
}

func strs(v value) []string {
	out := []string{}
	for _, e := range v.arr {
		out = append(out, e.str)
	}
	return out
}

// value is a RESP2 reply: a string (simple or bulk), an integer or an array.
type value struct {
	str string
	num int64
	arr []value
}

func read(r *bufio.Reader) (value, error) {
	line, err := r.ReadString('\n')
	if err != nil {
		return value{}, err
	}
	line = strings.TrimRight(line, "\r\n")
	if line == "" {
		return value{}, errors.New("empty line")
	}
	switch line[0] {
	case '+':
		return value{str: line[1:]}, nil
	case '-':
		return value{}, errors.New(line[1:])
	case ':':
		n, err := strconv.ParseInt(line[1:], 10, 64)
		return value{num: n}, err
	case '$':
		n, err := strconv.Atoi(line[1:])
		if err != nil || n < 0 {
			return value{}, err
		}
		b := make([]byte, n+2)
		if _, err := io.ReadFull(r, b); err != nil {
			return value{}, err
		}
		return value{str: string(b[:n])}, nil
	case '*':
		n, err := strconv.Atoi(line[1:])
		if err != nil {
			return value{}, err
		}
		v := value{arr: []value{}}
		for i := 0; i < n; i++ {
			e, err := read(r)
			if err != nil {
				return value{}, err
			}
			v.arr = append(v.arr, e)
		}
		return v, nil
	}
	return value{}, fmt.Errorf("unexpected reply %q", line)
}

// pairs reads a flat RESP2 map.
func pairs(v value) map[string]value {
	m := map[string]value{}
	for i := 0; i+1 < len(v.arr); i += 2 {
		m[v.arr[i].str] = v.arr[i+1]
	}
	return m
}
