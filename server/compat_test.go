package server

import (
	"bufio"
	"fmt"
	"os"
	"sort"
	"strings"
	"testing"

	"github.com/kvserver/kvserver/command"
	"github.com/kvserver/kvserver/internal/readme"
)

// TestREADMECompatibility: the README's Compatibility section counts the command table
// against Redis 7.2's command list (testdata/redis72-commands.txt, by scripts/gencommandlist).
// go test ./server -run TestREADMECompatibility -update rewrites it.
func TestREADMECompatibility(t *testing.T) {
	redis, err := readCommandList("testdata/redis72-commands.txt")
	if err != nil {
		t.Fatal(err)
	}
	implemented := implementedCommands(command.New((&Server{}).commandFamilies()...))
	readme.Check(t, "../README.md", "commands", compatibilityMarkdown(redis, implemented))
}

// redisCommand is one line of the command list: a full name ("client|list") and its group.
type redisCommand struct{ name, group string }

// readCommandList reads the command list: "name group", '#' starting a comment.
func readCommandList(path string) ([]redisCommand, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []redisCommand
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line, _, _ := strings.Cut(sc.Text(), "#")
		fields := strings.Fields(line)
		switch len(fields) {
		case 0:
			continue
		case 2:
			out = append(out, redisCommand{fields[0], fields[1]})
		default:
			return nil, fmt.Errorf("%s:%d: want a name and a group", path, n)
		}
	}
	return out, sc.Err()
}

// implementedCommands lists the table's commands as the command list names them: a command
// with subcommands by its subcommands ("client|list"), any other by its name.
func implementedCommands(tab *command.Table) map[string]bool {
	out := map[string]bool{}
	for _, cmd := range tab.All() {
		if len(cmd.Subcommands) == 0 {
			out[cmd.FullName] = true
		}
		for _, sub := range cmd.Subcommands {
			out[sub.FullName] = true
		}
	}
	return out
}

// displayName is how Redis's documentation writes a command: "CLIENT LIST".
func displayName(name string) string {
	return "`" + strings.ToUpper(strings.ReplaceAll(name, "|", " ")) + "`"
}

// compatibilityMarkdown renders the counts per group, then each group's implemented and
// missing commands, then whatever the table has that Redis 7.2 does not.
func compatibilityMarkdown(redis []redisCommand, implemented map[string]bool) string {
	type group struct{ have, missing []string }
	groups := map[string]*group{}
	known := map[string]bool{}
	total, have := 0, 0
	for _, c := range redis {
		known[c.name] = true
		g := groups[c.group]
		if g == nil {
			g = &group{}
			groups[c.group] = g
		}
		total++
		if implemented[c.name] {
			have++
			g.have = append(g.have, displayName(c.name))
		} else {
			g.missing = append(g.missing, displayName(c.name))
		}
	}
	names := make([]string, 0, len(groups))
	for name := range groups {
		names = append(names, name)
	}
	sort.Strings(names)

	var b strings.Builder
	fmt.Fprintf(&b, "kvserver implements **%d of Redis 7.2's %d commands**.\n\n", have, total)
	b.WriteString("| group | implemented |\n|---|---|\n")
	for _, name := range names {
		g := groups[name]
		fmt.Fprintf(&b, "| %s | %d of %d |\n", name, len(g.have), len(g.have)+len(g.missing))
	}
	for _, name := range names {
		g := groups[name]
		fmt.Fprintf(&b, "\n**%s** (%d of %d)\n", name, len(g.have), len(g.have)+len(g.missing))
		if len(g.have) > 0 {
			fmt.Fprintf(&b, "- implemented: %s\n", strings.Join(g.have, ", "))
		}
		if len(g.missing) > 0 {
			fmt.Fprintf(&b, "- missing: %s\n", strings.Join(g.missing, ", "))
		}
	}
	var extra []string
	for name := range implemented {
		if !known[name] {
			extra = append(extra, displayName(name))
		}
	}
	if len(extra) > 0 {
		sort.Strings(extra)
		fmt.Fprintf(&b, "\nAlso answered, though not a Redis 7.2 command: %s\n", strings.Join(extra, ", "))
	}
	return b.String()
}
