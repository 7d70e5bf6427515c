package scan

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/holdfast-dev/holdfast/apimodel"
	"github.com/holdfast-dev/holdfast/internal/fuzzlimit"
	"github.com/holdfast-dev/holdfast/lifetime"
	"github.com/holdfast-dev/holdfast/parser"
	"github.com/holdfast-dev/holdfast/rules"
	"github.com/holdfast-dev/holdfast/verify"
)

// FuzzPipeline runs the per-file pipeline (Objective-C and CUDA
// neutralising, parse, lifetime model, every rule, the model dump, and the
// replay of every finding on the simulated device) on
// arbitrary bytes as each kind of source. Seeds are the rules' testdata.
func FuzzPipeline(f *testing.F) {
	paths, _ := filepath.Glob("../rules/testdata/*/*")
	for _, p := range paths {
		src, err := os.ReadFile(p)
		if err == nil {
			f.Add(src, uint8(0))
		}
	}
	f.Add([]byte("@implementation X - (void)f { [a b:^{ c(); }]; } @end"), uint8(2))
	f.Add([]byte("k<<<1, 2>>>(x); __global__ void g() {}"), uint8(1))
	m, err := apimodel.Load()
	if err != nil {
		f.Fatal(err)
	}
	exts := []string{".cc", ".cu", ".mm", ".h"}
	rs := rules.All()
	f.Fuzz(func(t *testing.T, src []byte, which uint8) {
		fuzzlimit.Run(fuzzlimit.PerInput, func() { pipeline(t, m, rs, src, exts[int(which)%len(exts)]) })
	})
}

// pipeline is one input of FuzzPipeline.
func pipeline(t *testing.T, m *apimodel.Model, rs []*rules.Rule, src []byte, ext string) {
	{
		p, err := parser.New(parser.Options{DeclMacros: m.DeclMacros()})
		if err != nil {
			t.Fatal(err)
		}
		defer p.Close()
		pf, err := p.Parse("fuzz"+ext, ext, src)
		if err != nil {
			t.Fatal(err)
		}
		if len(pf.Src) != len(src) {
			t.Fatalf("neutralising changed the length: %d -> %d", len(src), len(pf.Src))
		}
		funcs := lifetime.Build(pf, m)
		for _, fn := range funcs {
			if err := fn.Dump(discard{}); err != nil {
				t.Fatal(err)
			}
		}
		for _, fd := range rules.Run(pf, m, funcs, rs, nil) {
			if fd.At.Start.Offset < 0 || fd.At.Start.Offset > len(src) || fd.At.Start.Line < 1 {
				t.Fatalf("finding outside the file: %+v", fd.At)
			}
			if v := verify.Verify(fd, verify.Options{StateCap: 2000}); v == nil || v.Verdict == "" {
				t.Fatalf("no verdict for %s", fd.Message)
			}
		}
	}
}

type discard struct{}

func (discard) Write(b []byte) (int, error) { return len(b), nil }
