package summary

import (
	"bufio"
	"encoding/binary"
	"errors"
	"io"
	"maps"
	"slices"
	"unsafe"
)

// ArgNotes maps a parameter index to a note about it (the call that
// encodes it, how a callable is deferred, the member that keeps it).
type ArgNotes map[int]string

// Names maps a name to a name (a member to its declared type, an alias
// to what it names).
type Names map[string]string

// The cache file is read from disk, where anyone who could write the
// cache's folder may have put it, so its format is one whose reader
// never sizes anything from a count it has not checked against the bytes
// that are actually there: each count is bounded by the bytes left
// (every element takes at least one), and every string is a length
// checked the same way. Names repeat across a tree's files (types,
// classes, the file a function is in), so they are written once, in a
// table, and referred to by number.
//
// A scan of a few files needs the summaries of the few functions they
// call, not the tree's: each entry says which names it defines (its
// directory) and how long its summary is, so reading the file decodes
// only the table and the directories, and a summary is decoded the first
// time a name it defines is asked for (see Entry.File and NewTreeIndex).
// The table's strings are the file's bytes, not copies. An update that
// keeps most entries keeps their bytes as they are and extends the table.
//
//	magic, FormatVersion, key
//	table: count, the count when it was last written whole, then each
//	       string
//	entries: count, then for each: path, hash, stamp, work spent, directory,
//	         the summary's length, the summary
//	directory: functions defined, then lists of names: functions,
//	           declarations, classes, aliases

const magic = "holdfast summaries\n"

var errCorrupt = errors.New("not a holdfast summary cache, or truncated")

// writeTree writes w in the cache's format to dst. An entry read from a
// cache file is copied as its bytes when the table it refers to is the
// one most entries share (see sharedTable); the rest are encoded, and one
// whose summary does not decode is left out. Only the encoded entries
// are held in memory: the kept ones go from the file read to dst.
func writeTree(dst io.Writer, w *wireTree) error {
	e := &encoder{ids: map[string]int{}}
	shared := sharedTable(w)
	if shared != nil {
		// The kept entries refer to the table by number: it stays as it
		// is, and what the others name is added after it (a string the
		// table has already may be added again; the next full write
		// drops what no entry uses).
		e.strs = slices.Clip(shared.strs)
	}
	// First the entries to encode, so that the table is complete before
	// it is written: each one's directory, length and summary.
	encoded := make([][]byte, len(w.Files))
	skip := make([]bool, len(w.Files))
	n := 0
	for i := range w.Files {
		we := &w.Files[i]
		if we.Summary == nil && we.body != nil && we.body.tbl == shared && shared != nil {
			n++
			continue
		}
		f, err := we.File()
		if err != nil || f == nil {
			skip[i] = true
			continue
		}
		e.b = nil
		e.file(f)
		body := e.b
		e.b = nil
		e.dir(dirOf(f, we.Rel))
		e.b = binary.AppendUvarint(e.b, uint64(len(body)))
		encoded[i] = append(e.b, body...)
		n++
	}
	out := bufio.NewWriterSize(dst, 1<<20)
	var head []byte
	head = append(head, magic...)
	head = binary.AppendUvarint(head, FormatVersion)
	head = appendString(head, w.Key)
	head = binary.AppendUvarint(head, uint64(len(e.strs)))
	kept := 0 // the strings of the table written as they were read
	if shared != nil {
		kept = len(shared.strs)
		head = binary.AppendUvarint(head, uint64(shared.base))
		_, _ = out.Write(head)
		_, _ = out.Write(shared.raw)
		head = head[:0]
	} else {
		head = binary.AppendUvarint(head, uint64(len(e.strs)))
	}
	for _, s := range e.strs[kept:] {
		head = appendString(head, s)
	}
	head = binary.AppendUvarint(head, uint64(n))
	_, _ = out.Write(head)
	var rec []byte
	for i := range w.Files {
		we := &w.Files[i]
		if skip[i] {
			continue
		}
		rec = appendString(rec[:0], we.Rel)
		rec = appendString(rec, we.Hash)
		for _, v := range []int64{we.Stamp.Size, we.Stamp.ModTime, we.Stamp.Ino, we.Stamp.Ctime, we.Spent} {
			rec = binary.AppendVarint(rec, v)
		}
		if encoded[i] != nil {
			rec = append(rec, encoded[i]...)
			_, _ = out.Write(rec)
			continue
		}
		rec = append(rec, we.body.dirRaw...)
		rec = binary.AppendUvarint(rec, uint64(len(we.body.raw)))
		_, _ = out.Write(rec)
		_, _ = out.Write(we.body.raw)
	}
	return out.Flush() // the first error of any write, kept by the writer
}

// sharedTable returns the table of the entries read from one cache file,
// when they are at least three quarters of w's
// and the table has grown by at most a quarter since it was last written
// whole: the update keeps their bytes. Otherwise nil: every entry is
// encoded against a new table, which drops the strings no entry uses any
// more.
func sharedTable(w *wireTree) *table {
	var t *table
	n := 0
	for i := range w.Files {
		b := w.Files[i].body
		if w.Files[i].Summary != nil || b == nil || b.tbl == nil {
			continue
		}
		if t != nil && b.tbl != t {
			return nil
		}
		t = b.tbl
		n++
	}
	if t == nil || 4*n < 3*len(w.Files) || len(t.strs) > t.base+t.base/4 {
		return nil
	}
	return t
}

// decodeTree reads what encodeTree wrote: the table and each entry's
// directory; the summaries stay bytes until asked for.
func decodeTree(b []byte) (*wireTree, error) {
	if len(b) < len(magic) || string(b[:len(magic)]) != magic {
		return nil, errCorrupt
	}
	d := &decoder{b: b[len(magic):], left: decodeRatio*int64(len(b)) + 1<<16}
	if v := d.uint(); v != FormatVersion && d.err == nil {
		return nil, errors.New("written by another version")
	}
	w := &wireTree{Key: d.raw()}
	t := &table{strs: make([]string, d.count(1, unsafe.Sizeof("")))}
	t.base = int(min(d.uint(), uint64(len(t.strs))))
	at := d.b
	for i := range t.strs {
		t.strs[i] = d.view()
	}
	t.raw = at[: len(at)-len(d.b) : len(at)-len(d.b)]
	d.strs = t.strs
	w.Files = make([]wireEntry, d.count(minEntry, unsafe.Sizeof(wireEntry{})+unsafe.Sizeof(body{})))
	for i := range w.Files {
		we := &w.Files[i]
		we.Rel, we.Hash = d.raw(), d.raw()
		we.Stamp = Stamp{Size: d.int(), ModTime: d.int(), Ino: d.int(), Ctime: d.int()}
		we.Spent = d.int()
		at = d.b
		dir := d.dir()
		dirRaw := at[: len(at)-len(d.b) : len(at)-len(d.b)]
		n := d.count(1, 0)
		if d.err != nil {
			break
		}
		we.body = &body{raw: d.b[:n:n], dirRaw: dirRaw, tbl: t, dir: dir}
		d.b = d.b[n:]
	}
	if d.err == nil && len(d.b) != 0 {
		d.err = errCorrupt
	}
	if d.err != nil {
		return nil, d.err
	}
	t.left.Store(d.left)
	return w, nil
}

type encoder struct {
	b    []byte
	ids  map[string]int
	strs []string
}

func (e *encoder) uint(n uint64) { e.b = binary.AppendUvarint(e.b, n) }
func (e *encoder) int(n int64)   { e.b = binary.AppendVarint(e.b, n) }

// str writes s as its number in the table.
func (e *encoder) str(s string) {
	id, ok := e.ids[s]
	if !ok {
		id = len(e.strs)
		e.ids[s] = id
		e.strs = append(e.strs, s)
	}
	e.uint(uint64(id))
}

func (e *encoder) ints(xs []int) {
	e.uint(uint64(len(xs)))
	for _, x := range xs {
		e.int(int64(x))
	}
}

func (e *encoder) notes(m ArgNotes) {
	e.uint(uint64(len(m)))
	for _, k := range slices.Sorted(maps.Keys(m)) {
		e.int(int64(k))
		e.str(m[k])
	}
}

func (e *encoder) names(m Names) {
	e.uint(uint64(len(m)))
	for _, k := range slices.Sorted(maps.Keys(m)) {
		e.str(k)
		e.str(m[k])
	}
}

// The fewest bytes each element takes: an entry (two empty strings, a
// stamp, the work spent, an empty directory, a length), a function (three names, arity, facts bits,
// template parameter, four lists and four maps, queues), a queued work, a class.
const (
	minEntry  = 2 + 4 + 1 + 6 + 1
	minFunc   = 4 + 1 + 1 + 1 + 5 + 4 + 1
	minQueued = 2 + 1 + 1 + 1
	// minForward: param, arg, name, nargs, member, receiver, within.
	minForward = 7
	minClass   = 3 // name, namespace, members
)

// Func's yes-or-no facts, as bits of one number.
const (
	bitMayFree = 1 << iota
	bitWaits
	bitByValue
	bitStorage
	bitDecl
	bitRefersPtr
	bitReferDeref
	bitRefersView
	bitLocal
)

func (e *encoder) file(f *File) {
	e.uint(uint64(len(f.Funcs)))
	for i := range f.Funcs {
		fn := &f.Funcs[i]
		e.str(fn.Name)
		e.str(fn.Class)
		e.str(fn.Namespace)
		e.str(fn.File)
		e.int(int64(fn.Arity))
		bits := uint64(0)
		for _, b := range []struct {
			on  bool
			bit uint64
		}{{fn.MayFree, bitMayFree}, {fn.Waits, bitWaits}, {fn.ByValue, bitByValue}, {fn.Storage, bitStorage}, {fn.Decl, bitDecl}, {fn.RefersPtr, bitRefersPtr}, {fn.ReferDeref, bitReferDeref}, {fn.RefersView, bitRefersView}, {fn.Local, bitLocal}} {
			if b.on {
				bits |= b.bit
			}
		}
		e.uint(bits)
		e.int(int64(fn.RetParam))
		e.str(fn.Type)
		e.ints(fn.Grows)
		e.int(int64(fn.Refers))
		e.str(fn.ReferType)
		e.ints(fn.Bound)
		e.ints(fn.Reassigns)
		e.ints(fn.Frees)
		e.ints(fn.FreesDeref)
		e.uint(uint64(len(fn.FreesFields)))
		for _, f := range fn.FreesFields {
			e.str(f)
		}
		e.uint(uint64(len(fn.StoresIn)))
		for _, f := range fn.StoresIn {
			e.str(f)
		}
		e.uint(uint64(len(fn.Holds)))
		for _, f := range fn.Holds {
			e.str(f)
		}
		e.uint(uint64(len(fn.Fields)))
		for _, f := range fn.Fields {
			e.str(f)
		}
		e.ints(fn.Keeps)
		e.ints(fn.Reaches)
		e.notes(fn.Encodes)
		e.notes(fn.Defers)
		e.notes(fn.KeepsRefs)
		e.notes(fn.MayKeepRefs)
		e.uint(uint64(len(fn.Queues)))
		for _, q := range fn.Queues {
			e.ints(q.Reads)
			e.ints(q.Writes)
			e.int(int64(q.Queue))
			e.str(q.What)
			if q.PinnedOnly {
				e.uint(1)
			} else {
				e.uint(0)
			}
		}
		e.uint(uint64(len(fn.Forwards)))
		for _, fw := range fn.Forwards {
			e.int(int64(fw.Param))
			e.int(int64(fw.Arg))
			e.str(fw.Call.Name)
			e.int(int64(fw.Call.Nargs))
			if fw.Call.Member {
				e.uint(1)
			} else {
				e.uint(0)
			}
			e.str(fw.Call.Receiver)
			e.str(fw.Call.Within)
		}
	}
	e.uint(uint64(len(f.Classes)))
	for _, c := range f.Classes {
		e.str(c.Name)
		e.str(c.Namespace)
		e.names(c.Members)
	}
	e.names(f.Aliases)
}

// decoder reads the cache's format. The first error sticks: after it,
// every read returns zero and every count is zero, so loops end at once.
type decoder struct {
	b    []byte
	strs []string
	err  error
	// left is the memory the decoded tree may still take: a cache file
	// decodes to at most decodeRatio times its size (PyTorch's to 5.8),
	// so a crafted one cannot make a small file a large allocation.
	left int64
}

// decodeRatio bounds the memory a cache file decodes to, per byte of it.
const decodeRatio = 8

// mapEntry is what a map takes per entry beside its key and value.
const mapEntry = 16

func (d *decoder) fail() {
	if d.err == nil {
		d.err = errCorrupt
	}
	d.b = nil
}

func (d *decoder) uint() uint64 {
	n, w := binary.Uvarint(d.b)
	if w <= 0 {
		d.fail()
		return 0
	}
	d.b = d.b[w:]
	return n
}

func (d *decoder) int() int64 {
	n, w := binary.Varint(d.b)
	if w <= 0 {
		d.fail()
		return 0
	}
	d.b = d.b[w:]
	return n
}

// count reads a number of elements that each take at least least bytes
// of the file and size bytes of memory once decoded, refusing one the
// bytes left cannot hold or the memory left cannot take: nothing is
// allocated for elements that are not there.
func (d *decoder) count(least int, size uintptr) int {
	n := d.uint()
	if n > uint64(len(d.b)/least) {
		d.fail()
		return 0
	}
	d.left -= int64(n) * int64(size)
	if d.left < 0 {
		d.fail()
		return 0
	}
	return int(n)
}

func (d *decoder) raw() string {
	n := d.uint()
	if n > uint64(len(d.b)) {
		d.fail()
		return ""
	}
	s := string(d.b[:n])
	d.b = d.b[n:]
	return s
}

// view is raw without a copy: the string is the file's bytes, which the
// tree keeps and nothing writes.
func (d *decoder) view() string {
	n := d.uint()
	if n > uint64(len(d.b)) {
		d.fail()
		return ""
	}
	if n == 0 {
		return ""
	}
	s := unsafe.String(&d.b[0], int(n))
	d.b = d.b[n:]
	return s
}

func (d *decoder) str() string {
	id := d.uint()
	if id >= uint64(len(d.strs)) {
		d.fail()
		return ""
	}
	return d.strs[id]
}

func (d *decoder) ints() []int {
	n := d.count(1, unsafe.Sizeof(0))
	if n == 0 {
		return nil
	}
	out := make([]int, n)
	for i := range out {
		out[i] = int(d.int())
	}
	return out
}

func (d *decoder) notes() ArgNotes {
	n := d.count(2, mapEntry+unsafe.Sizeof(0)+unsafe.Sizeof(""))
	if n == 0 {
		return nil
	}
	out := make(ArgNotes, n)
	for range n {
		k := int(d.int())
		out[k] = d.str()
	}
	return out
}

func (d *decoder) names() Names {
	n := d.count(2, mapEntry+2*unsafe.Sizeof(""))
	if n == 0 {
		return nil
	}
	out := make(Names, n)
	for range n {
		k := d.str()
		out[k] = d.str()
	}
	return out
}

func (d *decoder) file() *File {
	f := &File{}
	if n := d.count(minFunc, unsafe.Sizeof(Func{})); n > 0 {
		f.Funcs = make([]Func, n)
	}
	for i := range f.Funcs {
		fn := &f.Funcs[i]
		fn.Name, fn.Class, fn.Namespace, fn.File = d.str(), d.str(), d.str(), d.str()
		fn.Arity = int(d.int())
		bits := d.uint()
		fn.MayFree, fn.Waits = bits&bitMayFree != 0, bits&bitWaits != 0
		fn.ByValue, fn.Storage = bits&bitByValue != 0, bits&bitStorage != 0
		fn.Decl, fn.RefersPtr, fn.ReferDeref = bits&bitDecl != 0, bits&bitRefersPtr != 0, bits&bitReferDeref != 0
		fn.RefersView, fn.Local = bits&bitRefersView != 0, bits&bitLocal != 0
		fn.RetParam = int(d.int())
		fn.Type = d.str()
		fn.Grows = d.ints()
		fn.Refers, fn.ReferType = int(d.int()), d.str()
		fn.Bound = d.ints()
		fn.Reassigns = d.ints()
		fn.Frees, fn.FreesDeref = d.ints(), d.ints()
		if n := d.count(1, unsafe.Sizeof("")); n > 0 {
			fn.FreesFields = make([]string, n)
			for j := range fn.FreesFields {
				fn.FreesFields[j] = d.str()
			}
		}
		if n := d.count(1, unsafe.Sizeof("")); n > 0 {
			fn.StoresIn = make([]string, n)
			for j := range fn.StoresIn {
				fn.StoresIn[j] = d.str()
			}
		}
		if n := d.count(1, unsafe.Sizeof("")); n > 0 {
			fn.Holds = make([]string, n)
			for j := range fn.Holds {
				fn.Holds[j] = d.str()
			}
		}
		if n := d.count(1, unsafe.Sizeof("")); n > 0 {
			fn.Fields = make([]string, n)
			for j := range fn.Fields {
				fn.Fields[j] = d.str()
			}
		}
		fn.Keeps, fn.Reaches = d.ints(), d.ints()
		fn.Encodes, fn.Defers, fn.KeepsRefs, fn.MayKeepRefs = d.notes(), d.notes(), d.notes(), d.notes()
		if n := d.count(minQueued, unsafe.Sizeof(Queued{})); n > 0 {
			fn.Queues = make([]Queued, n)
		}
		for j := range fn.Queues {
			q := &fn.Queues[j]
			q.Reads, q.Writes = d.ints(), d.ints()
			q.Queue = int(d.int())
			q.What = d.str()
			q.PinnedOnly = d.uint() != 0
		}
		if n := d.count(minForward, unsafe.Sizeof(Forward{})); n > 0 {
			fn.Forwards = make([]Forward, n)
		}
		for j := range fn.Forwards {
			fw := &fn.Forwards[j]
			fw.Param, fw.Arg = int(d.int()), int(d.int())
			fw.Call.Name = d.str()
			fw.Call.Nargs = int(d.int())
			fw.Call.Member = d.uint() != 0
			fw.Call.Receiver, fw.Call.Within = d.str(), d.str()
		}
	}
	if n := d.count(minClass, unsafe.Sizeof(Class{})); n > 0 {
		f.Classes = make([]Class, n)
	}
	for i := range f.Classes {
		f.Classes[i].Name = d.str()
		f.Classes[i].Namespace = d.str()
		f.Classes[i].Members = d.names()
	}
	f.Aliases = d.names()
	return f
}

func appendString(b []byte, s string) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}
