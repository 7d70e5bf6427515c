package summary

import (
	"slices"
	"sync"
	"sync/atomic"
	"unsafe"
)

// Dir is what one file's summary defines, by name: what an index needs to
// know which summaries to decode for a name, without decoding any. It
// speaks only for the functions filed under the file's own path (see
// ownFuncs).
type Dir struct {
	Funcs   int      // functions defined (declarations left out)
	Names   []string // the names of those functions, each once
	Decls   []string // the names of functions only declared, each once
	Classes []string // the classes defined, each once
	Aliases []string // the type aliases declared
	Exits   []Exit   // see File.Exits
}

// table is a cache file's strings, shared by every entry read from it,
// and the memory its summaries may still take once decoded: the whole
// file's bound (see decodeRatio), which one entry alone may use.
type table struct {
	strs []string
	raw  []byte // the strings as the file holds them
	// base is how many strings the table had when it was last written
	// whole: the strings past it were added by updates that kept the
	// table (see sharedTable).
	base int
	left atomic.Int64
}

// body is an entry's summary as a cache file holds it, decoded the first
// time it is asked for.
type body struct {
	raw    []byte
	dirRaw []byte // the directory as the file holds it
	tbl    *table
	dir    Dir
	once   sync.Once
	file   *File
	err    error
}

// File returns the entry's summary: the one a scan made, or the one read
// from the cache file, decoded now if it has not been (safe to call from
// several goroutines). An error says the cache file's bytes for it do not
// decode: the entry says nothing.
func (e *Entry) File() (*File, error) {
	if e.Summary != nil || e.body == nil {
		return e.Summary, nil
	}
	b := e.body
	b.once.Do(func() {
		had := b.tbl.left.Load()
		d := &decoder{b: b.raw, strs: b.tbl.strs, left: had}
		f := d.file()
		b.tbl.left.Add(d.left - had)
		if d.err == nil && len(d.b) != 0 {
			d.err = errCorrupt
		}
		if d.err != nil {
			b.err = d.err
			return
		}
		// The directory carries what the summary says of returning.
		f.Exits = b.dir.Exits
		b.file = f
	})
	return b.file, b.err
}

// dir returns what the entry defines under rel.
func (e *Entry) dir(rel string) Dir {
	if e.Summary == nil && e.body != nil {
		return e.body.dir
	}
	if e.Summary == nil {
		return Dir{}
	}
	return dirOf(e.Summary, rel)
}

// dirOf is the directory of f's functions filed under rel ("": all of
// them), its classes and its aliases.
func dirOf(f *File, rel string) Dir {
	var d Dir
	for i := range f.Funcs {
		fn := &f.Funcs[i]
		if rel != "" && fn.File != rel {
			continue
		}
		if fn.Decl {
			d.Decls = append(d.Decls, fn.Name)
			continue
		}
		d.Funcs++
		d.Names = append(d.Names, fn.Name)
	}
	for _, c := range f.Classes {
		d.Classes = append(d.Classes, c.Name)
	}
	for name := range f.Aliases {
		d.Aliases = append(d.Aliases, name)
	}
	d.Exits = f.Exits
	for _, l := range []*[]string{&d.Names, &d.Decls, &d.Classes, &d.Aliases} {
		slices.Sort(*l)
		*l = slices.Compact(*l)
	}
	return d
}

func (e *encoder) dir(d Dir) {
	e.uint(uint64(d.Funcs))
	for _, l := range [][]string{d.Names, d.Decls, d.Classes, d.Aliases} {
		e.uint(uint64(len(l)))
		for _, s := range l {
			e.str(s)
		}
	}
	e.uint(uint64(len(d.Exits)))
	for _, x := range d.Exits {
		e.str(x.Name)
		bits := uint64(0)
		for i, on := range []bool{x.Macro, x.Def, x.NoReturn, x.Returns} {
			if on {
				bits |= 1 << i
			}
		}
		e.uint(bits)
		e.uint(uint64(x.Check))
		e.uint(uint64(len(x.Via)))
		for _, v := range x.Via {
			e.str(v)
		}
		e.str(x.ReturnIf)
		e.ints(x.NotRun)
	}
}

func (d *decoder) dir() Dir {
	var out Dir
	out.Funcs = d.count(1, 0)
	for _, l := range []*[]string{&out.Names, &out.Decls, &out.Classes, &out.Aliases} {
		if n := d.count(1, unsafe.Sizeof("")); n > 0 {
			*l = make([]string, n)
			for i := range *l {
				(*l)[i] = d.str()
			}
		}
	}
	if n := d.count(3, unsafe.Sizeof(Exit{})); n > 0 {
		out.Exits = make([]Exit, n)
		for i := range out.Exits {
			x := &out.Exits[i]
			x.Name = d.str()
			bits := d.uint()
			x.Macro, x.Def, x.NoReturn, x.Returns = bits&1 != 0, bits&2 != 0, bits&4 != 0, bits&8 != 0
			x.Check = int(d.uint())
			if m := d.count(1, unsafe.Sizeof("")); m > 0 {
				x.Via = make([]string, m)
				for j := range x.Via {
					x.Via[j] = d.str()
				}
			}
			x.ReturnIf = d.str()
			x.NotRun = d.ints()
		}
	}
	return out
}
