package discover

import (
	"bytes"
	"encoding/binary"
	"errors"
	"path"
)

// Git never ignores a tracked file: an ignore rule only keeps untracked
// files out of `git add`. A repository's index lists what it tracks, so
// a file committed with `git add -f` under a pattern of .gitignore is
// still part of the code and is scanned.

// tracked is what a repository's index lists: its files, and every
// directory above one (a sparse index's directory entries included), as
// slash paths relative to the repository's top level.
type tracked struct {
	files, dirs map[string]bool
}

func (t *tracked) hasFile(p string) bool { return t != nil && t.files[p] }
func (t *tracked) hasDir(p string) bool  { return t != nil && t.dirs[p] }

// maxIndexSize caps the index read (large monorepos have indexes of tens
// of megabytes).
const maxIndexSize = 256 << 20

var errIndex = errors.New("not a git index this reader knows")

// parseIndex reads a git index file (gitformat-index: versions 2, 3 and
// 4, SHA-1 object names). Only the paths of its entries are kept.
func parseIndex(data []byte) (*tracked, error) {
	if len(data) < 12 || !bytes.Equal(data[:4], []byte("DIRC")) {
		return nil, errIndex
	}
	version := binary.BigEndian.Uint32(data[4:8])
	if version < 2 || version > 4 {
		return nil, errIndex
	}
	n := binary.BigEndian.Uint32(data[8:12])
	t := &tracked{files: map[string]bool{}, dirs: map[string]bool{}}
	const fixed = 62 // stat data (40), object name (20), flags (2)
	at := 12
	var prev []byte
	for range n {
		if at+fixed > len(data) {
			return nil, errIndex
		}
		mode := binary.BigEndian.Uint32(data[at+24 : at+28])
		flags := binary.BigEndian.Uint16(data[at+60 : at+62])
		start := at
		at += fixed
		if flags&0x4000 != 0 {
			if version < 3 || at+2 > len(data) {
				return nil, errIndex
			}
			at += 2
		}
		var name []byte
		if version == 4 {
			strip, k, ok := indexVarint(data[at:])
			if !ok || strip > uint64(len(prev)) {
				return nil, errIndex
			}
			at += k
			end := bytes.IndexByte(data[at:], 0)
			if end < 0 {
				return nil, errIndex
			}
			name = append(append([]byte(nil), prev[:len(prev)-int(strip)]...), data[at:at+end]...)
			at += end + 1
		} else {
			end := bytes.IndexByte(data[at:], 0)
			if end < 0 {
				return nil, errIndex
			}
			name = data[at : at+end]
			// The entry is padded with 1 to 8 NULs to a multiple of 8.
			at = start + (at+end-start+8)/8*8
			if at > len(data) {
				return nil, errIndex
			}
		}
		prev = name
		p := string(name)
		if mode&0o170000 == 0o040000 {
			// A sparse index's directory entry ("dir/"): all below it.
			t.addDir(path.Clean(p))
			continue
		}
		t.files[p] = true
		t.addDir(path.Dir(p))
	}
	return t, nil
}

// addDir records dir and the directories above it.
func (t *tracked) addDir(dir string) {
	for dir != "." && dir != "/" && dir != "" && !t.dirs[dir] {
		t.dirs[dir] = true
		dir = path.Dir(dir)
	}
}

// indexVarint reads the offset encoding of index version 4 (as git's
// decode_varint): it returns the value, the bytes read, and false on a
// truncated or overlong value.
func indexVarint(b []byte) (uint64, int, bool) {
	if len(b) == 0 {
		return 0, 0, false
	}
	c := b[0]
	v := uint64(c & 127)
	i := 1
	for c&128 != 0 {
		if i >= len(b) || v >= 1<<56 {
			return 0, 0, false
		}
		v++
		c = b[i]
		i++
		v = v<<7 + uint64(c&127)
	}
	return v, i, true
}
