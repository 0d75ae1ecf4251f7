package server

import (
	"context"
	"strconv"
	"strings"
	"testing"

	"github.com/redis/go-redis/v9"
)

// infoField reads one field of INFO section.
func infoField(t *testing.T, text, name string) int64 {
	t.Helper()
	for _, line := range strings.Split(text, "\r\n") {
		if v, ok := strings.CutPrefix(line, name+":"); ok {
			n, err := strconv.ParseInt(v, 10, 64)
			if err != nil {
				t.Fatalf("%s: %q", name, v)
			}
			return n
		}
	}
	t.Fatalf("INFO has no %s", name)
	return 0
}

// TestFunctionsInfo: INFO memory counts the libraries and functions, their memory (200 bytes
// empty, as redis-server 7.0.15's; more with a library) and the functions' Lua states; FLUSH
// takes them back.
func TestFunctionsInfo(t *testing.T) {
	_, rdb := startInProcess(t, nil)
	ctx := context.Background()
	mem := func() string {
		s, err := rdb.Info(ctx, "memory").Result()
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	m := mem()
	if infoField(t, m, "number_of_functions") != 0 || infoField(t, m, "number_of_libraries") != 0 ||
		infoField(t, m, "used_memory_functions") != 200 || infoField(t, m, "used_memory_vm_functions") <= 0 {
		t.Errorf("INFO memory before any library:\n%s", m)
	}
	code := "#!lua name=lib\nredis.register_function('f1', function() return 1 end)\n" +
		"redis.register_function('f2', function() return 2 end)"
	if err := rdb.FunctionLoad(ctx, code).Err(); err != nil {
		t.Fatal(err)
	}
	if v, err := rdb.FCall(ctx, "f2", nil).Int(); err != nil || v != 2 {
		t.Fatalf("FCALL f2: %v %v", v, err)
	}
	m = mem()
	if infoField(t, m, "number_of_functions") != 2 || infoField(t, m, "number_of_libraries") != 1 ||
		infoField(t, m, "used_memory_functions") <= 200+int64(len(code)) {
		t.Errorf("INFO memory with a library:\n%s", m)
	}
	if infoField(t, m, "used_memory_scripts") != infoField(t, m, "used_memory_scripts_eval")+infoField(t, m, "used_memory_functions") {
		t.Errorf("used_memory_scripts is not the sum:\n%s", m)
	}
	// go-redis (RESP3) reads FUNCTION LIST and DUMP / RESTORE.
	libs, err := rdb.FunctionList(ctx, redis.FunctionListQuery{LibraryNamePattern: "l*", WithCode: true}).Result()
	if err != nil || len(libs) != 1 || libs[0].Name != "lib" || libs[0].Engine != "LUA" || libs[0].Code != code ||
		len(libs[0].Functions) != 2 || libs[0].Functions[1].Name != "f2" {
		t.Errorf("FunctionList: %+v %v", libs, err)
	}
	dump, err := rdb.FunctionDump(ctx).Result()
	if err != nil {
		t.Fatal(err)
	}
	if err := rdb.FunctionRestore(ctx, dump).Err(); err == nil || err.Error() != "ERR Library lib already exists" {
		t.Errorf("FunctionRestore APPEND: %v", err)
	}
	if err := rdb.FunctionFlush(ctx).Err(); err != nil {
		t.Fatal(err)
	}
	if m = mem(); infoField(t, m, "number_of_functions") != 0 || infoField(t, m, "used_memory_functions") != 200 {
		t.Errorf("INFO memory after FUNCTION FLUSH:\n%s", m)
	}
}
