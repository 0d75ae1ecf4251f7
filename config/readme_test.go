package config

import (
	"fmt"
	"strings"
	"testing"

	"github.com/kvserver/kvserver/internal/readme"
)

// TestREADMEDirectives: the README's directive lists are the support table's.
// go test ./config -run TestREADMEDirectives -update rewrites them.
func TestREADMEDirectives(t *testing.T) {
	readme.Check(t, "../README.md", "directives", directivesMarkdown(Directives()))
}

// directivesMarkdown renders the support table as the README's three lists: the directives
// acted on with what each does, then the refused and the inert ones grouped by their note.
func directivesMarkdown(rows []DirectiveSupport) string {
	var b strings.Builder
	count := map[Support]int{}
	for _, d := range rows {
		count[d.Support]++
	}
	fmt.Fprintf(&b, "**Acted on** (%d):\n\n| directive | what it does |\n|---|---|\n", count[Acted])
	for _, d := range rows {
		if d.Support == Acted {
			fmt.Fprintf(&b, "| `%s` | %s |\n", d.Name, strings.ReplaceAll(d.Note, "|", `\|`))
		}
	}
	fmt.Fprintf(&b, "\n**Refused until implemented** (%d): any value but the default stops the server "+
		"from starting and makes `CONFIG SET` fail.\n\n", count[Refused])
	writeGrouped(&b, rows, Refused)
	fmt.Fprintf(&b, "\n**Accepted with no effect** (%d): `CONFIG GET` and `CONFIG SET` know them, "+
		"and setting one to a value other than its default logs a warning.\n\n", count[Inert])
	writeGrouped(&b, rows, Inert)
	return b.String()
}

// writeGrouped writes the rows of one kind as a list of notes, each with the directives it
// applies to, in the order of each group's first directive (rows are sorted by name).
func writeGrouped(b *strings.Builder, rows []DirectiveSupport, s Support) {
	byNote := map[string][]string{}
	var notes []string
	for _, d := range rows {
		if d.Support != s {
			continue
		}
		if _, ok := byNote[d.Note]; !ok {
			notes = append(notes, d.Note)
		}
		byNote[d.Note] = append(byNote[d.Note], "`"+d.Name+"`")
	}
	for _, n := range notes {
		fmt.Fprintf(b, "- %s: %s\n", strings.Join(byNote[n], ", "), n)
	}
}
