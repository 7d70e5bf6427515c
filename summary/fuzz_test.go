package summary

import (
	"os"
	"testing"

	"github.com/holdfast-dev/holdfast/internal/fuzzlimit"
)

// FuzzCacheLoad feeds arbitrary bytes to the cache reader as the file of
// a tree: it must return (an error or a tree), never panic, hang or
// allocate from a count the bytes do not back.
func FuzzCacheLoad(f *testing.F) {
	w := wireTree{Key: "k", Files: []wireEntry{{Rel: "a.cc", Entry: Entry{Summary: &File{
		Funcs:   []Func{{Name: "f", File: "a.cc", Defers: ArgNotes{0: "stores it"}, Encodes: ArgNotes{1: "copy"}}},
		Classes: []Class{{Name: "C", Members: Names{"m": "int*"}}},
		Aliases: Names{"P": "int*"},
	}}}}}
	f.Add(encodeTree(&w))
	f.Add([]byte("not a cache"))
	f.Add([]byte{})
	dir := f.TempDir()
	c := Open(dir)
	f.Fuzz(func(t *testing.T, data []byte) {
		if err := os.WriteFile(c.path("/r", "k"), data, 0o600); err != nil {
			t.Fatal(err)
		}
		fuzzlimit.Run(fuzzlimit.PerInput, func() {
			tree, _ := c.Load("/r", "k")
			if tree == nil || tree.Files == nil {
				t.Fatal("Load must always return a tree")
			}
			for rel, e := range tree.Files {
				if !localSlash(rel) {
					t.Fatalf("entry outside the root kept: %q", rel)
				}
				_, _ = e.File() // a summary or an error, never a panic
			}
		})
	})
}
