package bench

import (
	"os"
	"strings"
	"testing"
)

// TestPrecisionCorporaAreNotCheckHalf: no precision corpus is a
// repository of the real-bug benchmark's check half, whose code and fixes
// stay unread while the analysis changes (bench/precision/README.md).
// A repository renamed since it was listed is not caught here.
func TestPrecisionCorporaAreNotCheckHalf(t *testing.T) {
	check := map[string]bool{}
	for _, row := range rows(t, "realbugs/repos.tsv") {
		if len(row) > 1 && row[1] == "check" {
			check[strings.ToLower(row[0])] = true
		}
	}
	if len(check) == 0 {
		t.Fatal("realbugs/repos.tsv lists no check-half repository")
	}
	n := 0
	for _, row := range rows(t, "precision/corpora.tsv") {
		n++
		if repo := strings.ToLower(strings.Replace(row[0], "+", "/", 1)); check[repo] {
			t.Errorf("precision corpus %s is a check-half repository of the real-bug benchmark", row[0])
		}
	}
	if n == 0 {
		t.Fatal("precision/corpora.tsv lists no corpus")
	}
}

// rows reads a tab-separated file without its header line.
func rows(t *testing.T, path string) [][]string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out [][]string
	for i, line := range strings.Split(strings.TrimRight(string(b), "\n"), "\n") {
		if i == 0 || line == "" {
			continue
		}
		out = append(out, strings.Split(line, "\t"))
	}
	return out
}
