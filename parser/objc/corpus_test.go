package objc

import (
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// TestCorpus measures the parse errors of every .mm file under the
// directory named by HOLDFAST_CORPUS, before and after neutralising.
// Run it with:
//
//	HOLDFAST_CORPUS=/work/corpus/pytorch-1.13.1 go test -run TestCorpus -v ./parser/objc/
func TestCorpus(t *testing.T) {
	root := os.Getenv("HOLDFAST_CORPUS")
	if root == "" {
		t.Skip("HOLDFAST_CORPUS is not set")
	}
	var files []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && strings.HasSuffix(path, ".mm") {
			files = append(files, path)
		}
		return nil
	})
	if err != nil {
		t.Fatalf("walk corpus: %v", err)
	}
	if len(files) == 0 {
		t.Fatalf("no .mm files under %s", root)
	}
	sort.Strings(files)
	p := newCPPParser(t)
	defer p.Close()
	var before, after, filesBefore, filesAfter int
	type worst struct {
		path string
		n    int
	}
	var remaining []worst
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatalf("read %s: %v", f, err)
		}
		out := Neutralise(src)
		checkInvariants(t, f, src, out)
		b := countErrors(t, p, src)
		a := countErrors(t, p, out)
		before += b
		after += a
		if b > 0 {
			filesBefore++
		}
		if a > 0 {
			filesAfter++
			rel, _ := filepath.Rel(root, f)
			remaining = append(remaining, worst{rel, a})
		}
	}
	sort.Slice(remaining, func(i, j int) bool { return remaining[i].n > remaining[j].n })
	for _, w := range remaining {
		t.Logf("still %d error nodes: %s", w.n, w.path)
	}
	share := func(n int) float64 { return 100 * float64(n) / float64(len(files)) }
	t.Logf("%d .mm files", len(files))
	t.Logf("before: %d ERROR/MISSING nodes, %d files with errors (%.1f%%)", before, filesBefore, share(filesBefore))
	t.Logf("after:  %d ERROR/MISSING nodes, %d files with errors (%.1f%%)", after, filesAfter, share(filesAfter))
	if after >= before {
		t.Errorf("neutralising did not reduce errors: %d before, %d after", before, after)
	}
}
