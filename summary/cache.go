package summary

import (
	"crypto/sha256"
	"encoding/gob"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// FormatVersion changes whenever what a summary means changes, so that a
// cache written by another version is not read.
const FormatVersion = 2

// Entry is one file's summary in a tree cache, with what identifies the
// content it was computed from.
type Entry struct {
	Hash    string // HashContent of the bytes analysed
	Size    int64
	ModTime int64 // nanoseconds; with Size, lets a later run skip re-reading
	Summary *File
}

// Tree is the cached summaries of one tree (a scan root), by slash path
// relative to it.
type Tree struct {
	Key   string // who wrote it: see Cache.Load
	Files map[string]*Entry
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

// Open returns the cache in dir; nothing is created until Save.
func Open(dir string) *Cache { return &Cache{dir: dir} }

// Dir returns the cache's directory.
func (c *Cache) Dir() string { return c.dir }

// HashContent names file content in the cache.
func HashContent(src []byte) string {
	h := sha256.Sum256(src)
	return hex.EncodeToString(h[:16])
}

func (c *Cache) path(root string) string {
	h := sha256.Sum256([]byte(root))
	return filepath.Join(c.dir, fmt.Sprintf("tree-v%d-%s.gob", FormatVersion, hex.EncodeToString(h[:12])))
}

// Load reads the cached summaries of the tree at root (an absolute path)
// written under key (which says what computed them: the analysis version
// and the API model). A missing, unreadable or foreign cache is an empty
// tree, not an error: the scan then computes what it needs.
func (c *Cache) Load(root, key string) *Tree {
	empty := &Tree{Key: key, Files: map[string]*Entry{}}
	f, err := os.Open(c.path(root))
	if err != nil {
		return empty
	}
	defer func() { _ = f.Close() }() // read only: closing cannot lose data
	var t Tree
	if err := gob.NewDecoder(f).Decode(&t); err != nil || t.Key != key || t.Files == nil {
		return empty
	}
	return &t
}

// Save writes the tree's summaries for root, replacing the file in one
// step so a concurrent reader sees the old cache or the new one.
func (c *Cache) Save(root string, t *Tree) error {
	if err := os.MkdirAll(c.dir, 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(c.dir, ".tree-*")
	if err != nil {
		return err
	}
	err = gob.NewEncoder(tmp).Encode(t)
	err = errors.Join(err, tmp.Close())
	if err == nil {
		err = os.Rename(tmp.Name(), c.path(root))
	}
	if err != nil {
		_ = os.Remove(tmp.Name())
	}
	return err
}

// Fresh returns the entry for rel when the file on disk still has the
// size and modification time recorded with it.
func (t *Tree) Fresh(rel string, info fs.FileInfo) *Entry {
	e := t.Files[rel]
	if e == nil || info == nil || e.Size != info.Size() || e.ModTime != info.ModTime().UnixNano() {
		return nil
	}
	return e
}
