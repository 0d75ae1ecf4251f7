package command

import (
	"strings"

	"github.com/kvserver/kvserver/conv"
	"github.com/kvserver/kvserver/glob"
	"github.com/kvserver/kvserver/querybuf"
	"github.com/kvserver/kvserver/replyerr"
	"github.com/kvserver/kvserver/resp"
)

// The replies of COMMAND and its subcommands, in the shapes of Redis 7.2's server.c
// (addReplyCommandInfo, addReplyCommandDocs, getKeysSubcommandImpl), RESP2 and RESP3 from
// the same calls. They take the metadata of what the server implements: a container's Meta
// whose Subcommands are the implemented ones (see WithSubcommands). Redis lists commands and
// subcommands in its hash tables' order, which is random; these list them in the order given.

// WithSubcommands returns a copy of m whose Subcommands are subs: a container as a server
// that implements only some of its subcommands shows it.
func (m *Meta) WithSubcommands(subs []*Meta) *Meta {
	c := *m
	c.Subcommands = subs
	return &c
}

// WriteCommandInfo writes one COMMAND INFO entry, Redis 7's ten fields: name, arity, flags,
// first key, last key, step, ACL categories, tips, key specs, subcommands. A nil m is the null
// COMMAND INFO gives an unknown name.
func WriteCommandInfo(w *resp.Writer, m *Meta) {
	if m == nil {
		w.Null()
		return
	}
	w.Array(10)
	w.BulkString(m.Name)
	w.Int(int64(m.Arity))
	writeSimpleSet(w, m.Flags)
	w.Int(int64(m.FirstKey))
	w.Int(int64(m.LastKey))
	w.Int(int64(m.KeyStep))
	writeSimpleSet(w, m.ACLCategories)
	w.Set(len(m.Tips))
	for _, t := range m.Tips {
		w.BulkString(t)
	}
	w.Set(len(m.KeySpecs))
	for i := range m.KeySpecs {
		writeKeySpec(w, &m.KeySpecs[i])
	}
	if len(m.Subcommands) == 0 {
		w.Set(0)
		return
	}
	w.Array(len(m.Subcommands))
	for _, s := range m.Subcommands {
		WriteCommandInfo(w, s)
	}
}

func writeSimpleSet(w *resp.Writer, names []string) {
	w.Set(len(names))
	for _, n := range names {
		w.Simple(n)
	}
}

func writeKeyFlags(w *resp.Writer, f KeyFlags) {
	n := 0
	for i := range keyFlagNames {
		if f&(1<<i) != 0 {
			n++
		}
	}
	w.Set(n)
	for i, name := range keyFlagNames {
		if f&(1<<i) != 0 {
			w.Simple(name)
		}
	}
}

// writeKeySpec is addReplyCommandKeySpecs's map of one spec: notes, flags, begin_search and
// find_keys, each a type and a spec map.
func writeKeySpec(w *resp.Writer, ks *KeySpec) {
	if ks.Notes != "" {
		w.Map(4)
		w.BulkString("notes")
		w.BulkString(ks.Notes)
	} else {
		w.Map(3)
	}
	w.BulkString("flags")
	writeKeyFlags(w, ks.Flags)
	w.BulkString("begin_search")
	w.Map(2)
	w.BulkString("type")
	switch ks.BeginSearch {
	case BeginSearchIndex:
		w.BulkString("index")
		w.BulkString("spec")
		w.Map(1)
		writeIntField(w, "index", ks.Index)
	case BeginSearchKeyword:
		w.BulkString("keyword")
		w.BulkString("spec")
		w.Map(2)
		w.BulkString("keyword")
		w.BulkString(ks.Keyword)
		writeIntField(w, "startfrom", ks.StartFrom)
	default:
		w.BulkString("unknown")
		w.BulkString("spec")
		w.Map(0)
	}
	w.BulkString("find_keys")
	w.Map(2)
	w.BulkString("type")
	switch ks.FindKeys {
	case FindKeysRange:
		w.BulkString("range")
		w.BulkString("spec")
		w.Map(3)
		writeIntField(w, "lastkey", ks.LastKey)
		writeIntField(w, "keystep", ks.KeyStep)
		writeIntField(w, "limit", ks.Limit)
	case FindKeysKeyNum:
		w.BulkString("keynum")
		w.BulkString("spec")
		w.Map(3)
		writeIntField(w, "keynumidx", ks.KeyNumIdx)
		writeIntField(w, "firstkey", ks.FirstKey)
		writeIntField(w, "keystep", ks.KeyStep)
	default:
		w.BulkString("unknown")
		w.BulkString("spec")
		w.Map(0)
	}
}

func writeIntField(w *resp.Writer, name string, n int) {
	w.BulkString(name)
	w.Int(int64(n))
}

func writeStringField(w *resp.Writer, name, value string) {
	if value != "" {
		w.BulkString(name)
		w.BulkString(value)
	}
}

// WriteCommandInfos writes the COMMAND reply (and COMMAND INFO's without names): every
// command's entry.
func WriteCommandInfos(w *resp.Writer, cmds []*Meta) {
	w.Array(len(cmds))
	for _, m := range cmds {
		WriteCommandInfo(w, m)
	}
}

// WriteCommandDocs writes one command's COMMAND DOCS map: summary, since, group, complexity,
// doc_flags, deprecated_since, replaced_by, history, arguments and subcommands, each when
// present (the group always).
func WriteCommandDocs(w *resp.Writer, m *Meta) {
	d := &m.Docs
	n := 1
	for _, present := range [...]bool{d.Summary != "", d.Since != "", d.Complexity != "", len(d.DocFlags) > 0,
		d.DeprecatedSince != "", d.ReplacedBy != "", len(d.History) > 0, len(d.Arguments) > 0, len(m.Subcommands) > 0} {
		if present {
			n++
		}
	}
	w.Map(n)
	writeStringField(w, "summary", d.Summary)
	writeStringField(w, "since", d.Since)
	w.BulkString("group")
	w.BulkString(d.Group)
	writeStringField(w, "complexity", d.Complexity)
	if len(d.DocFlags) > 0 {
		w.BulkString("doc_flags")
		writeSimpleSet(w, d.DocFlags)
	}
	writeStringField(w, "deprecated_since", d.DeprecatedSince)
	writeStringField(w, "replaced_by", d.ReplacedBy)
	if len(d.History) > 0 {
		w.BulkString("history")
		w.Set(len(d.History))
		for _, h := range d.History {
			w.Array(2)
			w.BulkString(h.Version)
			w.BulkString(h.Change)
		}
	}
	if len(d.Arguments) > 0 {
		w.BulkString("arguments")
		writeDocArgs(w, d.Arguments)
	}
	if len(m.Subcommands) > 0 {
		w.BulkString("subcommands")
		WriteCommandDocsMap(w, m.Subcommands)
	}
}

// WriteCommandDocsMap writes COMMAND DOCS's map of full name to documentation.
func WriteCommandDocsMap(w *resp.Writer, cmds []*Meta) {
	w.Map(len(cmds))
	for _, m := range cmds {
		w.BulkString(m.Name)
		WriteCommandDocs(w, m)
	}
}

// writeDocArgs is addReplyCommandArgList: an array of maps. An argument that is not a oneof or
// a block carries a display_text (its name unless Redis gives another), as in Redis 7.2.
func writeDocArgs(w *resp.Writer, args []Arg) {
	w.Array(len(args))
	for i := range args {
		a := &args[i]
		n := 3 // name, type, and display_text or arguments
		for _, present := range [...]bool{a.KeySpecIndex >= 0, a.Token != "", a.Summary != "", a.Since != "",
			a.DeprecatedSince != "", len(a.Flags) > 0} {
			if present {
				n++
			}
		}
		w.Map(n)
		writeStringField(w, "name", a.Name)
		writeStringField(w, "type", a.Type)
		if !a.IsContainer() {
			display := a.DisplayText
			if display == "" {
				display = a.Name
			}
			writeStringField(w, "display_text", display)
		}
		if a.KeySpecIndex >= 0 {
			writeIntField(w, "key_spec_index", a.KeySpecIndex)
		}
		writeStringField(w, "token", a.Token)
		writeStringField(w, "summary", a.Summary)
		writeStringField(w, "since", a.Since)
		writeStringField(w, "deprecated_since", a.DeprecatedSince)
		if len(a.Flags) > 0 {
			w.BulkString("flags")
			writeSimpleSet(w, a.Flags)
		}
		if a.IsContainer() {
			w.BulkString("arguments")
			writeDocArgs(w, a.Arguments)
		}
	}
}

// ListFilter is COMMAND LIST's FILTERBY: a module, an ACL category or a glob pattern.
type ListFilter struct {
	Kind ListFilterKind
	Arg  string
}

// ListFilterKind says what a ListFilter matches.
type ListFilterKind uint8

// The FILTERBY kinds.
const (
	ListAll ListFilterKind = iota
	ListModule
	ListACLCat
	ListPattern
)

// ParseListFilter reads COMMAND LIST's options from args.Arg(from) on: nothing, or FILTERBY
// MODULE|ACLCAT|PATTERN and its argument (the last one given wins, as in Redis). ok is false
// for anything else: the caller answers Redis's syntax error.
func ParseListFilter(args querybuf.Args, from int) (f ListFilter, ok bool) {
	for i := from; i < args.Len(); i += 3 {
		if !conv.EqFold(args.Arg(i), "filterby") || args.Len()-1-i != 2 {
			return ListFilter{}, false
		}
		switch kind := args.Arg(i + 1); {
		case conv.EqFold(kind, "module"):
			f.Kind = ListModule
		case conv.EqFold(kind, "aclcat"):
			f.Kind = ListACLCat
		case conv.EqFold(kind, "pattern"):
			f.Kind = ListPattern
		default:
			return ListFilter{}, false
		}
		f.Arg = string(args.Arg(i + 2))
	}
	return f, true
}

// Match reports whether a command passes the filter. kvserver has no modules, so MODULE
// matches nothing, as in Redis for a module not loaded; an unknown category matches nothing;
// a pattern matches the full name, case-insensitively.
func (f ListFilter) Match(m *Meta) bool {
	switch f.Kind {
	case ListModule:
		return false
	case ListACLCat:
		return m.InCategory(f.Arg)
	case ListPattern:
		return glob.MatchString(f.Arg, m.Name, true)
	}
	return true
}

// WriteCommandList writes COMMAND LIST: the full names of the commands and their
// subcommands that pass the filter, each container before its subcommands.
func WriteCommandList(w *resp.Writer, cmds []*Meta, f ListFilter) {
	n := 0
	for _, m := range cmds {
		if f.Match(m) {
			n++
		}
		for _, s := range m.Subcommands {
			if f.Match(s) {
				n++
			}
		}
	}
	w.Array(n)
	for _, m := range cmds {
		if f.Match(m) {
			w.BulkString(m.Name)
		}
		for _, s := range m.Subcommands {
			if f.Match(s) {
				w.BulkString(s.Name)
			}
		}
	}
}

// The errors of COMMAND GETKEYS, Redis's words.
const (
	ErrGetKeysInvalidCommand replyerr.Error = "ERR Invalid command specified"
	ErrGetKeysNoKeys         replyerr.Error = "ERR The command has no key arguments"
	ErrGetKeysArity          replyerr.Error = "ERR Invalid number of arguments specified for command"
	ErrGetKeysInvalidArgs    replyerr.Error = "ERR Invalid arguments specified for command"
)

// WriteCommandGetKeys answers COMMAND GETKEYS (withFlags false) or GETKEYSANDFLAGS for the
// command line that starts at args.Arg(first), whose command (resolved to a subcommand when
// it has one) is m, or nil when the server has no such command. Each key is the argument
// itself; with flags, a pair of the key and its spec's flags.
func WriteCommandGetKeys(w *resp.Writer, m *Meta, args querybuf.Args, first int, withFlags bool) {
	argc := args.Len() - first
	switch {
	case m == nil:
		w.Error(ErrGetKeysInvalidCommand.Error())
		return
	case !m.HasKeys():
		w.Error(ErrGetKeysNoKeys.Error())
		return
	case m.Arity > 0 && m.Arity != argc || argc < -m.Arity:
		w.Error(ErrGetKeysArity.Error())
		return
	}
	var buf [16]KeyRef
	keys := GetKeysFrom(m, args, first, buf[:0])
	if len(keys) == 0 {
		if m.noMandatoryKeys {
			w.Array(0)
		} else {
			w.Error(ErrGetKeysInvalidArgs.Error())
		}
		return
	}
	w.Array(len(keys))
	for _, k := range keys {
		if withFlags {
			w.Array(2)
			w.Bulk(args.Arg(first + k.Pos))
			writeKeyFlags(w, k.Flags)
		} else {
			w.Bulk(args.Arg(first + k.Pos))
		}
	}
}

// SubcommandName returns the bare name of a subcommand's full name ("get" of "config|get"),
// or the name itself.
func SubcommandName(fullName string) string {
	if i := strings.IndexByte(fullName, '|'); i >= 0 {
		return fullName[i+1:]
	}
	return fullName
}
