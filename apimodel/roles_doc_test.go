package apimodel

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestArchitectureListsEveryRole: docs/architecture.md's table of roles is
// the set ParseRole accepts, no more and no less.
func TestArchitectureListsEveryRole(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "docs", "architecture.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, table, ok := strings.Cut(string(doc), "| Role |")
	if !ok {
		t.Fatal("docs/architecture.md has no table of roles")
	}
	table, _, _ = strings.Cut(table, "\n\n")
	var documented []string
	for _, m := range regexp.MustCompile("(?m)^\\| `([a-z_]+)` \\|").FindAllStringSubmatch(table, -1) {
		documented = append(documented, m[1])
	}
	known := RoleNames()
	slices.Sort(documented)
	slices.Sort(known)
	if !slices.Equal(documented, known) {
		t.Errorf("docs/architecture.md lists the roles\n  %v\nthe code accepts\n  %v", documented, known)
	}
}
