package keyfamily

import (
	"strings"
	"testing"
)

func TestObject(t *testing.T) {
	wd := newWorld(t)
	c := wd.conn(t)
	c.script(`
SET o:int 12345 -> OK
SET o:emb hello -> OK
SET o:raw ` + strings.Repeat("x", 200) + ` -> OK
SET o:neg -5 -> OK
SET o:big 10000 -> OK
OBJECT ENCODING o:int -> "int"
OBJECT ENCODING o:emb -> "embstr"
OBJECT ENCODING o:raw -> "raw"
OBJECT ENCODING o:missing -> (nil)
OBJECT REFCOUNT o:emb -> (integer) 1
OBJECT REFCOUNT o:int -> (integer) 1
OBJECT REFCOUNT o:big -> (integer) 1
OBJECT REFCOUNT o:neg -> (integer) 1
SET o:shared 9999 -> OK
OBJECT REFCOUNT o:shared -> (integer) 2147483647
OBJECT REFCOUNT o:missing -> (nil)
OBJECT FREQ o:missing -> (nil)
OBJECT FREQ o:int -> (error) ERR An LFU maxmemory policy is not selected, access frequency not tracked. Please note that when switching between policies at runtime LRU and LFU data will take some time to adjust.
OBJECT IDLETIME o:missing -> (nil)
OBJECT IDLETIME o:int -> (integer) 0
OBJECT -> (error) ERR wrong number of arguments for 'object' command
OBJECT ENCODING -> (error) ERR wrong number of arguments for 'object|encoding' command
OBJECT ENCODING a b -> (error) ERR wrong number of arguments for 'object|encoding' command
OBJECT NOPE k -> (error) ERR unknown subcommand 'NOPE'. Try OBJECT HELP.
`)
	// IDLETIME follows the fake clock; a read (GET) resets it, OBJECT and TTL do not.
	wd.advance(42_000)
	c.script(`
OBJECT IDLETIME o:int -> (integer) 42
TTL o:int -> (integer) -1
OBJECT ENCODING o:int -> "int"
OBJECT IDLETIME o:int -> (integer) 42
GET o:int -> "12345"
OBJECT IDLETIME o:int -> (integer) 0
`)
	// Under an LFU policy (the server tells the keyspace; here the test does) FREQ answers a
	// new key's counter and IDLETIME is an error; without maxmemory integers stay shared.
	if err := wd.cfg.Set([2]string{"maxmemory-policy", "allkeys-lfu"}); err != nil {
		t.Fatal(err)
	}
	wd.ks.SetAccessPolicy(true, 10, 1)
	c.script(`
SET o:lfu 12345 -> OK
OBJECT FREQ o:lfu -> (integer) 5
OBJECT IDLETIME o:int -> (error) ERR An LFU maxmemory policy is selected, idle time not tracked. Please note that when switching between policies at runtime LRU and LFU data will take some time to adjust.
OBJECT REFCOUNT o:shared -> (integer) 2147483647
`)

	help := c.do("OBJECT HELP")
	if !strings.HasPrefix(help, "[OBJECT <subcommand> [<arg> [value] [opt] ...]. Subcommands are:, ENCODING <key>,") ||
		!strings.HasSuffix(help, ", HELP,     Prints this help.]") || !strings.HasPrefix(string(c.w.Bytes()), "*15\r\n") {
		t.Errorf("OBJECT HELP: %s", help)
	}
	c.script(`OBJECT HELP x -> (error) ERR wrong number of arguments for 'object|help' command`)
}
