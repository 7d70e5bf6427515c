package main

import (
	"strings"
	"testing"
)

func TestByteSize(t *testing.T) {
	for in, want := range map[string]int64{
		"1048576": 1 << 20, "512k": 512 << 10, "512KiB": 512 << 10, "8M": 8 << 20, "8MB": 8 << 20,
		"1g": 1 << 30, "0": 0, "2 K": 2 << 10, "-1": -1,
	} {
		var b byteSize
		if err := b.Set(in); err != nil || int64(b) != want {
			t.Errorf("Set(%q) = %d, %v; want %d", in, b, err, want)
		}
	}
	for _, in := range []string{"", "MB", "1.5M", "1MBB", "12x", "99999999999999999G"} {
		var b byteSize
		if err := b.Set(in); err == nil {
			t.Errorf("Set(%q) = %d, want an error", in, b)
		}
	}
}

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
