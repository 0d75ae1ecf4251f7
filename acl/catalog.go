package acl

import (
	"sort"
	"strings"
)

// CommandInfo describes one row of the command table to the ACL (acl does not import command).
type CommandInfo struct {
	ID     int      // the row's ID (command.Command.ID): index into the selectors' command bitmaps
	Name   string   // full name, lower case: "get", "config|get"
	Parent int      // the container's ID for a subcommand, else -1
	Cats   []string // its ACL categories without '@' ("read", "string", "fast" …)
	// NoAuth commands (AUTH, HELLO …) skip the command bit test, as Redis's CMD_NO_AUTH; their
	// keys and channels (they have none) would still be checked.
	NoAuth bool
}

// Catalog is the command table as the ACL sees it: commands by ID and by full name, their
// subcommands and categories. It is immutable after NewCatalog.
type Catalog struct {
	cmds   []CommandInfo // by ID; a hole (ID never given) has an empty Name
	valid  []bool
	byName map[string]int
	subs   map[int][]int // container ID → subcommand IDs
	cats   []string      // category names in the given order
	catSet map[string]int
	inCat  [][]int // category index → command IDs (containers and subcommands), by ID
}

// NewCatalog builds the catalog from the table's rows and the list of category names
// (without '@', in the order ACL CAT lists them).
func NewCatalog(cmds []CommandInfo, categories []string) *Catalog {
	c := &Catalog{byName: map[string]int{}, subs: map[int][]int{}, catSet: map[string]int{}}
	n := 0
	for _, ci := range cmds {
		if ci.ID+1 > n {
			n = ci.ID + 1
		}
	}
	c.cmds = make([]CommandInfo, n)
	c.valid = make([]bool, n)
	for i, name := range categories {
		name = strings.ToLower(name)
		c.cats = append(c.cats, name)
		c.catSet[name] = i
	}
	c.inCat = make([][]int, len(c.cats))
	for _, ci := range cmds {
		ci.Name = strings.ToLower(ci.Name)
		c.cmds[ci.ID] = ci
		c.valid[ci.ID] = true
		c.byName[ci.Name] = ci.ID
	}
	for id := range c.cmds {
		if !c.valid[id] {
			continue
		}
		ci := c.cmds[id]
		if ci.Parent >= 0 {
			c.subs[ci.Parent] = append(c.subs[ci.Parent], id)
		}
		for _, cat := range ci.Cats {
			if k, ok := c.catSet[strings.ToLower(cat)]; ok {
				c.inCat[k] = append(c.inCat[k], id)
			}
		}
	}
	return c
}

// Len is the size of a command bitmap: one more than the highest ID.
func (c *Catalog) Len() int { return len(c.cmds) }

// lookup finds a command by full name ("get", "config|get"), case-insensitively: -1 if none.
func (c *Catalog) lookup(name string) int {
	if id, ok := c.byName[strings.ToLower(name)]; ok {
		return id
	}
	return -1
}

// Categories lists the category names (ACL CAT without an argument).
func (c *Catalog) Categories() []string { return append([]string(nil), c.cats...) }

// CommandsIn lists the full names of the commands in a category (ACL CAT <category>), sorted;
// ok is false for an unknown category. Subcommands appear as "container|sub", as in Redis.
func (c *Catalog) CommandsIn(category string) (names []string, ok bool) {
	k, ok := c.catSet[strings.ToLower(category)]
	if !ok {
		return nil, false
	}
	for _, id := range c.inCat[k] {
		names = append(names, c.cmds[id].Name)
	}
	sort.Strings(names)
	return names, true
}

// Command returns the catalog's row for an ID (ok false for an unknown ID).
func (c *Catalog) Command(id int) (CommandInfo, bool) {
	if id < 0 || id >= len(c.cmds) || !c.valid[id] {
		return CommandInfo{}, false
	}
	return c.cmds[id], true
}
