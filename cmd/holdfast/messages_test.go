package main

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/holdfast-dev/holdfast/rules"
)

// Bounds of the text format's lines, as a clang user reads them: the
// headline of a finding says what is wrong in one short line (the notes
// under it and the hint say the rest), and so does the hint.
const (
	maxHeadline = 120
	maxHint     = 120
	// A quoted name counts up to this many bytes: the names are the
	// user's, and a long one must not push the wording over the bound.
	quotedCounts = 20
)

var (
	headlineRE = regexp.MustCompile(`^\S+:\d+:\d+: (?:error|warning|note): (.*) \[(HF-[A-Z]\d{3})\]$`)
	quotedRE   = regexp.MustCompile(`'[^']*'`)
)

// headlineLen is the length of a message with each quoted name counted
// up to quotedCounts bytes.
func headlineLen(msg string) int {
	n := len(msg)
	for _, q := range quotedRE.FindAllString(msg, -1) {
		if name := len(q) - 2; name > quotedCounts {
			n -= name - quotedCounts
		}
	}
	return n
}

func TestHeadlineLen(t *testing.T) {
	long := strings.Repeat("x", 50)
	for msg, want := range map[string]int{
		"":                                  0,
		"'p' is used":                       11,
		"'" + long + "' is used":            2 + quotedCounts + 8,
		"'" + long + "' and '" + long + "'": 2*(2+quotedCounts) + 5,
	} {
		if got := headlineLen(msg); got != want {
			t.Errorf("headlineLen(%q) = %d, want %d", msg, got, want)
		}
	}
}

// TestMessagesAreShort scans the examples and every rule's testdata, all
// findings shown, and holds every finding's headline and hint line to
// the bounds, so that the wording cannot drift back into paragraphs.
func TestMessagesAreShort(t *testing.T) {
	root := filepath.Join("..", "..")
	out, _ := expect(t, 1, "scan", "--all", "--no-cache",
		filepath.Join(root, "examples"), filepath.Join(root, "rules", "testdata"))
	seen := map[string]bool{}
	for line := range strings.SplitSeq(out, "\n") {
		if hint, ok := strings.CutPrefix(line, "  hint: "); ok {
			if len(line) > maxHint {
				t.Errorf("hint line of %d bytes, want at most %d: %s", len(line), maxHint, hint)
			}
			continue
		}
		m := headlineRE.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		seen[m[2]] = true
		if n := headlineLen(m[1]); n > maxHeadline {
			t.Errorf("%s message of %d bytes, want at most %d: %s", m[2], n, maxHeadline, line)
		}
	}
	// Every rule has testdata: each one's wording and hint were checked.
	for _, r := range rules.All() {
		if !seen[r.Meta.ID] {
			t.Errorf("%s reported nothing on its testdata: its messages went unchecked", r.Meta.ID)
		}
	}
}
