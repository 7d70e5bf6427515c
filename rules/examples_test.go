package rules

import (
	"strings"
	"testing"

	"github.com/holdfast-dev/holdfast/apimodel"
	"github.com/holdfast-dev/holdfast/diag"
	"github.com/holdfast-dev/holdfast/verify"
)

// TestExamplesAreTrue runs every rule over the Bad and Good examples that
// `holdfast explain`, docs/rules and SARIF show: the Bad one must be
// reported by its rule, the Good one must not.
func TestExamplesAreTrue(t *testing.T) {
	m, err := apimodel.Load()
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range All() {
		t.Run(r.Meta.ID, func(t *testing.T) {
			ext := ".cc"
			if strings.Contains(r.Meta.Example.Bad+r.Meta.Example.Good, "@") {
				ext = ".mm"
			}
			bad, good := asCode(r.Meta.Example.Bad), asCode(r.Meta.Example.Good)
			fs := analyse(t, m, r, "bad"+ext, []byte(bad))
			if len(fs) == 0 {
				t.Errorf("the Bad example is not reported:\n%s", bad)
			}
			// A finding the device does not reproduce is hidden by default,
			// so the Bad example must not replay clean.
			for _, f := range fs {
				if v := verify.Verify(f, verify.Options{}); v.Verdict == diag.NotReproduced {
					t.Errorf("the Bad example's finding replays clean (%s): %s\n%s", v.Reason, f.Message, bad)
				}
			}
			if fs := analyse(t, m, r, "good"+ext, []byte(good)); len(fs) != 0 {
				t.Errorf("the Good example is reported (%s):\n%s", fs[0].Message, good)
			}
		})
	}
}

// asCode makes an example a translation unit. An example that opens with a
// definition (its first code line ends in "{": a function or a class) is
// one already; any other is a run of statements, read as the body of a
// function, which is where a reader would paste it.
func asCode(example string) string {
	for _, line := range strings.Split(example, "\n") {
		code, _, _ := strings.Cut(line, "//")
		code = strings.TrimSpace(code)
		if code == "" {
			continue
		}
		if strings.HasSuffix(code, "{") {
			return example
		}
		break
	}
	return "void Example() {\n" + example + "\n}\n"
}
