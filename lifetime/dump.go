package lifetime

import (
	"fmt"
	"io"
	"strings"
)

// Dump writes the model of fn in a readable form: its scopes, then one
// line per event with its line number. Users attach it to false-positive
// reports to show what holdfast understood.
func (fn *Func) Dump(w io.Writer) error {
	f := fn.File
	line := func(off uint32) int { l, _ := f.Position(int(off)); return l }
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s (line %d)", fn.Kind, fn.Name, line(f.Nodes[fn.Node].Start))
	if fn.HasErrors {
		b.WriteString(" [has parse errors]")
	}
	b.WriteByte('\n')
	fn.dumpClass(&b, line)
	for i, s := range fn.Scopes {
		fmt.Fprintf(&b, "  scope S%d %s lines %d-%d", i, scopeKindNames[s.Kind], line(s.Start), line(s.End-1))
		if s.Parent >= 0 {
			fmt.Fprintf(&b, " in S%d", s.Parent)
		}
		b.WriteByte('\n')
	}
	for _, e := range fn.Events {
		fmt.Fprintf(&b, "  %4d  %-11s %s\n", line(e.At), e.Kind, fn.describe(e))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

var scopeKindNames = [...]string{"body", "block", "loop", "branch", "catch"}

func (fn *Func) describe(e Event) string {
	var parts []string
	if v := fn.Var(e.Var); v != nil {
		s := v.Name
		if e.Kind == Declare {
			s += " : " + v.Type + " (" + v.Kind.String()
			if v.Hold {
				s += ", hold"
			}
			if v.Param {
				s += ", param"
			}
			s += v.marks()
			s += v.pairMarks()
			s += fmt.Sprintf(") scope S%d", v.Scope)
		}
		parts = append(parts, s)
	}
	if v := fn.Var(e.Other); v != nil {
		parts = append(parts, "<- "+v.Name)
	}
	if v := fn.Var(e.Owner); v != nil {
		parts = append(parts, "borrowed from "+v.Name)
	}
	if e.Call != "" && e.Kind != Declare {
		parts = append(parts, "via "+e.Call)
	}
	if e.Lambda != nil {
		parts = append(parts, "lambda "+e.Lambda.Name)
	}
	if e.Text != "" {
		parts = append(parts, textLabel[e.Kind]+" "+e.Text)
	}
	for _, fl := range []struct {
		f Flags
		s string
	}{{ByRef, "by-ref"}, {InitCap, "init"}, {Implicit, "implicit"}, {CapThis, "this"}, {Member, "member"},
		{Discarded, "discarded"}, {AddressOf, "address-of"}, {ToConsumer, "to-consumer"},
		{WithFuture, "with-future"}, {SelfRef, "self-ref"}, {Weak, "weak"},
		{Passed, "passed"}, {NoCopy, "no-copy"}, {Written, "written"}, {Bound, "bound"}} {
		if e.Flags&fl.f != 0 {
			parts = append(parts, fl.s)
		}
	}
	return strings.Join(parts, "  ")
}
