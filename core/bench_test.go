package core

import (
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/holdfast-dev/holdfast/apimodel"
	"github.com/holdfast-dev/holdfast/parser"
)

// BenchmarkExecuteTree executes every function of the C++ sources under
// $HOLDFAST_BENCH_TREE (skipped when unset), each file with its own
// summaries: the executor's cost and allocations, without parsing.
//
//	HOLDFAST_BENCH_TREE=/path/to/aten/src/ATen/native go test ./core -run - -bench ExecuteTree -benchmem
func BenchmarkExecuteTree(b *testing.B) {
	root := os.Getenv("HOLDFAST_BENCH_TREE")
	if root == "" {
		b.Skip("HOLDFAST_BENCH_TREE is not set")
	}
	p, err := parser.New(parser.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer p.Close()
	api, err := apimodel.Load()
	if err != nil {
		b.Fatal(err)
	}
	var files []*parser.File
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		ext := filepath.Ext(path)
		if err != nil {
			return err
		}
		if d.IsDir() || (ext != ".cc" && ext != ".cpp" && ext != ".cu" && ext != ".mm" && ext != ".h") {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if len(src) > 1<<20 {
			return nil
		}
		if f, err := p.Parse(path, ext, src); err == nil {
			files = append(files, f)
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for range b.N {
		for _, f := range files {
			sums := NewFileSummaries(f)
			sums.API = api
			sums.Members = FileMembers(f, nil)
			sums.Alias = FileAliases(f, nil)
			for i := range f.Nodes {
				if f.Nodes[i].Kind == parser.KindFunctionDefinition {
					Execute(f, parser.NodeID(i), Options{Summaries: sums, API: api, Members: sums.Members, Alias: sums.Alias, Globals: sums.Globals})
				}
			}
		}
	}
}
