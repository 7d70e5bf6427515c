package gosrc

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func TestStringConsts(t *testing.T) {
	path := filepath.Join(t.TempDir(), "k.go")
	src := "package k\n\ntype Kind string\n\nconst (\n\tA Kind = \"a\"\n\tB Kind = \"b\"\n\tC string = \"c\"\n)\n\nconst D Kind = \"d\"\n"
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := StringConsts(path, "Kind")
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"a", "b", "d"}; !slices.Equal(got, want) {
		t.Errorf("StringConsts = %q, want %q", got, want)
	}
}
