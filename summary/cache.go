package summary

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/holdfast-dev/holdfast/internal/safeio"
)

// FormatVersion changes whenever what a summary means, or how the cache
// stores it, changes, so that a cache written by another version is not
// read.
const FormatVersion = 30

// MaxBytes bounds a cache file: a bigger one is not read. The summaries
// of an 80,000-file tree take about 35 MB.
const MaxBytes = 256 << 20

// Keep is how many tree caches a cache folder keeps (one per scanned
// root, build and API configuration); the least recently written beyond
// it are removed.
const Keep = 16

// KeepDays and KeepBytes bound a cache folder further: a tree cache not
// written for KeepDays days is removed, and so are the least recently
// written ones once those kept add up to more than KeepBytes. The one
// just written always stays.
const (
	KeepDays  = 30
	KeepBytes = 512 << 20
)

// Stamp identifies the state of a file on disk without reading it: its
// size and modification time, which copying tools and users can set
// back, and its inode and status-change time, which they cannot.
type Stamp struct {
	Size, ModTime, Ino, Ctime int64
}

// StampOf returns the stamp of a file's status; false when this system
// does not give what a user cannot set back, and then nothing cached is
// ever taken as fresh.
func StampOf(info fs.FileInfo) (Stamp, bool) {
	if info == nil || !info.Mode().IsRegular() {
		return Stamp{}, false
	}
	ino, ctime, ok := sysStamp(info)
	if !ok {
		return Stamp{}, false
	}
	return Stamp{Size: info.Size(), ModTime: info.ModTime().UnixNano(), Ino: ino, Ctime: ctime}, true
}

// Entry is one file's summary in a tree cache, with what identifies the
// content it was computed from.
type Entry struct {
	Hash  string // HashContent of the bytes analysed
	Stamp Stamp  // the file's status when it was read
	// Spent is the work, in units of the file's budget, that reading the
	// file's model and summarising it took: a scan that takes the summary
	// from here instead charges it to the file, so that what the file's
	// analysis finds within its budget is what a scan without the cache
	// finds.
	Spent int64
	// Summary is the summary a scan made; nil for an entry read from a
	// cache file, whose summary File decodes when it is first needed.
	Summary *File
	body    *body
}

// Tree is the cached summaries of one tree (a scan root), by slash path
// relative to it.
type Tree struct {
	Key   string // who wrote it: see Cache.Load
	Files map[string]*Entry

	// read is the status of the cache file the tree was read from, so
	// that an update can tell whether another scan replaced it since;
	// absent says there was none. Neither: the tree is not known to be
	// what the file holds.
	read   Stamp
	absent bool
}

// The file holds entries as a list, in the format of wire.go.
type wireTree struct {
	Key   string
	Files []wireEntry
}

type wireEntry struct {
	Rel string
	Entry
}

// Cache is a directory of tree caches.
type Cache struct {
	dir string
}

// DefaultDir is the user's cache directory for holdfast
// ($XDG_CACHE_HOME/holdfast, ~/.cache/holdfast, ...).
func DefaultDir() (string, error) {
	d, err := os.UserCacheDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(d, "holdfast"), nil
}

// Open returns the cache in dir; nothing is created until Update.
func Open(dir string) *Cache { return &Cache{dir: dir} }

// Dir returns the cache's directory.
func (c *Cache) Dir() string { return c.dir }

// HashContent names file content in the cache.
func HashContent(src []byte) string {
	h := sha256.Sum256(src)
	return hex.EncodeToString(h[:16])
}

// path names the cache file of one root written under one key, so that
// two builds or two configurations scanning the same tree each keep
// their own instead of undoing each other's.
func (c *Cache) path(root, key string) string {
	k := sha256.Sum256([]byte(root + "\x00" + key))
	return filepath.Join(c.dir, fmt.Sprintf("tree-v%d-%s-%s.sum", FormatVersion, rootName(root), hex.EncodeToString(k[:8])))
}

// rootName names a root in cache file names, whatever the build or key.
func rootName(root string) string {
	h := sha256.Sum256([]byte(root))
	return hex.EncodeToString(h[:8])
}

// Others says whether the cache holds summaries of the tree at root
// written by another build or under another key (another configuration
// of the API model), in this format or another: a scan that finds none
// of its own then says why it starts from nothing.
func (c *Cache) Others(root, key string) bool {
	mine := c.path(root, key)
	matches, _ := filepath.Glob(filepath.Join(c.dir, "tree-v*-"+rootName(root)+"-*.sum"))
	for _, m := range matches {
		if m != mine {
			return true
		}
	}
	return false
}

// CheckDir says why dir must not hold a cache: another user could plant
// summaries in it, or it is not a folder. A folder that does not exist
// yet is fine (it is created private to the user).
func CheckDir(dir string) error {
	info, err := os.Lstat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil:
		return err
	case info.Mode()&fs.ModeSymlink != 0:
		return errors.New("is a symbolic link, which is not followed")
	case !info.IsDir():
		return errors.New("is not a directory")
	case info.Mode().Perm()&0o022 != 0:
		return errors.New("is writable by other users")
	}
	if uid, ok := sysOwner(info); ok && euid() >= 0 && uid != euid() {
		return errors.New("is owned by another user")
	}
	return nil
}

// Load reads the cached summaries of the tree at root (an absolute path)
// written under key (which says what computed them: the analysis version
// and the API model). A missing cache is an empty tree; one that cannot
// be read or decoded is an empty tree and an error saying why. Only
// regular files are read, without following a link, and never more than
// MaxBytes.
func (c *Cache) Load(root, key string) (*Tree, error) {
	empty := &Tree{Key: key, Files: map[string]*Entry{}}
	data, info, err := safeio.ReadFileStat(c.path(root, key), MaxBytes, safeio.Options{NoFollow: true})
	if errors.Is(err, fs.ErrNotExist) {
		empty.absent = true
		return empty, nil
	}
	if err != nil {
		return empty, err
	}
	w, err := decodeTree(data)
	if err != nil {
		return empty, fmt.Errorf("%s: %w", c.path(root, key), err)
	}
	empty.read, _ = StampOf(info)
	if w.Key != key {
		return empty, nil
	}
	for _, e := range w.Files {
		if localSlash(e.Rel) {
			empty.Files[e.Rel] = &Entry{Hash: e.Hash, Stamp: e.Stamp, Spent: e.Spent, body: e.body}
		}
	}
	return empty, nil
}

// current returns base when the cache file is still the one base was
// read from (a writer always replaces the file, so its inode changes),
// and otherwise reads the file again.
func (c *Cache) current(root, key string, base *Tree) *Tree {
	if base != nil && base.Key == key {
		info, err := os.Lstat(c.path(root, key))
		st, ok := StampOf(info)
		if errors.Is(err, fs.ErrNotExist) && base.absent || err == nil && ok && base.read != (Stamp{}) && st == base.read {
			return &Tree{Key: key, Files: maps.Clone(base.Files), read: base.read, absent: base.absent}
		}
	}
	cur, _ := c.Load(root, key) // an unreadable cache is replaced
	return cur
}

// localSlash says rel is a clean slash path inside its root: no "..",
// not absolute, no backslash.
func localSlash(rel string) bool {
	return rel != "" && path.Clean(rel) == rel && filepath.IsLocal(rel) && !strings.ContainsRune(rel, '\\')
}

// Update merges into the cache of root under key: the entries of put
// replace those of the same files, and an entry whose file keep refuses
// (gone, excluded, no longer a source) is dropped. The merge happens
// under a lock on the cache file, so concurrent scans of the same tree
// (a pre-commit hook runs several) each add their files. The file is
// replaced in one step: a reader sees the old cache or the new one.
func (c *Cache) Update(root, key string, put map[string]*Entry, keep func(rel string) bool) error {
	return c.UpdateFrom(nil, root, key, put, keep)
}

// UpdateFrom is Update for a caller that has read the cache (base, from
// Load): when no other scan has replaced the file since, the merge starts
// from base instead of reading the file again. Nothing is written when
// the merge changes nothing.
func (c *Cache) UpdateFrom(base *Tree, root, key string, put map[string]*Entry, keep func(rel string) bool) error {
	if err := CheckDir(c.dir); err != nil {
		return fmt.Errorf("%s: %w", c.dir, err)
	}
	if err := os.MkdirAll(c.dir, 0o700); err != nil {
		return err
	}
	target := c.path(root, key)
	lf, err := safeio.Create(target + ".lock")
	if err != nil {
		return err
	}
	defer func() { _ = lf.Close() }() // closing releases the lock; nothing written
	if err := lock(lf); err != nil {
		return err
	}
	cur := c.current(root, key, base)
	changed := cur.absent || cur.read == (Stamp{})
	for rel := range cur.Files {
		if keep != nil && !keep(rel) {
			delete(cur.Files, rel)
			changed = true
		}
	}
	for rel, e := range put {
		if localSlash(rel) && e != nil && e.Summary != nil {
			have := cur.Files[rel]
			if have != nil && have.Hash == e.Hash && have.Stamp == e.Stamp {
				continue // the entry written before says the same: its bytes stay
			}
			changed = true
			cur.Files[rel] = e
		}
	}
	if !changed {
		return nil
	}
	w := wireTree{Key: key, Files: make([]wireEntry, 0, len(cur.Files))}
	for _, rel := range slices.Sorted(maps.Keys(cur.Files)) {
		w.Files = append(w.Files, wireEntry{Rel: rel, Entry: *cur.Files[rel]})
	}
	tmp, err := os.CreateTemp(c.dir, ".tree-*")
	if err != nil {
		return err
	}
	err = errors.Join(writeTree(tmp, &w), tmp.Close())
	if err == nil {
		err = os.Rename(tmp.Name(), target)
	}
	if err != nil {
		_ = os.Remove(tmp.Name()) // the write failed; the error says why
		return err
	}
	c.prune()
	return nil
}

// prune removes the least recently written tree caches beyond Keep, or
// older than KeepDays, or beyond KeepBytes in all, and their lock files,
// and temporary files a killed scan left behind (older than an hour: a
// live scan replaces its own within seconds). Failing to prune changes
// nothing but disk use.
func (c *Cache) prune() {
	if temps, err := filepath.Glob(filepath.Join(c.dir, ".tree-*")); err == nil {
		for _, t := range temps {
			if info, err := os.Lstat(t); err == nil && info.Mode().IsRegular() && time.Since(info.ModTime()) > time.Hour {
				_ = os.Remove(t)
			}
		}
	}
	// Caches of other format versions (other builds, older releases)
	// count towards Keep too, so that upgrading leaves no file behind
	// for good.
	matches, err := filepath.Glob(filepath.Join(c.dir, "tree-v*"))
	if err != nil {
		return
	}
	type aged struct {
		path string
		mod  int64
		size int64
	}
	var all []aged
	for _, m := range matches {
		if strings.HasSuffix(m, ".lock") {
			continue
		}
		if info, err := os.Lstat(m); err == nil && info.Mode().IsRegular() {
			all = append(all, aged{m, info.ModTime().UnixNano(), info.Size()})
		}
	}
	slices.SortFunc(all, func(a, b aged) int { return cmp.Or(cmp.Compare(b.mod, a.mod), cmp.Compare(a.path, b.path)) })
	cutoff := time.Now().Add(-KeepDays * 24 * time.Hour).UnixNano()
	var total int64
	for i, a := range all {
		total += a.size
		if i == 0 || i < Keep && a.mod >= cutoff && total <= KeepBytes {
			continue
		}
		_ = os.Remove(a.path)
		_ = os.Remove(a.path + ".lock")
	}
}

// Absent says the tree was loaded from no cache file (none was written
// for this root and key).
func (t *Tree) Absent() bool { return t != nil && t.absent }

// Fresh returns the entry for rel when info (the file's status, read
// without following a link) still has the stamp recorded with it.
func (t *Tree) Fresh(rel string, info fs.FileInfo) *Entry {
	e := t.Files[rel]
	if e == nil {
		return nil
	}
	st, ok := StampOf(info)
	if !ok || st != e.Stamp {
		return nil
	}
	return e
}
