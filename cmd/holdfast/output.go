package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/holdfast-dev/holdfast/discover"
)

// checkOutputPath runs before the scan and refuses an output path that
// would write somewhere other than it says, or over the code:
//
//   - a relative path must stay inside the scan root, lexically ("-o
//     ../../etc/x") and once links in its directory are resolved ("-o
//     link/x" where link is a committed symbolic link to a directory
//     elsewhere); an absolute path is the user's explicit choice, but
//     inside the root it is held to the same rule;
//   - the file itself must not be a symbolic link (a committed
//     "holdfast.sarif -> ~/.bashrc") or anything but a regular file;
//   - it must not have a scanned source extension, so a report cannot
//     overwrite a source file.
//
// safeio.Create refuses a link again when the file is opened, in case one
// appears meanwhile. "" and "-" mean standard output.
func checkOutputPath(path, root string) error {
	if path == "" || path == "-" {
		return nil
	}
	ext := strings.ToLower(filepath.Ext(path))
	if slices.Contains(discover.DefaultExtensions(), ext) {
		return fmt.Errorf("output %q has the extension of a scanned source (%s); refusing to overwrite source", path, ext)
	}
	abs := path
	if !filepath.IsAbs(abs) {
		abs = filepath.Join(root, path)
		if !inside(root, abs) {
			return fmt.Errorf("output %q is outside the scan root %s; pass an absolute path to write there", path, root)
		}
	}
	if fi, err := os.Lstat(abs); err == nil {
		switch {
		case fi.Mode()&fs.ModeSymlink != 0:
			return fmt.Errorf("output %q is a symbolic link; refusing to write through it (remove it, or name the file it points to)", path)
		case !fi.Mode().IsRegular():
			return fmt.Errorf("output %q is not a regular file", path)
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("output %q: %w", path, err)
	}
	if !inside(root, abs) {
		return nil
	}
	realRoot, err := filepath.EvalSymlinks(root)
	if err != nil {
		return fmt.Errorf("scan root: %w", err)
	}
	dir, err := filepath.EvalSymlinks(filepath.Dir(abs))
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("output %q: directory %s does not exist", path, filepath.Dir(abs))
		}
		return fmt.Errorf("output %q: %w", path, err)
	}
	if !inside(realRoot, dir) {
		return fmt.Errorf("output %q leads through a symbolic link to %s, outside the scan root", path, dir)
	}
	return nil
}

// inside reports whether path is root or below it, lexically.
func inside(root, path string) bool {
	rel, err := filepath.Rel(root, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}
