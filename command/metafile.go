package command

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
)

// The metadata file (redis72.json) is a JSON array with one command a line, sorted by name,
// subcommands nested and sorted by name. Its field names are Redis's own (COMMAND INFO's key
// spec maps, COMMAND DOCS's map keys), so an entry reads like Redis's replies:
//
//	{"name":"get","arity":2,"flags":["readonly","fast"],"first_key":1,"last_key":1,"key_step":1,
//	 "acl_categories":["@read","@string","@fast"],"key_specs":[{"flags":["RO","access"],
//	 "begin_search":{"type":"index","spec":{"index":1}},"find_keys":{"type":"range",
//	 "spec":{"lastkey":0,"keystep":1,"limit":0}}}],"docs":{"summary":"Get the value of a key",
//	 "since":"1.0.0","group":"string","complexity":"O(1)","arguments":[{"name":"key",
//	 "type":"key","key_spec_index":0}]}}
//
// JSON rather than generated Go: the same file is what the generator writes, what the tests
// compare byte for byte, and what a reviewer diffs line by line per command; embedded, it
// costs its size in the binary (about 250 KB) and is parsed once, on first use.

// commandFlagOrder are COMMAND INFO's command flags, in the order Redis lists them
// (addReplyFlagsForCommand).
var commandFlagOrder = []string{"write", "readonly", "denyoom", "module", "admin", "pubsub",
	"noscript", "blocking", "loading", "stale", "skip_monitor", "skip_slowlog", "asking", "fast",
	"no_auth", "no_mandatory_keys", "no_async_loading", "no_multi", "movablekeys", "allow_busy"}

// aclCategoryOrder are Redis's ACL categories in the order COMMAND INFO lists them
// (ACLCommandCategories).
var aclCategoryOrder = []string{"keyspace", "read", "write", "set", "sortedset", "list", "hash",
	"string", "bitmap", "hyperloglog", "geo", "stream", "pubsub", "admin", "fast", "slow",
	"blocking", "dangerous", "connection", "transaction", "scripting"}

// argFlagOrder are an argument's flags in COMMAND DOCS's order.
var argFlagOrder = []string{"optional", "multiple", "multiple_token"}

// docFlagOrder are a command's doc flags in COMMAND DOCS's order.
var docFlagOrder = []string{"deprecated", "syscmd"}

// SortFlags puts command flags in COMMAND INFO's order (for the generator's hand-kept edits).
func SortFlags(flags []string) { sortByOrder(flags, commandFlagOrder) }

func sortByOrder(names []string, order []string) {
	slices.SortStableFunc(names, func(a, b string) int {
		return slices.Index(order, a) - slices.Index(order, b)
	})
}

type fileMeta struct {
	Name          string        `json:"name"`
	Arity         int           `json:"arity"`
	Flags         []string      `json:"flags"`
	FirstKey      int           `json:"first_key"`
	LastKey       int           `json:"last_key"`
	KeyStep       int           `json:"key_step"`
	ACLCategories []string      `json:"acl_categories"`
	Tips          []string      `json:"tips,omitempty"`
	KeySpecs      []fileKeySpec `json:"key_specs,omitempty"`
	Docs          fileDocs      `json:"docs"`
	Subcommands   []fileMeta    `json:"subcommands,omitempty"`
}

type fileKeySpec struct {
	Notes       string     `json:"notes,omitempty"`
	Flags       []string   `json:"flags"`
	BeginSearch fileSearch `json:"begin_search"`
	FindKeys    fileSearch `json:"find_keys"`
}

type fileSearch struct {
	Type string   `json:"type"`
	Spec fileSpec `json:"spec"`
}

// fileSpec holds the fields of every kind of begin_search and find_keys spec; a kind sets its
// own (index; keyword, startfrom; lastkey, keystep, limit; keynumidx, firstkey, keystep).
type fileSpec struct {
	Index     *int    `json:"index,omitempty"`
	Keyword   *string `json:"keyword,omitempty"`
	StartFrom *int    `json:"startfrom,omitempty"`
	KeyNumIdx *int    `json:"keynumidx,omitempty"`
	FirstKey  *int    `json:"firstkey,omitempty"`
	LastKey   *int    `json:"lastkey,omitempty"`
	KeyStep   *int    `json:"keystep,omitempty"`
	Limit     *int    `json:"limit,omitempty"`
}

type fileDocs struct {
	Summary         string      `json:"summary,omitempty"`
	Since           string      `json:"since,omitempty"`
	Group           string      `json:"group"`
	Complexity      string      `json:"complexity,omitempty"`
	DocFlags        []string    `json:"doc_flags,omitempty"`
	DeprecatedSince string      `json:"deprecated_since,omitempty"`
	ReplacedBy      string      `json:"replaced_by,omitempty"`
	History         [][2]string `json:"history,omitempty"`
	Arguments       []fileArg   `json:"arguments,omitempty"`
}

type fileArg struct {
	Name            string    `json:"name"`
	Type            string    `json:"type"`
	DisplayText     string    `json:"display_text,omitempty"`
	KeySpecIndex    *int      `json:"key_spec_index,omitempty"`
	Token           string    `json:"token,omitempty"`
	Summary         string    `json:"summary,omitempty"`
	Since           string    `json:"since,omitempty"`
	DeprecatedSince string    `json:"deprecated_since,omitempty"`
	Flags           []string  `json:"flags,omitempty"`
	Arguments       []fileArg `json:"arguments,omitempty"`
}

// EncodeMetaFile writes commands in the metadata file's format: the same commands give the
// same bytes. Subcommands must be sorted by name, as the commands are.
func EncodeMetaFile(commands []*Meta) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	b.WriteString("[\n")
	for i, m := range commands {
		if i > 0 && commands[i-1].Name >= m.Name {
			return nil, fmt.Errorf("commands not sorted by name at %s", m.Name)
		}
		if err := enc.Encode(toFile(m)); err != nil {
			return nil, err
		}
		if i < len(commands)-1 {
			b.Truncate(b.Len() - 1) // the encoder's newline
			b.WriteString(",\n")
		}
	}
	b.WriteString("]\n")
	return b.Bytes(), nil
}

func intp(n int) *int { return &n }

func toFile(m *Meta) fileMeta {
	f := fileMeta{Name: m.Name, Arity: m.Arity, Flags: nonNil(m.Flags), FirstKey: m.FirstKey,
		LastKey: m.LastKey, KeyStep: m.KeyStep, ACLCategories: nonNil(m.ACLCategories), Tips: m.Tips}
	for _, ks := range m.KeySpecs {
		fk := fileKeySpec{Notes: ks.Notes, Flags: ks.Flags.Names()}
		switch ks.BeginSearch {
		case BeginSearchIndex:
			fk.BeginSearch = fileSearch{Type: "index", Spec: fileSpec{Index: intp(ks.Index)}}
		case BeginSearchKeyword:
			kw := ks.Keyword
			fk.BeginSearch = fileSearch{Type: "keyword", Spec: fileSpec{Keyword: &kw, StartFrom: intp(ks.StartFrom)}}
		default:
			fk.BeginSearch = fileSearch{Type: "unknown"}
		}
		switch ks.FindKeys {
		case FindKeysRange:
			fk.FindKeys = fileSearch{Type: "range", Spec: fileSpec{LastKey: intp(ks.LastKey), KeyStep: intp(ks.KeyStep), Limit: intp(ks.Limit)}}
		case FindKeysKeyNum:
			fk.FindKeys = fileSearch{Type: "keynum", Spec: fileSpec{KeyNumIdx: intp(ks.KeyNumIdx), FirstKey: intp(ks.FirstKey), KeyStep: intp(ks.KeyStep)}}
		default:
			fk.FindKeys = fileSearch{Type: "unknown"}
		}
		f.KeySpecs = append(f.KeySpecs, fk)
	}
	d := &m.Docs
	f.Docs = fileDocs{Summary: d.Summary, Since: d.Since, Group: d.Group, Complexity: d.Complexity,
		DocFlags: d.DocFlags, DeprecatedSince: d.DeprecatedSince, ReplacedBy: d.ReplacedBy, Arguments: argsToFile(d.Arguments)}
	for _, h := range d.History {
		f.Docs.History = append(f.Docs.History, [2]string{h.Version, h.Change})
	}
	for _, s := range m.Subcommands {
		f.Subcommands = append(f.Subcommands, toFile(s))
	}
	return f
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

func argsToFile(args []Arg) []fileArg {
	var out []fileArg
	for _, a := range args {
		fa := fileArg{Name: a.Name, Type: a.Type, DisplayText: a.DisplayText, Token: a.Token, Summary: a.Summary,
			Since: a.Since, DeprecatedSince: a.DeprecatedSince, Flags: a.Flags, Arguments: argsToFile(a.Arguments)}
		if a.KeySpecIndex >= 0 {
			fa.KeySpecIndex = intp(a.KeySpecIndex)
		}
		out = append(out, fa)
	}
	return out
}

// DecodeMetaFile reads the metadata file, checking every name against Redis's vocabulary
// (flags, categories, key spec kinds), so that a broken file fails its tests, not a client.
func DecodeMetaFile(data []byte) ([]*Meta, error) {
	var files []fileMeta
	if err := json.Unmarshal(data, &files); err != nil {
		return nil, err
	}
	out := make([]*Meta, 0, len(files))
	for i := range files {
		m, err := fromFile(&files[i], "")
		if err != nil {
			return nil, err
		}
		out = append(out, m)
	}
	return out, nil
}

func fromFile(f *fileMeta, parent string) (*Meta, error) {
	m := &Meta{Name: f.Name, Arity: f.Arity, Flags: f.Flags, FirstKey: f.FirstKey, LastKey: f.LastKey,
		KeyStep: f.KeyStep, ACLCategories: f.ACLCategories, Tips: f.Tips}
	bad := func(format string, args ...any) (*Meta, error) {
		return nil, fmt.Errorf("%s: %s", f.Name, fmt.Sprintf(format, args...))
	}
	if parent != "" && (len(f.Name) <= len(parent)+1 || f.Name[:len(parent)+1] != parent+"|") {
		return bad("not a subcommand of %s", parent)
	}
	if !inOrder(f.Flags, commandFlagOrder) {
		return bad("unknown or misordered flags %v", f.Flags)
	}
	cats := make([]string, len(f.ACLCategories))
	for i, c := range f.ACLCategories {
		if len(c) < 2 || c[0] != '@' {
			return bad("category %q", c)
		}
		cats[i] = c[1:]
	}
	if !inOrder(cats, aclCategoryOrder) {
		return bad("unknown or misordered categories %v", f.ACLCategories)
	}
	for _, fk := range f.KeySpecs {
		ks := KeySpec{Notes: fk.Notes}
		for _, name := range fk.Flags {
			flag := keyFlagByName(name)
			if flag == 0 {
				return bad("key spec flag %q", name)
			}
			ks.Flags |= flag
		}
		s := &fk.BeginSearch.Spec
		switch fk.BeginSearch.Type {
		case "index":
			if s.Index == nil {
				return bad("begin_search index without its index")
			}
			ks.BeginSearch, ks.Index = BeginSearchIndex, *s.Index
		case "keyword":
			if s.Keyword == nil || s.StartFrom == nil {
				return bad("begin_search keyword without keyword or startfrom")
			}
			ks.BeginSearch, ks.Keyword, ks.StartFrom = BeginSearchKeyword, *s.Keyword, *s.StartFrom
		case "unknown":
		default:
			return bad("begin_search type %q", fk.BeginSearch.Type)
		}
		s = &fk.FindKeys.Spec
		switch fk.FindKeys.Type {
		case "range":
			if s.LastKey == nil || s.KeyStep == nil || s.Limit == nil {
				return bad("find_keys range without lastkey, keystep or limit")
			}
			ks.FindKeys, ks.LastKey, ks.KeyStep, ks.Limit = FindKeysRange, *s.LastKey, *s.KeyStep, *s.Limit
		case "keynum":
			if s.KeyNumIdx == nil || s.FirstKey == nil || s.KeyStep == nil {
				return bad("find_keys keynum without keynumidx, firstkey or keystep")
			}
			ks.FindKeys, ks.KeyNumIdx, ks.FirstKey, ks.KeyStep = FindKeysKeyNum, *s.KeyNumIdx, *s.FirstKey, *s.KeyStep
		case "unknown":
		default:
			return bad("find_keys type %q", fk.FindKeys.Type)
		}
		m.KeySpecs = append(m.KeySpecs, ks)
	}
	d := &f.Docs
	if !inOrder(d.DocFlags, docFlagOrder) {
		return bad("doc flags %v", d.DocFlags)
	}
	m.Docs = Docs{Summary: d.Summary, Since: d.Since, Group: d.Group, Complexity: d.Complexity,
		DocFlags: d.DocFlags, DeprecatedSince: d.DeprecatedSince, ReplacedBy: d.ReplacedBy}
	for _, h := range d.History {
		m.Docs.History = append(m.Docs.History, HistoryEntry{h[0], h[1]})
	}
	args, err := argsFromFile(d.Arguments, len(m.KeySpecs))
	if err != nil {
		return bad("%v", err)
	}
	m.Docs.Arguments = args
	for i := range f.Subcommands {
		if i > 0 && f.Subcommands[i-1].Name >= f.Subcommands[i].Name {
			return bad("subcommands not sorted at %s", f.Subcommands[i].Name)
		}
		sub, err := fromFile(&f.Subcommands[i], f.Name)
		if err != nil {
			return nil, err
		}
		m.Subcommands = append(m.Subcommands, sub)
	}
	return m, nil
}

func argsFromFile(files []fileArg, nspecs int) ([]Arg, error) {
	var out []Arg
	for _, fa := range files {
		a := Arg{Name: fa.Name, Type: fa.Type, DisplayText: fa.DisplayText, KeySpecIndex: -1, Token: fa.Token,
			Summary: fa.Summary, Since: fa.Since, DeprecatedSince: fa.DeprecatedSince, Flags: fa.Flags}
		if fa.KeySpecIndex != nil {
			if *fa.KeySpecIndex < 0 || *fa.KeySpecIndex >= nspecs {
				return nil, fmt.Errorf("argument %s: key_spec_index %d of %d specs", fa.Name, *fa.KeySpecIndex, nspecs)
			}
			a.KeySpecIndex = *fa.KeySpecIndex
		}
		switch fa.Type {
		case "string", "integer", "double", "key", "pattern", "unix-time", "pure-token", "oneof", "block":
		default:
			return nil, fmt.Errorf("argument %s: type %q", fa.Name, fa.Type)
		}
		if !inOrder(fa.Flags, argFlagOrder) {
			return nil, fmt.Errorf("argument %s: flags %v", fa.Name, fa.Flags)
		}
		if a.IsContainer() != (len(fa.Arguments) > 0) {
			return nil, fmt.Errorf("argument %s: a %s with %d arguments", fa.Name, fa.Type, len(fa.Arguments))
		}
		sub, err := argsFromFile(fa.Arguments, nspecs)
		if err != nil {
			return nil, err
		}
		a.Arguments = sub
		out = append(out, a)
	}
	return out, nil
}

// inOrder reports whether every name is in order (a known vocabulary) and names follow it.
func inOrder(names, order []string) bool {
	last := -1
	for _, n := range names {
		i := slices.Index(order, n)
		if i <= last {
			return false
		}
		last = i
	}
	return true
}
