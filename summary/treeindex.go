package summary

import (
	"slices"
	"sync"
)

// Cached is an entry of a tree cache taken into an index, with the path
// it is filed under.
type Cached struct {
	Rel   string
	Entry *Entry
}

// kind is what a name names in a directory.
type kind uint8

const (
	kindFunc kind = iota
	kindDecl
	kindClass
	kindAlias
	kinds
)

// lazyIndex is where an index built by NewTreeIndex reads a name the
// first time it is asked for: the parts that define it, in the order
// NewIndex would have taken them.
type lazyIndex struct {
	mu    sync.Mutex
	parts []lazyPart
	at    [kinds]map[string][]int32 // the parts that define a name, in order
	done  [kinds]map[string]bool
	// composed: the names whose functions' forwards are composed (see
	// ensure).
	composed map[string]bool
	funcs    int // functions the parts define, before dedupe
	cached   int // of those, the cached parts'
	bad      int // cached summaries that did not decode
}

// lazyPart is one file's summary in a lazy index, its functions and
// classes by name once read.
type lazyPart struct {
	entry   *Entry
	rel     string // "": every function of the summary; else those filed under rel
	read    bool
	funcs   map[string][]*Func
	classes map[string][]*Class
	aliases Names
}

// NewTreeIndex is NewIndex of the scanned files' summaries (own) and then
// the cache's (each only for the functions filed under its path), with
// the same answers, but a cached summary is decoded only when a name it
// defines is first asked for: a scan of a few files reads the summaries
// of the functions they call, not the tree's. The forwards of a
// function are composed when it is first looked up, over the functions
// they reach (see compose), so Cut speaks for those looked up so far.
func NewTreeIndex(own []*File, cached []Cached) *Index {
	lz := &lazyIndex{composed: map[string]bool{}}
	for k := range kinds {
		lz.at[k], lz.done[k] = map[string][]int32{}, map[string]bool{}
	}
	exits := map[string][]Exit{}
	add := func(e *Entry, rel string) {
		d := e.dir(rel)
		for _, x := range d.Exits {
			exits[x.Name] = append(exits[x.Name], x)
		}
		i := int32(len(lz.parts))
		lz.parts = append(lz.parts, lazyPart{entry: e, rel: rel})
		lz.funcs += d.Funcs
		if rel != "" {
			lz.cached += d.Funcs
		}
		for k, names := range [kinds][]string{d.Names, d.Decls, d.Classes, d.Aliases} {
			for _, n := range names {
				lz.at[k][n] = append(lz.at[k][n], i)
			}
		}
	}
	for _, f := range own {
		if f != nil {
			add(&Entry{Summary: f}, "")
		}
	}
	for _, c := range cached {
		if c.Entry != nil {
			add(c.Entry, c.Rel)
		}
	}
	return &Index{byName: map[string][]*Func{}, decls: map[string][]*Func{}, classes: map[string]map[string]string{}, scoped: map[string][]*Class{}, aliases: map[string]string{}, lz: lz,
		noReturn: noReturnNames(exits, func(name string) int { return len(lz.at[kindFunc][name]) }), returns: returningMacros(exits), returnIfs: conditionalReturns(exits), notRun: notRunMacros(exits),
		checks: checkingMacros(exits, func(name string) int { return len(lz.at[kindFunc][name]) })}
}

// FromCache counts the functions the index takes from the cache (before
// functions alike are kept once): 0 for an index NewIndex built.
func (ix *Index) FromCache() int {
	if ix == nil || ix.lz == nil {
		return 0
	}
	return ix.lz.cached
}

// Unreadable counts the cached summaries the index needed whose bytes did
// not decode: they said nothing.
func (ix *Index) Unreadable() int {
	if ix == nil || ix.lz == nil {
		return 0
	}
	ix.lz.mu.Lock()
	defer ix.lz.mu.Unlock()
	return ix.lz.bad
}

// part returns part i, read.
func (lz *lazyIndex) part(i int32) *lazyPart {
	p := &lz.parts[i]
	if p.read {
		return p
	}
	p.read = true
	f, err := p.entry.File()
	if err != nil {
		lz.bad++
	}
	if f == nil {
		return p
	}
	p.funcs = map[string][]*Func{}
	for j := range f.Funcs {
		if fn := &f.Funcs[j]; p.rel == "" || fn.File == p.rel {
			p.funcs[fn.Name] = append(p.funcs[fn.Name], fn)
		}
	}
	p.classes = map[string][]*Class{}
	for j := range f.Classes {
		c := &f.Classes[j]
		p.classes[c.Name] = append(p.classes[c.Name], c)
	}
	p.aliases = f.Aliases
	return p
}

// read puts what the parts say of name, of kind k, into ix's maps as
// NewIndex would have: functions deduplicated, classes merged in order,
// an alias only when every part that declares it agrees.
func (lz *lazyIndex) read(ix *Index, k kind, name string) {
	if lz.done[k][name] {
		return
	}
	lz.done[k][name] = true
	parts := lz.at[k][name]
	switch k {
	case kindFunc, kindDecl:
		var list []*Func
		for _, i := range parts {
			for _, fn := range lz.part(i).funcs[name] {
				if fn.Decl == (k == kindDecl) {
					list = append(list, fn)
				}
			}
		}
		if len(list) == 0 {
			return
		}
		m := ix.byName
		if k == kindDecl {
			m = ix.decls
		}
		m[name] = dedupeList(list)
	case kindClass:
		for _, i := range parts {
			for _, c := range lz.part(i).classes[name] {
				ix.scoped[name] = append(ix.scoped[name], c)
				if have, ok := ix.classes[name]; ok {
					ix.classes[name] = mergeClass(have, c.Members)
				} else {
					ix.classes[name] = c.Members
				}
			}
		}
	case kindAlias:
		var t string
		seen, conflict := false, false
		for _, i := range parts {
			v, ok := lz.part(i).aliases[name]
			if !ok {
				continue
			}
			conflict = conflict || seen && v != t
			t, seen = v, true
		}
		if seen && !conflict {
			ix.aliases[name] = t
		}
	}
}

// ensure reads the functions of name and composes their forwards with
// those of every name they reach that is not composed yet: the facts of
// a function depend only on the functions its forwards reach, so
// composing that set gives what compose over the whole tree gives them.
func (ix *Index) ensure(name string) {
	lz := ix.lz
	if lz.composed[name] {
		return
	}
	var set []string
	in := map[string]bool{}
	stack := []string{name}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if in[n] || lz.composed[n] {
			continue
		}
		in[n] = true
		set = append(set, n)
		lz.read(ix, kindFunc, n)
		for _, f := range ix.byName[n] {
			for _, fw := range f.Forwards {
				stack = append(stack, lastName(fw.Call.Name))
			}
		}
	}
	slices.Sort(set)
	ix.composeNames(set)
	for _, n := range set {
		lz.composed[n] = true
	}
}
