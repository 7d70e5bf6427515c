//go:build cgo

package parser

import (
	"cmp"
	"iter"
	"slices"
	"sort"
	"sync"
)

// NodeID indexes File.Nodes. The root is 0; None means no node.
type NodeID = int32

// None is the absent node.
const None NodeID = -1

// Node is one syntax node in a flat, pre-order table. A node's children
// follow it directly: the first child of n, if any, is n+1.
type Node struct {
	Start, End uint32 // byte span in File.Src
	Parent     NodeID
	Next       NodeID // next sibling
	Kind       Kind
	Field      Field // the field this node fills in its parent
	Named      bool
	Error      bool // an ERROR node
	Missing    bool // inserted by error recovery
	// Benign: a MISSING node where the code is well formed as written
	// and the tree reads it as meant (see markBenign): not an error.
	Benign bool
}

// File is a parsed source file: its bytes and its flat syntax table. It
// holds no tree-sitter object, so it can be kept and shared freely.
type File struct {
	Path   string // slash path relative to the scan root
	Ext    string
	Src    []byte // what the grammar saw (Objective-C neutralised for .mm)
	Nodes  []Node
	Errors int // ERROR and MISSING nodes, but for the benign ones
	// FirstBranches says the file was read with only the first branch of
	// some conditional (one that split a statement or a bracket): the
	// code of its other branches is not in Nodes.
	FirstBranches bool
	// Blanked are the words read as attribute macros and blanked before
	// the parse that was kept (see attributeMacros), by offset: the
	// grammar never saw them, a declaration's attributes may be among
	// them.
	Blanked []Word
	// Boxed are the offsets of the '@' of Objective-C's boxed expressions
	// @(e), read as (e), in order (see IsBoxed).
	Boxed []uint32
	lines []int
	// storageMacros: see StorageMacro, computed once.
	storageOnce   sync.Once
	storageMacros map[string]bool
	// objectMacros: the object-like macros the file defines (see DefinesMacro).
	objectMacros map[string]bool
	// functionMacros: the function-like macros it defines (see
	// DefinesFunctionMacro).
	functionMacros map[string]bool
	// memo: see Memo.
	memoMu sync.Mutex
	memo   map[string]*memoEntry
}

// Word is one word of the source at offset At.
type Word struct {
	At   uint32
	Name string
}

// IsBoxed says parenthesised expression n is an Objective-C boxed
// expression @(e): a new object holding a copy of e's value.
func (f *File) IsBoxed(n NodeID) bool {
	if n < 0 || f.Nodes[n].Start == 0 {
		return false
	}
	_, ok := slices.BinarySearch(f.Boxed, f.Nodes[n].Start-1)
	return ok
}

// BlankedIn returns the words blanked (see Blanked) in [from, to).
func (f *File) BlankedIn(from, to uint32) []Word {
	i, _ := slices.BinarySearchFunc(f.Blanked, from, func(w Word, at uint32) int { return cmp.Compare(w.At, at) })
	j := i
	for j < len(f.Blanked) && f.Blanked[j].At < to {
		j++
	}
	return f.Blanked[i:j]
}

// Text returns the source text of node n.
func (f *File) Text(n NodeID) string {
	if n < 0 {
		return ""
	}
	nd := &f.Nodes[n]
	return string(f.Src[nd.Start:nd.End])
}

// Bytes returns the source bytes of node n without copying.
func (f *File) Bytes(n NodeID) []byte {
	if n < 0 {
		return nil
	}
	nd := &f.Nodes[n]
	return f.Src[nd.Start:nd.End]
}

// Kind returns the kind of n, or KindOther for None.
func (f *File) Kind(n NodeID) Kind {
	if n < 0 {
		return KindOther
	}
	return f.Nodes[n].Kind
}

// FirstChild returns n's first child or None.
func (f *File) FirstChild(n NodeID) NodeID {
	if n < 0 || int(n)+1 >= len(f.Nodes) || f.Nodes[n+1].Parent != n {
		return None
	}
	return n + 1
}

// Children iterates over n's children, named and anonymous.
func (f *File) Children(n NodeID) iter.Seq[NodeID] {
	return func(yield func(NodeID) bool) {
		for c := f.FirstChild(n); c != None; c = f.Nodes[c].Next {
			if !yield(c) {
				return
			}
		}
	}
}

// NamedChildren iterates over n's named children, skipping comments.
func (f *File) NamedChildren(n NodeID) iter.Seq[NodeID] {
	return func(yield func(NodeID) bool) {
		for c := f.FirstChild(n); c != None; c = f.Nodes[c].Next {
			if f.Nodes[c].Named && f.Nodes[c].Kind != KindComment && !yield(c) {
				return
			}
		}
	}
}

// Field returns the first child of n that fills field fd, or None.
func (f *File) Field(n NodeID, fd Field) NodeID {
	for c := f.FirstChild(n); c != None; c = f.Nodes[c].Next {
		if f.Nodes[c].Field == fd {
			return c
		}
	}
	return None
}

// End returns one past the last descendant of n: the subtree of n is the
// index range [n, End(n)).
func (f *File) End(n NodeID) NodeID {
	for m := n; m != None; m = f.Nodes[m].Parent {
		if nx := f.Nodes[m].Next; nx != None {
			return nx
		}
	}
	return NodeID(len(f.Nodes))
}

// Ancestor returns the nearest strict ancestor of n of kind k, or None.
func (f *File) Ancestor(n NodeID, k Kind) NodeID {
	for m := f.Nodes[n].Parent; m != None; m = f.Nodes[m].Parent {
		if f.Nodes[m].Kind == k {
			return m
		}
	}
	return None
}

// Position converts a byte offset to a 1-based line and byte column.
func (f *File) Position(off int) (line, col int) {
	if f.lines == nil {
		f.lines = LineStarts(f.Src)
	}
	i := sort.SearchInts(f.lines, off+1) - 1
	if i < 0 {
		i = 0
	}
	return i + 1, off - f.lines[i] + 1
}

// LineStarts returns the offset of every line's first byte. A line ends at
// "\n", "\r\n" or a lone "\r".
func LineStarts(src []byte) []int {
	starts := []int{0}
	for i := 0; i < len(src); i++ {
		switch src[i] {
		case '\n':
			starts = append(starts, i+1)
		case '\r':
			if i+1 < len(src) && src[i+1] == '\n' {
				i++
			}
			starts = append(starts, i+1)
		}
	}
	return starts
}

// Memo is the value compute gives for key, computed once for the file:
// a fact read from the file alone that more than one stage asks for.
// The value is shared by every caller, which must not change it. A
// computation may ask for another key (Classes reads result types, which
// read the file's aliases), never for its own.
func (f *File) Memo(key string, compute func() any) any {
	f.memoMu.Lock()
	e := f.memo[key]
	if e == nil {
		if f.memo == nil {
			f.memo = map[string]*memoEntry{}
		}
		e = &memoEntry{}
		f.memo[key] = e
	}
	f.memoMu.Unlock()
	e.once.Do(func() { e.v = compute() })
	return e.v
}

// memoEntry is one value of File.Memo.
type memoEntry struct {
	once sync.Once
	v    any
}
