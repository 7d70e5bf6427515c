// Command parseonly parses the files holdfast would scan, with the same
// discovery and size limit, leaving out the generated sources a scan
// leaves out (scan.GeneratedWhy), with the same parser setup (C
// allocator, declaration macros, Objective-C and CUDA neutralising, the
// flat table) and the same number of workers, and does nothing else. bench/run.sh compares it with a full
// scan to give the cost of analysis over parsing.
package main

import (
	"flag"
	"fmt"
	"os"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/holdfast-dev/holdfast/apimodel"
	"github.com/holdfast-dev/holdfast/discover"
	"github.com/holdfast-dev/holdfast/parser"
	"github.com/holdfast-dev/holdfast/scan"
)

func main() {
	jobs := flag.Int("j", runtime.GOMAXPROCS(0), "parallel workers")
	flag.Parse()
	paths := flag.Args()
	if len(paths) == 0 {
		paths = []string{"."}
	}
	m, err := apimodel.Load()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	files, _, err := discover.Find(paths, discover.Options{MaxFileSize: scan.DefaultMaxFileSize})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	next := make(chan int)
	var wg sync.WaitGroup
	var nodes, bytes, generated atomic.Int64
	for range *jobs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p, err := parser.New(parser.Options{DeclMacros: m.DeclMacros()})
			if err != nil {
				panic(err)
			}
			defer p.Close()
			for i := range next {
				src, err := os.ReadFile(files[i].Path)
				if err != nil {
					continue
				}
				if scan.GeneratedWhy(src) != "" {
					generated.Add(1)
					continue
				}
				f, err := p.Parse(files[i].Rel, files[i].Ext, src)
				if err != nil {
					continue
				}
				nodes.Add(int64(len(f.Nodes)))
				bytes.Add(int64(len(src)))
			}
		}()
	}
	for i := range files {
		next <- i
	}
	close(next)
	wg.Wait()
	fmt.Printf("%d files, %d bytes, %d nodes, %d generated files left out\n", len(files), bytes.Load(), nodes.Load(), generated.Load())
}
