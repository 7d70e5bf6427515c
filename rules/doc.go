package rules

import (
	"fmt"
	"strings"

	"github.com/holdfast-dev/holdfast/diag"
)

// Doc renders a rule's documentation as Markdown. `holdfast explain` prints
// it and docs/rules/<ID>.md is generated from it, so the two never drift.
func Doc(m *diag.Rule) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s %s\n\n", m.ID, m.Name)
	fmt.Fprintf(&b, "%s.\n\n", upperFirst(m.Summary))
	fmt.Fprintf(&b, "- Class: %s (see [the classes](README.md))\n- Default severity: %s\n- Precision: %s\n", m.Class, m.Severity, m.Precision)
	if len(m.Tags) > 0 {
		fmt.Fprintf(&b, "- Tags: %s\n", strings.Join(m.Tags, ", "))
	}
	b.WriteString("\n")
	for _, para := range strings.Split(m.Help, "\n\n") {
		head, rest, ok := strings.Cut(para, ": ")
		if ok && !strings.Contains(head, "\n") {
			fmt.Fprintf(&b, "## %s\n\n%s\n\n", head, upperFirst(strings.Join(strings.Fields(rest), " ")))
			continue
		}
		fmt.Fprintf(&b, "%s\n\n", strings.Join(strings.Fields(para), " "))
	}
	fmt.Fprintf(&b, "## Example\n\nBad:\n\n```cpp\n%s\n```\n\nGood:\n\n```cpp\n%s\n```\n\n", m.Example.Bad, m.Example.Good)
	fmt.Fprintf(&b, "## What to do instead\n\n%s.\n\n", upperFirst(m.Fix))
	fmt.Fprintf(&b, "## Suppressing\n\n```cpp\n// holdfast:ignore %s <why this is safe>\n```\n", m.ID)
	return b.String()
}

func upperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
