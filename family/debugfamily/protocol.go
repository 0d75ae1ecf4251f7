package debugfamily

import (
	"github.com/kvserver/kvserver/command"
	"github.com/kvserver/kvserver/conv"
)

// errProtocolType is DEBUG PROTOCOL's error for a type it does not know.
const errProtocolType = "ERR Wrong protocol type name. Please use one of the following: " +
	"string|integer|double|bignum|null|array|set|map|attrib|push|verbatim|true|false"

// debugProtocolCommand: DEBUG PROTOCOL type — Redis's test value of each reply type, for
// clients' tests of their RESP2 and RESP3 parsers. The writer gives each its RESP2 shape on a
// RESP2 connection (a map as a flat array, a double as a bulk string …); an attribute exists
// only in RESP3 and a push is refused in RESP2, as Redis does.
func debugProtocolCommand(ctx *command.Ctx) {
	w, name := ctx.W, ctx.Args.Arg(2)
	switch {
	case conv.EqFold(name, "string"):
		w.BulkString("Hello World")
	case conv.EqFold(name, "integer"):
		w.Int(12345)
	case conv.EqFold(name, "double"):
		w.Double(3.141)
	case conv.EqFold(name, "bignum"):
		w.BigNumber("1234567999999999999999999999999999999")
	case conv.EqFold(name, "null"):
		w.Null()
	case conv.EqFold(name, "array"):
		w.Array(3)
		for j := range int64(3) {
			w.Int(j)
		}
	case conv.EqFold(name, "set"):
		w.Set(3)
		for j := range int64(3) {
			w.Int(j)
		}
	case conv.EqFold(name, "map"):
		w.Map(3)
		for j := range int64(3) {
			w.Int(j)
			w.Bool(j == 1)
		}
	case conv.EqFold(name, "attrib"):
		if w.Attribute(1) {
			w.BulkString("key-popularity")
			w.Array(2)
			w.BulkString("key:123")
			w.Int(90)
		}
		// An attribute is not a reply: a real one follows it.
		w.BulkString("Some real reply following the attribute")
	case conv.EqFold(name, "push"):
		if w.Proto() < 3 {
			w.Error("ERR RESP2 is not supported by this command")
			return
		}
		w.Push(2)
		w.BulkString("server-cpu-usage")
		w.Int(42)
		// A push is not the command's reply: a real one follows it.
		w.BulkString("Some real reply following the push reply")
	case conv.EqFold(name, "true"):
		w.Bool(true)
	case conv.EqFold(name, "false"):
		w.Bool(false)
	case conv.EqFold(name, "verbatim"):
		w.Verbatim("txt", "This is a verbatim\nstring")
	default:
		w.Error(errProtocolType)
	}
}
