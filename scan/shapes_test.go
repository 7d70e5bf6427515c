package scan

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/holdfast-dev/holdfast/diag"
	"github.com/holdfast-dev/holdfast/verify"
)

// markRE is a marker on the line where the default output must report:
// `// want "HF-B001"`; or where a bug is known and not found yet:
// `// miss "HF-B001"`, which fails once the bug is found, so that the
// marker is turned into a want.
var markRE = regexp.MustCompile(`//\s*(want|miss)((?:\s+"HF-[A-Z]\d{3}")+)`)

// TestShapes scans each small tree of testdata/shapes (a txtar archive:
// headers that define the types, sources that use them) whole, with the
// replay, as a user's default run does, and compares the findings the
// default output shows with the markers. A tree's correct twins carry no
// marker: a finding there is a false positive.
func TestShapes(t *testing.T) {
	archives, _ := filepath.Glob(filepath.Join("testdata", "shapes", "*.txtar"))
	if len(archives) == 0 {
		t.Fatal("no shapes")
	}
	for _, path := range archives {
		t.Run(strings.TrimSuffix(filepath.Base(path), ".txtar"), func(t *testing.T) {
			ar, err := txtar.ParseFile(path)
			if err != nil {
				t.Fatal(err)
			}
			dir := t.TempDir()
			want, miss := map[string][]string{}, map[string][]string{}
			for _, f := range ar.Files {
				write(t, dir, f.Name, f.Data)
				for i, line := range strings.Split(string(f.Data), "\n") {
					m := markRE.FindStringSubmatch(line)
					if m == nil {
						continue
					}
					at := fmt.Sprintf("%s:%d", f.Name, i+1)
					for _, id := range regexp.MustCompile(`HF-[A-Z]\d{3}`).FindAllString(m[2], -1) {
						if m[1] == "want" {
							want[at] = append(want[at], id)
						} else {
							miss[at] = append(miss[at], id)
						}
					}
				}
			}
			res := runDir(t, dir, Options{Verify: func(f *diag.Finding) *diag.Verification { return verify.Verify(f, verify.Options{}) }})
			for _, n := range res.Notices {
				if n.Level == "warning" {
					t.Errorf("warning: %s: %s", n.File, n.Message)
				}
			}
			for _, f := range res.Findings {
				if f.Verification != nil && !f.Verification.Verdict.Shown() || f.Suppressed != "" {
					continue
				}
				at := fmt.Sprintf("%s:%d", f.At.Start.File, f.At.Start.Line)
				if j := slices.Index(want[at], f.Rule.ID); j >= 0 {
					want[at] = slices.Delete(want[at], j, j+1)
					continue
				}
				if slices.Contains(miss[at], f.Rule.ID) {
					t.Errorf("%s: %s is found now: turn its miss marker into a want", at, f.Rule.ID)
					continue
				}
				t.Errorf("%s: unexpected %s: %s", at, f.Rule.ID, f.Message)
			}
			for at, ids := range want {
				for _, id := range ids {
					t.Errorf("%s: no %s in the default output", at, id)
				}
			}
		})
	}
}

// TestShapesHaveTwins keeps every shape honest: a tree with a bug marked
// also has code without one (at least one function with no marker).
func TestShapesHaveTwins(t *testing.T) {
	archives, _ := filepath.Glob(filepath.Join("testdata", "shapes", "*.txtar"))
	for _, path := range archives {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(strings.ToLower(string(data)), "twin") {
			t.Errorf("%s: no correct twin (a function whose name or comment says twin)", path)
		}
	}
}
