package device

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestModelDocIsInTheRepository: the device's semantics are documented in
// docs/device-model.md, every "docs/device-model.md §N" a source file cites
// names a section that exists, and no source file or doc points at a model
// document outside the repository.
func TestModelDocIsInTheRepository(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "docs", "device-model.md"))
	if err != nil {
		t.Fatal(err)
	}
	sections := map[string]bool{}
	for _, m := range regexp.MustCompile(`(?m)^## (\d+) `).FindAllStringSubmatch(string(doc), -1) {
		sections[m[1]] = true
	}
	cite := regexp.MustCompile(`docs/device-model\.md\s+§(\d+)`)
	outside := regexp.MustCompile(`MODEL\.md|MODEL §|/work/shared`)
	cited := 0
	err = filepath.WalkDir("..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && strings.HasPrefix(d.Name(), ".") && d.Name() != ".." {
			return filepath.SkipDir
		}
		if d.IsDir() || !(strings.HasSuffix(path, ".go") || strings.HasSuffix(path, ".md")) {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		text := strings.ReplaceAll(string(b), "\n//", "")
		for _, m := range cite.FindAllStringSubmatch(text, -1) {
			cited++
			if !sections[m[1]] {
				t.Errorf("%s cites docs/device-model.md §%s, which has no such section", path, m[1])
			}
		}
		if path != filepath.Join("..", "device", "doc_test.go") {
			if m := outside.FindString(string(b)); m != "" {
				t.Errorf("%s points outside the repository (%q)", path, m)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if cited == 0 {
		t.Error("no source file cites docs/device-model.md")
	}
}
