package core

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/holdfast-dev/holdfast/apimodel"
	"github.com/holdfast-dev/holdfast/parser"
)

// wantRE marks the line of an expected fault: // want "kind" ["kind"...].
var wantRE = regexp.MustCompile(`//\s*want((?:\s+"[a-z-]+")+)`)

// TestFaults executes every function of testdata/*.cc and compares the
// faults with the // want markers: each marked line must have a fault of
// that kind, and no other line may have one.
func TestFaults(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("testdata", "*.cc"))
	if len(files) == 0 {
		t.Fatal("no testdata")
	}
	p, err := parser.New(parser.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	for _, path := range files {
		t.Run(filepath.Base(path), func(t *testing.T) {
			src, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			f, err := p.Parse(filepath.ToSlash(path), ".cc", src)
			if err != nil {
				t.Fatal(err)
			}
			want := map[int][]string{}
			for i, line := range strings.Split(string(src), "\n") {
				if m := wantRE.FindStringSubmatch(line); m != nil {
					for _, q := range regexp.MustCompile(`"([a-z-]+)"`).FindAllStringSubmatch(m[1], -1) {
						want[i+1] = append(want[i+1], q[1])
					}
				}
			}
			sums := NewFileSummaries(f)
			api, err := apimodel.Load()
			if err != nil {
				t.Fatal(err)
			}
			sums.API = api
			sums.Members = FileMembers(f, nil)
			sums.Alias = FileAliases(f, nil)
			for i := range f.Nodes {
				if f.Nodes[i].Kind != parser.KindFunctionDefinition {
					continue
				}
				r := Execute(f, parser.NodeID(i), Options{Summaries: sums, API: api, Members: sums.ClassFacts, Alias: sums.Alias, Globals: sums.Globals})
				for _, fl := range r.Faults {
					line, _ := f.Position(int(f.Nodes[fl.Use].Start))
					j := slices.Index(want[line], fl.Kind.String())
					if j < 0 {
						t.Errorf("%s:%d: unexpected %s of %q (owner %q, ended by %s)", path, line, fl.Kind, fl.Value, fl.Owner, fl.Via)
						continue
					}
					want[line] = slices.Delete(want[line], j, j+1)
				}
			}
			for line, ks := range want {
				for _, k := range ks {
					t.Errorf("%s:%d: no %s", path, line, k)
				}
			}
		})
	}
}

func ExampleFaultKind() {
	fmt.Println(UseAfterInvalidate)
	// Output: use-after-invalidate
}

// TestClassBases: a class's base clause is read into "(bases)", by last
// name, in order, whatever the access and template arguments.
func TestClassBases(t *testing.T) {
	p, err := parser.New(parser.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	f, err := p.Parse("b.cc", ".cc", []byte("struct D : public B1, private ns::B2<int>, virtual B3 { int x; };\nstruct E { int y; };\n"))
	if err != nil {
		t.Fatal(err)
	}
	cs := Classes(f)
	if got := cs["D"]["(bases)"]; got != "B1,B2,B3" {
		t.Errorf("D's bases %q, want B1,B2,B3", got)
	}
	if got, ok := cs["E"]["(bases)"]; ok {
		t.Errorf("E's bases %q, want none", got)
	}
}
