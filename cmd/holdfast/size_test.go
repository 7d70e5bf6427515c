package main

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/holdfast-dev/holdfast/scan"
)

// TestSizeFlag: --max-file-size takes units, and a bad one is a usage
// error that names the flag.
func TestSizeFlag(t *testing.T) {
	tree(t, map[string]string{"big.cc": "int x;\n", "ok.cc": clean})
	expect(t, 0, "scan", "--max-file-size", "1K")
	if _, errs := expect(t, 2, "scan", "--max-file-size", "1.5MB"); !strings.Contains(errs, "--max-file-size") || !strings.Contains(errs, "is not a size") {
		t.Errorf("bad size: %q", errs)
	}
}

// TestFlagValueErrors: a flag value that is not a number (or a boolean)
// is a usage error that names the flag and says what it wants, not how
// Go failed to parse it.
func TestFlagValueErrors(t *testing.T) {
	tree(t, map[string]string{"ok.cc": clean})
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"scan", "-j", "abc"}, `"-j, --jobs" flag: want a whole number`},
		{[]string{"scan", "--all=maybe"}, `"--all" flag: want true or false`},
	} {
		_, errs := expect(t, 2, c.args...)
		if !strings.Contains(errs, c.want) || strings.Contains(errs, "strconv") {
			t.Errorf("%v: %q, want %q", c.args, errs, c.want)
		}
	}
}

// TestMaxFileSizeZeroIsTheDefault: --max-file-size 0 is the default limit,
// not no limit, as its help says: a file one byte over the default is
// skipped.
func TestMaxFileSizeZeroIsTheDefault(t *testing.T) {
	help, _ := expect(t, 0, "scan", "--help")
	if !strings.Contains(strings.Join(strings.Fields(help), " "), "0 means the default") {
		t.Errorf("--max-file-size's help does not say what 0 means:\n%s", help)
	}
	tree(t, map[string]string{"big.cc": ""})
	if err := os.Truncate("big.cc", scan.DefaultMaxFileSize+1); err != nil {
		t.Fatal(err)
	}
	out, _ := expect(t, 3, "scan", "--max-file-size", "0")
	if want := fmt.Sprintf("big.cc: warning: skipped: size %d bytes exceeds the limit of %d bytes", scan.DefaultMaxFileSize+1, scan.DefaultMaxFileSize); !strings.Contains(out, want) {
		t.Errorf("--max-file-size 0: want %q in\n%s", want, out)
	}
}
