// Package discover finds the source files a scan should read.
//
// Find walks the named files and directories and returns the C, C++,
// Objective-C++ and CUDA sources among them, honouring .gitignore files the
// way git does, the caller's exclude globs, and an optional size cap.
//
// Semantics in brief:
//
//   - A named file is included when its extension is in the scanned set,
//     even if a .gitignore would ignore it (pre-commit hooks pass staged
//     file names). Exclude globs still apply to it, and then it is skipped
//     without a warning, because the caller asked for that. A named file
//     with another extension is skipped with a Warning.
//   - A named directory is walked even if an enclosing .gitignore ignores
//     it; everything below it is subject to the ignore rules, including
//     those of .gitignore files between the repository top level and the
//     directory. Exclude globs apply to the directory itself.
//   - A named path that does not exist (or cannot be examined) yields a
//     Warning. Find returns a non-nil error only when none of the named
//     paths could be examined; the error names each of them.
//   - .gitignore files are read at every level with git's pattern syntax
//     and precedence; the top level of a repository (a directory holding
//     .git) also contributes .git/info/exclude. A nested repository starts
//     afresh: the outer repository's rules do not reach into it, although
//     they can ignore it as a whole. Global git configuration
//     (core.excludesFile) is not consulted, so results do not depend on the
//     user's machine. Outside any repository, .gitignore files from Root
//     (or the named directory, when it lies outside Root) downwards apply.
//   - A file the repository's index tracks is scanned even when an ignore
//     rule matches it (git never ignores a tracked file), with a Warning
//     that says so; so is an ignored directory holding tracked files.
//   - .git is never walked; other hidden directories are.
//   - Symbolic links to directories are not followed, so links cannot form
//     loops; a link to a directory that would otherwise be walked yields a
//     Warning. A link to a file is included under the link's own path.
//     Symbolic links named on the command line are followed.
//   - Directories that cannot be read, files that vanish before they are
//     examined, broken links and special files with a source extension all
//     yield Warnings; the walk goes on.
//   - Files come back sorted by Rel without duplicates; Warnings sorted by
//     Path and Msg without duplicates.
package discover

import (
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/holdfast-dev/holdfast/internal/safeio"
)

// Options control discovery.
type Options struct {
	// Root is the base for relative paths in reports; "" means the
	// current directory.
	Root string
	// Exclude holds doublestar globs matched against the slash path of
	// each file and directory relative to Root and against each of that
	// path's suffixes that starts after a "/": "build" excludes every
	// file or directory named build, "third_party/**" everything below
	// any third_party directory, "**/*_test.cc" every test source. A
	// trailing "/" and a leading "./" are ignored. Matching is
	// case-sensitive.
	Exclude []string
	// Extensions lists the file extensions to scan, each with or without
	// its leading dot, compared case-insensitively against the part of
	// the file name from its last dot. Nil means DefaultExtensions().
	Extensions []string
	// MaxFileSize, when positive, is the largest file size in bytes that
	// is scanned; bigger files are skipped with a Warning.
	MaxFileSize int64
}

// DefaultExtensions returns the extensions scanned when
// Options.Extensions is nil: C, C++, their headers and inline files,
// CUDA, Objective-C and Objective-C++.
func DefaultExtensions() []string {
	return []string{".c", ".cc", ".cpp", ".cxx", ".c++", ".h", ".hh", ".hpp", ".hxx", ".inl", ".ipp", ".cu", ".cuh", ".m", ".mm"}
}

// File is one source file to scan.
type File struct {
	// Path is the OS path to open: the named path joined with the
	// file's path below it.
	Path string
	// Rel is the slash-separated path relative to Root, or the absolute
	// slash path when the file lies outside Root.
	Rel string
	// Ext is the lower-cased extension, including the dot.
	Ext string
	// Size is the file's size in bytes.
	Size int64
	// Info is the file's own status as the walk read it, without
	// following a link; nil for a file named or reached through a link.
	Info fs.FileInfo
}

// Warning is a problem with one path; discovery goes on without it.
type Warning struct {
	// Path is in the form of File.Rel: slash-separated, relative to
	// Root when inside it.
	Path string
	Msg  string
	// Skipped says source that should have been scanned was not: a
	// file over the size cap, an unreadable or vanished file or
	// directory, a broken link or a special file (a FIFO, a device) with
	// a source extension, an ignore file that was refused. Paths that are
	// not source (other extensions, linked directories git would not
	// follow either) are warnings without Skipped.
	Skipped bool
	// Loud says the user should hear of it even though nothing was
	// skipped: a tracked file that an ignore rule matches (a pull request
	// may add the rule to hide the file from a scan that honours it).
	Loud bool
}

func (w Warning) String() string { return w.Path + ": " + w.Msg }

// Find returns the source files under paths, which name files or
// directories, together with Warnings about paths that were skipped for
// reasons the caller did not ask for. The error is non-nil when the
// options are invalid or when none of paths could be examined.
func Find(paths []string, opt Options) ([]File, []Warning, error) {
	w, err := newWalker(opt)
	if err != nil {
		return nil, nil, err
	}
	return w.run(paths)
}

// run performs the discovery for Find.
func (w *walker) run(paths []string) ([]File, []Warning, error) {
	var missing []error
	for _, p := range paths {
		if err := w.named(p); err != nil {
			missing = append(missing, err)
		}
	}
	files, warns := w.results()
	if len(paths) > 0 && len(missing) == len(paths) {
		// One %w per path keeps every cause reachable through errors.Is.
		format := "nothing to scan: " + strings.TrimSuffix(strings.Repeat("%w; ", len(missing)), "; ")
		args := make([]any, len(missing))
		for i, e := range missing {
			args[i] = e
		}
		return files, warns, fmt.Errorf(format, args...)
	}
	return files, warns, nil
}

// walker holds the state of one Find call.
type walker struct {
	root     string // absolute, cleaned
	realRoot string // root with its links resolved, once needed
	exts     map[string]bool
	excludes []string
	maxSize  int64

	files []File
	seen  map[string]bool // Rel of files already listed
	warns []Warning

	// Filesystem access, replaceable in tests to simulate failures.
	readDir func(string) ([]fs.DirEntry, error)
	stat    func(string) (fs.FileInfo, error)
	lstat   func(string) (fs.FileInfo, error)
}

// newWalker validates opt and prepares a walk.
func newWalker(opt Options) (*walker, error) {
	root := opt.Root
	if root == "" {
		root = "."
	}
	root, err := filepath.Abs(root)
	if err != nil {
		return nil, fmt.Errorf("root %q: %w", opt.Root, err)
	}
	w := &walker{
		root:    root,
		exts:    map[string]bool{},
		maxSize: opt.MaxFileSize,
		seen:    map[string]bool{},
		readDir: os.ReadDir,
		stat:    os.Stat,
		lstat:   os.Lstat,
	}
	exts := opt.Extensions
	if exts == nil {
		exts = DefaultExtensions()
	}
	for _, orig := range exts {
		e := strings.ToLower(orig)
		if !strings.HasPrefix(e, ".") {
			e = "." + e
		}
		if e == "." || strings.ContainsAny(e[1:], `./\`) {
			return nil, fmt.Errorf("invalid extension %q: want a dot followed by a suffix without dots or slashes", orig)
		}
		w.exts[e] = true
	}
	for _, x := range opt.Exclude {
		p := strings.TrimPrefix(x, "./")
		if len(p) > 1 {
			p = strings.TrimSuffix(p, "/")
		}
		if p == "" || !doublestar.ValidatePattern(p) {
			return nil, fmt.Errorf("invalid exclude pattern %q", x)
		}
		w.excludes = append(w.excludes, p)
	}
	return w, nil
}

// named handles one path given to Find. It returns an error only when the
// path cannot be examined at all.
func (w *walker) named(p string) error {
	osPath := filepath.Clean(p)
	abs, err := filepath.Abs(osPath)
	if err != nil {
		w.skip(filepath.ToSlash(osPath), err.Error())
		return fmt.Errorf("%s: %w", p, err)
	}
	rel := w.relOf(abs)
	info, err := w.stat(osPath)
	if err != nil {
		w.skip(rel, describe(err))
		return err
	}
	if rel != "." && w.excluded(rel) {
		return nil
	}
	if info.IsDir() {
		levels, gitRel, tr := w.ancestorRules(abs)
		if rel == "." {
			rel = ""
		}
		w.walkDir(osPath, rel, levels, gitRel, tr)
		return nil
	}
	ext := strings.ToLower(filepath.Ext(osPath))
	if !w.exts[ext] {
		if ext == "" {
			w.warn(rel, "skipped: no file extension, so not a source file to scan")
		} else {
			w.warn(rel, "skipped: extension "+strconv.Quote(ext)+" is not one of the scanned extensions")
		}
		return nil
	}
	if !info.Mode().IsRegular() {
		w.skip(rel, "skipped: not a regular file")
		return nil
	}
	w.add(File{Path: osPath, Rel: rel, Ext: ext, Size: info.Size()})
	return nil
}

// relOf returns the slash path of abs relative to the root, or abs as a
// slash path when it lies outside.
func (w *walker) relOf(abs string) string {
	r, err := filepath.Rel(w.root, abs)
	if err != nil || r == ".." || strings.HasPrefix(r, ".."+string(filepath.Separator)) || filepath.IsAbs(r) {
		return filepath.ToSlash(abs)
	}
	return filepath.ToSlash(r)
}

// ancestorRules returns the ignore rules that apply inside the directory
// abs from the directories above it, the slash path of abs relative to the
// base those rules are anchored at, and what the repository there tracks.
func (w *walker) ancestorRules(abs string) ([]ignoreLevel, string, *tracked) {
	base := ""
	repo := false
	for d := abs; ; {
		if _, err := w.lstat(filepath.Join(d, ".git")); err == nil {
			base, repo = d, true
			break
		}
		parent := filepath.Dir(d)
		if parent == d {
			break
		}
		d = parent
	}
	if !repo {
		if r, err := filepath.Rel(w.root, abs); err == nil && r != ".." && !strings.HasPrefix(r, ".."+string(filepath.Separator)) && !filepath.IsAbs(r) {
			base = w.root
		} else {
			base = abs
		}
	}
	if base == abs {
		// walkDir reads the directory's own files.
		return nil, "", nil
	}
	r, err := filepath.Rel(base, abs)
	if err != nil {
		return nil, "", nil
	}
	gitRel := filepath.ToSlash(r)
	var levels []ignoreLevel
	var tr *tracked
	if repo {
		levels = w.appendRules(levels, "", w.infoExclude(base), "")
		tr = w.trackedIn(base)
	}
	dir, prefix := base, ""
	for _, elem := range strings.Split(gitRel, "/") {
		levels = w.appendRules(levels, prefix, filepath.Join(dir, ".gitignore"), "")
		dir = filepath.Join(dir, elem)
		prefix += elem + "/"
	}
	return levels, gitRel, tr
}

// infoExclude returns the path of the info/exclude file of the repository
// whose top level is dir, or "" when it cannot be located.
func (w *walker) infoExclude(dir string) string {
	dotGit := filepath.Join(dir, ".git")
	info, err := w.lstat(dotGit)
	if err != nil {
		return ""
	}
	if info.IsDir() {
		return filepath.Join(dotGit, "info", "exclude")
	}
	// A worktree or submodule: ".git" is a file "gitdir: <path>".
	data, err := safeio.ReadFile(dotGit, maxGitFileSize, safeio.Options{})
	if err != nil {
		return ""
	}
	line, _, _ := strings.Cut(string(data), "\n")
	gitDir, ok := strings.CutPrefix(strings.TrimSpace(line), "gitdir:")
	if !ok {
		return ""
	}
	gitDir = filepath.FromSlash(strings.TrimSpace(gitDir))
	if !filepath.IsAbs(gitDir) {
		gitDir = filepath.Join(dir, gitDir)
	}
	if common, err := safeio.ReadFile(filepath.Join(gitDir, "commondir"), maxGitFileSize, safeio.Options{}); err == nil {
		c := filepath.FromSlash(strings.TrimSpace(string(common)))
		if !filepath.IsAbs(c) {
			c = filepath.Join(gitDir, c)
		}
		gitDir = c
	}
	return filepath.Join(gitDir, "info", "exclude")
}

// trackedIn reads the index of the repository whose top level is dir
// (.git/index, or a worktree's own index); nil when there is none or it
// cannot be read, and ignore rules then apply to every file.
func (w *walker) trackedIn(dir string) *tracked {
	gitDir := filepath.Join(dir, ".git")
	if info, err := w.lstat(gitDir); err != nil {
		return nil
	} else if !info.IsDir() {
		// A worktree or submodule: ".git" is a file "gitdir: <path>",
		// and the index is that directory's own.
		data, err := safeio.ReadFile(gitDir, maxGitFileSize, safeio.Options{})
		if err != nil {
			return nil
		}
		line, _, _ := strings.Cut(string(data), "\n")
		d, ok := strings.CutPrefix(strings.TrimSpace(line), "gitdir:")
		if !ok {
			return nil
		}
		gitDir = filepath.FromSlash(strings.TrimSpace(d))
		if !filepath.IsAbs(gitDir) {
			gitDir = filepath.Join(dir, gitDir)
		}
	}
	data, err := safeio.ReadFile(filepath.Join(gitDir, "index"), maxIndexSize, safeio.Options{})
	if err != nil {
		return nil
	}
	t, err := parseIndex(data)
	if err != nil {
		return nil
	}
	return t
}

// Caps on the files discovery reads: an ignore file, and the small files
// that locate a worktree's git directory.
const (
	maxIgnoreFileSize = 4 << 20
	maxGitFileSize    = 64 << 10
)

// appendRules reads the ignore file at file, if it exists, and appends
// its rules as a level anchored at prefix. Read failures other than
// absence are reported against warnPath, or the file's path when empty.
// A .gitignore that is a symbolic link or not a regular file is not read,
// as git does not read it; info/exclude is followed but must be a regular
// file. Neither is read past maxIgnoreFileSize bytes. A refusal is a
// Skipped warning, since the files it would have kept out may be scanned.
func (w *walker) appendRules(levels []ignoreLevel, prefix, file, warnPath string) []ignoreLevel {
	if file == "" {
		return levels
	}
	gitignore := filepath.Base(file) == ".gitignore"
	data, err := safeio.ReadFile(file, maxIgnoreFileSize, safeio.Options{NoFollow: gitignore})
	if err != nil {
		if warnPath == "" {
			warnPath = w.relOf(file)
		}
		var tl *safeio.TooLargeError
		switch {
		case errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR):
		case gitignore && errors.Is(err, safeio.ErrNotRegular):
		case errors.Is(err, safeio.ErrNotRegular) || errors.As(err, &tl):
			w.skip(warnPath, "ignore file not read, so its rules are not applied: "+describe(err))
		default:
			w.warn(warnPath, "cannot read ignore file, so its rules are not applied: "+describe(err))
		}
		return levels
	}
	rules := parseIgnore(data)
	if len(rules) == 0 {
		return levels
	}
	// The full slice expression makes append copy, so sibling
	// directories never share a backing array.
	return append(levels[:len(levels):len(levels)], ignoreLevel{prefix: prefix, rules: rules})
}

// walkDir lists the directory at osPath, whose report path is rel (""
// for the root) and whose path relative to the ignore base is gitRel,
// under the ignore rules in levels.
func (w *walker) walkDir(osPath, rel string, levels []ignoreLevel, gitRel string, tr *tracked) {
	entries, err := w.readDir(osPath)
	if err != nil {
		w.skip(cmp.Or(rel, "."), "cannot read directory, so its contents are not scanned: "+describe(err))
		if len(entries) == 0 {
			return
		}
	}
	if hasEntry(entries, ".git") {
		// The top level of a repository: outer rules stop here.
		levels, gitRel = nil, ""
		levels = w.appendRules(levels, "", w.infoExclude(osPath), joinRel(rel, ".git/info/exclude"))
		tr = w.trackedIn(osPath)
	}
	// Like git, a .gitignore that is a symbolic link is not read.
	if i, ok := findEntry(entries, ".gitignore"); ok && entries[i].Type().IsRegular() {
		levels = w.appendRules(levels, prefixOf(gitRel), filepath.Join(osPath, ".gitignore"), joinRel(rel, ".gitignore"))
	}
	for _, e := range entries {
		name := e.Name()
		if name == ".git" {
			continue
		}
		typ := e.Type()
		childRel := joinRel(rel, name)
		childGit := joinRel(gitRel, name)
		childPath := filepath.Join(osPath, name)
		switch {
		case typ.IsDir():
			if ignored(levels, childGit, name, true) && !tr.hasDir(childGit) || w.excluded(childRel) {
				continue
			}
			w.walkDir(childPath, childRel, levels, childGit, tr)
		case typ&fs.ModeSymlink != 0:
			w.symlink(childPath, childRel, childGit, name, levels)
		default:
			ext := strings.ToLower(filepath.Ext(name))
			if !w.exts[ext] || w.excluded(childRel) {
				continue
			}
			if ignored(levels, childGit, name, false) {
				if !tr.hasFile(childGit) {
					continue
				}
				w.warns = append(w.warns, Warning{Path: childRel, Loud: true,
					Msg: "scanned though a .gitignore rule matches it: git tracks it, and an ignore rule never applies to a tracked file"})
			}
			if !typ.IsRegular() {
				w.skip(childRel, "skipped: not a regular file")
				continue
			}
			info, err := e.Info()
			if err != nil {
				w.skip(childRel, "skipped: "+describe(err))
				continue
			}
			w.add(File{Path: childPath, Rel: childRel, Ext: ext, Size: info.Size(), Info: info})
		}
	}
}

// symlink handles a symbolic link met during a walk. Git records links as
// links, so ignore rules see a file, whatever the target.
func (w *walker) symlink(osPath, rel, gitRel, name string, levels []ignoreLevel) {
	if ignored(levels, gitRel, name, false) || w.excluded(rel) {
		return
	}
	ext := strings.ToLower(filepath.Ext(name))
	info, err := w.stat(osPath)
	switch {
	case err != nil:
		if w.exts[ext] {
			w.skip(rel, "skipped: broken symbolic link: "+describe(err))
		}
	case info.IsDir():
		w.warn(rel, "skipped: symbolic link to a directory is not followed")
	case !w.exts[ext]:
	case !info.Mode().IsRegular():
		w.skip(rel, "skipped: not a regular file")
	case !w.inside(osPath):
		// On a shared runner, a committed link can point into another
		// job's tree: its names and lines must not reach the report.
		w.skip(rel, "skipped: symbolic link to a file outside the scanned root is not followed")
	default:
		w.add(File{Path: osPath, Rel: rel, Ext: ext, Size: info.Size()})
	}
}

// inside says the link at osPath resolves to a file under the root.
func (w *walker) inside(osPath string) bool {
	if w.realRoot == "" {
		r, err := filepath.EvalSymlinks(w.root)
		if err != nil {
			r = w.root
		}
		w.realRoot = r
	}
	target, err := filepath.EvalSymlinks(osPath)
	if err != nil {
		return false
	}
	rel, err := filepath.Rel(w.realRoot, target)
	return err == nil && filepath.IsLocal(rel)
}

// add records a file unless it is a duplicate or too big.
func (w *walker) add(f File) {
	if w.seen[f.Rel] {
		return
	}
	if w.maxSize > 0 && f.Size > w.maxSize {
		w.skip(f.Rel, fmt.Sprintf("skipped: size %d bytes exceeds the limit of %d bytes", f.Size, w.maxSize))
		return
	}
	w.seen[f.Rel] = true
	w.files = append(w.files, f)
}

func (w *walker) warn(path, msg string) {
	w.warns = append(w.warns, Warning{Path: path, Msg: msg})
}

// skip records source that could not be scanned.
func (w *walker) skip(path, msg string) {
	w.warns = append(w.warns, Warning{Path: path, Msg: msg, Skipped: true})
}

// excluded reports whether rel, or any suffix of it that starts after a
// "/", matches an exclude pattern.
func (w *walker) excluded(rel string) bool {
	if len(w.excludes) == 0 {
		return false
	}
	for s := rel; ; {
		for _, p := range w.excludes {
			if doublestar.MatchUnvalidated(p, s) {
				return true
			}
		}
		i := strings.IndexByte(s, '/')
		if i < 0 {
			return false
		}
		s = s[i+1:]
	}
}

// results returns the files and warnings sorted and de-duplicated.
func (w *walker) results() ([]File, []Warning) {
	files := w.files
	slices.SortFunc(files, func(a, b File) int { return strings.Compare(a.Rel, b.Rel) })
	warns := w.warns
	slices.SortFunc(warns, func(a, b Warning) int {
		return cmp.Or(strings.Compare(a.Path, b.Path), strings.Compare(a.Msg, b.Msg))
	})
	warns = slices.Compact(warns)
	return files, warns
}

// describe renders err without repeating the path, which the Warning
// already carries.
func describe(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "no such file or directory"
	case errors.Is(err, fs.ErrPermission):
		return "permission denied"
	}
	return err.Error()
}

func joinRel(dir, name string) string {
	if dir == "" {
		return name
	}
	return dir + "/" + name
}

func prefixOf(gitRel string) string {
	if gitRel == "" {
		return ""
	}
	return gitRel + "/"
}

// findEntry finds name in entries, which os.ReadDir sorts by name.
func findEntry(entries []fs.DirEntry, name string) (int, bool) {
	return slices.BinarySearchFunc(entries, name, func(e fs.DirEntry, n string) int {
		return strings.Compare(e.Name(), n)
	})
}

func hasEntry(entries []fs.DirEntry, name string) bool {
	_, ok := findEntry(entries, name)
	return ok
}
