package esc

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestName(t *testing.T) {
	for in, want := range map[string]string{
		"src/a.cc":                  "src/a.cc",
		"a\n::add-mask::x\n.cc":     `a\n::add-mask::x\n.cc`,
		"x\x1b]0;title\x07y":        `x\x1b]0;title\x07y`,
		"ab\u202ecd\u2066":          `ab\u202ecd\u2066`,
		"tab\there\r":               `tab\there\r`,
		"bad\xffbyte":               `bad\xffbyte`,
		"c1\u009bend":               `c1\u009bend`,
		"caf\u00e9 \u4e2d back\\sl": "caf\u00e9 \u4e2d back\\sl",
	} {
		if got := Name(in); got != want {
			t.Errorf("Name(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestText(t *testing.T) {
	for in, want := range map[string]string{
		"borrowed from 'f(\n      x)'": "borrowed from 'f( x)'",
		"a\tb":                         "a b",
		"reason\n::error::pwned":       "reason ::error::pwned",
		"\x1b[2Jclear":                 `\x1b[2Jclear`,
	} {
		if got := Text(in); got != want {
			t.Errorf("Text(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestJSON: the rewrite leaves no unsafe character raw and every value
// as it was.
func TestJSON(t *testing.T) {
	v := map[string]string{"file": "a\u202eb\u0085c\x7fd\x1be\n", "ok": "plain é"}
	raw, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	out := JSON(raw)
	for _, r := range string(out) {
		if Unsafe(r) && r != '\n' {
			t.Errorf("%q left raw in %s", r, out)
		}
	}
	var back map[string]string
	if err := json.Unmarshal(out, &back); err != nil {
		t.Fatal(err)
	}
	if back["file"] != v["file"] || back["ok"] != v["ok"] || !strings.Contains(string(out), "\n  ") {
		t.Errorf("round trip: %q", back)
	}
}
