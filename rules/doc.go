package rules

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/holdfast-dev/holdfast/diag"
)

// Doc renders a rule's documentation as Markdown: docs/rules/<ID>.md is
// generated from it, and `holdfast explain` prints the same text with
// Explain, so the two never drift.
func Doc(m *diag.Rule) string {
	return render(m, true)
}

// Explain is Doc for a terminal: the same text, with no link (a path
// relative to docs/rules means nothing where explain runs); the class is
// named by what goes wrong in it instead.
func Explain(m *diag.Rule) string {
	return render(m, false)
}

// mdLink is a Markdown link, [text](target).
var mdLink = regexp.MustCompile(`\[([^\]\n]+)\]\([^)\s]+\)`)

func render(m *diag.Rule, markdown bool) string {
	prose := func(s string) string {
		if markdown {
			return s
		}
		return mdLink.ReplaceAllString(s, "$1")
	}
	var b strings.Builder
	fmt.Fprintf(&b, "# %s %s\n\n", m.ID, m.Name)
	fmt.Fprintf(&b, "%s.\n\n", prose(upperFirst(m.Summary)))
	if markdown {
		fmt.Fprintf(&b, "- Class: %s (see [the classes](README.md))\n", m.Class)
	} else {
		fmt.Fprintf(&b, "- Class: %s (%s)\n", m.Class, classTitle(m.Class))
	}
	fmt.Fprintf(&b, "- Default severity: %s\n- Precision: %s\n", m.Severity, m.Precision)
	if len(m.Tags) > 0 {
		fmt.Fprintf(&b, "- Tags: %s\n", strings.Join(m.Tags, ", "))
	}
	if len(m.Former) > 0 {
		fmt.Fprintf(&b, "- Formerly: `%s` (still accepted)\n", strings.Join(m.Former, "`, `"))
	}
	if m.CoreDecides {
		b.WriteString("- Verdicts: decided by executing the function's paths; a finding only the rule's reading of names and types makes is at most latent (shown with --all)\n")
	}
	b.WriteString("\n")
	for _, para := range strings.Split(m.Help, "\n\n") {
		head, rest, ok := strings.Cut(para, ": ")
		if ok && !strings.Contains(head, "\n") {
			fmt.Fprintf(&b, "## %s\n\n%s\n\n", head, prose(upperFirst(strings.Join(strings.Fields(rest), " "))))
			continue
		}
		fmt.Fprintf(&b, "%s\n\n", prose(strings.Join(strings.Fields(para), " ")))
	}
	fmt.Fprintf(&b, "## Example\n\nBad:\n\n```cpp\n%s\n```\n\nGood:\n\n```cpp\n%s\n```\n\n", m.Example.Bad, m.Example.Good)
	fmt.Fprintf(&b, "## What to do instead\n\n%s.\n\n", prose(upperFirst(m.Fix)))
	fmt.Fprintf(&b, "## Suppressing\n\n```cpp\n// holdfast:ignore %s <why this is safe>\n```\n", m.ID)
	return b.String()
}

func upperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// classTitles say what goes wrong in each bug class (RULES.md A-H, and N).
var classTitles = []struct{ class, title string }{
	{"A", "async device work outlives the buffer it uses"},
	{"B", "a pointer or view borrowed from an owner is used after the owner dies"},
	{"C", "a container meant to keep buffers alive is handed on empty"},
	{"D", "a no-op `.contiguous()` where a copy was meant"},
	{"E", "device memory freed before the stream is done with it"},
	{"F", "writes into a temporary copy that never reach the original"},
	{"G", "callbacks and work objects that outlive what they use"},
	{"H", "the host touches memory that queued device work still uses"},
	{"N", "other host lifetime faults"},
}

// classTitle says what goes wrong in class c, or "" for an unknown class.
func classTitle(c string) string {
	for _, t := range classTitles {
		if t.class == c {
			return t.title
		}
	}
	return ""
}

// Index is docs/rules/README.md: every rule, by class, from the same
// metadata as the rule pages.
func Index(rs []*diag.Rule) string {
	var b strings.Builder
	b.WriteString("# Rules\n\n")
	b.WriteString("Every rule belongs to one bug class. `holdfast rules` lists them and\n")
	b.WriteString("`holdfast explain ID` prints a rule's page; this index and the pages are\n")
	b.WriteString("generated from the same metadata (`go test ./rules -update`).\n\n")
	for _, c := range classTitles {
		fmt.Fprintf(&b, "## %s: %s\n\n", c.class, c.title)
		b.WriteString("| Rule | Name | Default severity | What it reports |\n|---|---|---|---|\n")
		for _, m := range rs {
			if m.Class == c.class {
				fmt.Fprintf(&b, "| [%s](%s.md) | `%s` | %s | %s |\n", m.ID, m.ID, m.Name, m.Severity, m.Summary)
			}
		}
		b.WriteString("\n")
	}
	b.WriteString("A rule's ID never changes; its name may be used wherever an ID is accepted\n")
	b.WriteString("(suppressions, `rules.disable` and `rules.severity` in `.holdfast.yaml`,\n")
	b.WriteString("`holdfast explain`), and so may a name it had before (Formerly, on its page).\n")
	return b.String()
}

// cweNames name the CWE entries the rules cite.
var cweNames = map[int]string{
	125: "out-of-bounds read",
	362: "race condition",
	415: "double free",
	416: "use after free",
	476: "null pointer dereference",
	562: "return of stack variable address",
	763: "release of invalid pointer or reference",
	825: "expired pointer dereference",
}

// Security is the part of docs/ci.md that says how SARIF tags the rules:
// the security rules (those with a CWE) with their CWEs and
// security-severity, and the others, from the same metadata as SARIF.
func Security(rs []*diag.Rule) string {
	sev := func(s diag.Severity) string {
		return (&diag.Rule{Severity: s, CWE: []int{1}}).SecuritySeverity()
	}
	var b strings.Builder
	b.WriteString("The rules that find memory-safety bugs carry the tag `security`, a tag per\n")
	b.WriteString("CWE (`external/cwe/cwe-416`) and a `security-severity` from their default\n")
	fmt.Fprintf(&b, "severity: %s (high) for an error, %s (medium) for a warning, %s (low) for\n", sev(diag.Error), sev(diag.Warning), sev(diag.Note))
	b.WriteString("a note.\n\n")
	b.WriteString("| Rule | CWE | `security-severity` |\n|---|---|---|\n")
	var others []string
	for _, m := range rs {
		if !m.Security() {
			others = append(others, fmt.Sprintf("[%s](rules/%s.md) `%s`", m.ID, m.ID, m.Name))
			continue
		}
		var cwes []string
		for _, c := range m.CWE {
			cwes = append(cwes, fmt.Sprintf("[CWE-%d](https://cwe.mitre.org/data/definitions/%d.html) %s", c, c, cweNames[c]))
		}
		fmt.Fprintf(&b, "| [%s](rules/%s.md) `%s` | %s | %s |\n", m.ID, m.ID, m.Name, strings.Join(cwes, ", "), m.SecuritySeverity())
	}
	b.WriteString("\nThe other rules are tagged `correctness`:\n\n")
	for _, o := range others {
		fmt.Fprintf(&b, "- %s\n", o)
	}
	return b.String()
}
