package main

import (
	"fmt"
	"path/filepath"
	"strings"
)

// checkOutputPath keeps a relative output path inside the scan root, so a
// configuration or script cannot make holdfast write elsewhere by accident
// ("-o ../../etc/x"). An absolute path is the user's explicit choice.
func checkOutputPath(path, root string) error {
	if path == "" || path == "-" || filepath.IsAbs(path) {
		return nil
	}
	rel, err := filepath.Rel(root, filepath.Join(root, path))
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return fmt.Errorf("output %q is outside the scan root %s; pass an absolute path to write there", path, root)
	}
	return nil
}
