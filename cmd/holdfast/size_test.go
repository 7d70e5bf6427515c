package main

import (
	"strings"
	"testing"
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
