//go:build cgo

package parser

import (
	"fmt"
	"io"
	"strings"
)

// Dump writes the syntax table as an indented outline, one node per line,
// for debugging and for users reporting a misparse.
func (f *File) Dump(w io.Writer, named bool) error {
	depth := make([]int, len(f.Nodes))
	for i := range f.Nodes {
		n := &f.Nodes[i]
		if n.Parent >= 0 {
			depth[i] = depth[n.Parent] + 1
		}
		if named && !n.Named {
			continue
		}
		line, col := f.Position(int(n.Start))
		kind := n.Kind.String()
		if n.Kind == KindToken || n.Kind == KindOther {
			kind = fmt.Sprintf("%s %q", kind, clip(f.Text(NodeID(i)), 40))
		} else if f.FirstChild(NodeID(i)) == None {
			kind += " " + clip(f.Text(NodeID(i)), 40)
		}
		switch {
		case n.Error:
			kind += " [error]"
		case n.Missing && n.Benign:
			kind += " [missing, benign]"
		case n.Missing:
			kind += " [missing]"
		}
		field := ""
		if n.Field != FieldNone {
			field = n.Field.String() + ": "
		}
		if _, err := fmt.Fprintf(w, "%s%s%s  %d:%d\n", strings.Repeat("  ", depth[i]), field, kind, line, col); err != nil {
			return err
		}
	}
	return nil
}

func clip(s string, n int) string {
	s = strings.ReplaceAll(s, "\n", " ")
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}
