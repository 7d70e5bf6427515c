package summary

import (
	"os"
	"testing"
)

// BenchmarkLoadIndex decodes the tree cache file $HOLDFAST_BENCH_CACHE
// (skipped when unset; a full scan with --cache-dir writes one) and
// indexes every file's summary: what a partial scan with a warm cache
// pays before it executes anything.
//
//	HOLDFAST_BENCH_CACHE=DIR/tree-v*.sum go test ./summary -run - -bench LoadIndex -benchmem
func BenchmarkLoadIndex(b *testing.B) {
	path := os.Getenv("HOLDFAST_BENCH_CACHE")
	if path == "" {
		b.Skip("HOLDFAST_BENCH_CACHE is not set")
	}
	data, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("decode", func(b *testing.B) {
		for range b.N {
			if _, err := decodeTree(data); err != nil {
				b.Fatal(err)
			}
		}
	})
	w, err := decodeTree(data)
	if err != nil {
		b.Fatal(err)
	}
	files := make([]*File, len(w.Files))
	for i := range w.Files {
		files[i] = w.Files[i].Summary
	}
	b.Run("index", func(b *testing.B) {
		for range b.N {
			NewIndex(files...)
		}
	})
}
