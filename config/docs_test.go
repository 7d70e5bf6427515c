package config

import (
	"os"
	"regexp"
	"testing"
)

// TestDocExamplesParse: every YAML block of docs/config.md is a
// configuration holdfast accepts, so the page cannot show a key or a value
// the parser refuses.
func TestDocExamplesParse(t *testing.T) {
	doc, err := os.ReadFile("../docs/config.md")
	if err != nil {
		t.Fatal(err)
	}
	blocks := regexp.MustCompile("(?s)```yaml\n(.*?)```").FindAllSubmatch(doc, -1)
	if len(blocks) == 0 {
		t.Fatal("docs/config.md has no yaml block")
	}
	for i, b := range blocks {
		if _, err := Parse(".holdfast.yaml", b[1]); err != nil {
			t.Errorf("yaml block %d of docs/config.md: %v", i+1, err)
		}
	}
}
