package core

import (
	"github.com/holdfast-dev/holdfast/parser"
)

// FileSummaries answers for the functions a file defines, by executing
// them: a function frees its pointer parameter k when every path through
// it that returns has freed what k points to. Calls are matched by the
// last component of the name and the number of arguments, and only when
// the file defines one function of that name and arity.
type FileSummaries struct {
	f     *parser.File
	defs  map[sumKey][]parser.NodeID
	frees map[sumKey][]int
	busy  map[sumKey]bool
	// Next answers for what the file does not define (nil: nothing).
	Next Summaries
}

type sumKey struct {
	name  string
	nargs int
}

// NewFileSummaries indexes the function definitions of f.
func NewFileSummaries(f *parser.File) *FileSummaries {
	fs := &FileSummaries{f: f, defs: map[sumKey][]parser.NodeID{}, frees: map[sumKey][]int{}, busy: map[sumKey]bool{}}
	for i := range f.Nodes {
		n := parser.NodeID(i)
		if f.Nodes[n].Kind != parser.KindFunctionDefinition {
			continue
		}
		x := &exec{f: f}
		fd, _ := x.funcDeclarator(n)
		if fd == parser.None {
			continue
		}
		name := lastName(calleeName(f.Text(f.Field(fd, parser.FieldDeclarator))))
		nargs := 0
		for range f.NamedChildren(f.Field(fd, parser.FieldParameters)) {
			nargs++
		}
		k := sumKey{name, nargs}
		fs.defs[k] = append(fs.defs[k], n)
	}
	return fs
}

func lastName(s string) string {
	for i := len(s) - 1; i > 0; i-- {
		if s[i] == ':' && s[i-1] == ':' {
			return s[i+1:]
		}
	}
	return s
}

// Frees implements Summaries.
func (fs *FileSummaries) Frees(name string, nargs int) []int {
	k := sumKey{lastName(name), nargs}
	defs := fs.defs[k]
	if len(defs) != 1 {
		if len(defs) == 0 && fs.Next != nil {
			return fs.Next.Frees(name, nargs)
		}
		return nil
	}
	if r, ok := fs.frees[k]; ok {
		return r
	}
	if fs.busy[k] {
		return nil
	}
	fs.busy[k] = true
	x := newExec(fs.f, defs[0], Options{MaxStates: 32, Summaries: fs})
	x.run()
	var out []int
	if len(x.returns) > 0 && !x.cut {
		for i, obj := range x.params {
			if obj < 0 {
				continue
			}
			all := true
			for _, st := range x.returns {
				if int(obj) >= len(st.objs) || st.objs[obj].state != freed {
					all = false
					break
				}
			}
			if all {
				out = append(out, i)
			}
		}
	}
	delete(fs.busy, k)
	fs.frees[k] = out
	return out
}
