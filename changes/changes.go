// Package changes finds the lines changed since a git revision and keeps
// the findings that are about them (`holdfast scan --new-from-rev REV`).
//
// What counts as changed:
//
//   - every line that `git diff --unified=0 REV` adds or modifies in the
//     working tree (staged and unstaged changes alike, against REV);
//   - a deletion counts as a change of the lines on either side of it:
//     deleting a wait or a keep-alive can make a bug whose every line is
//     old;
//   - every line of an untracked file that .gitignore does not ignore, since
//     it is new to the repository (as golangci-lint's new-from-rev does).
//
// A finding is kept when its own line or a line of any step of its witness
// (the owner's declaration, where it dies, where the pointer is used) is
// changed: a lifetime bug spans several lines, and an edit to any of them is
// an edit to the bug. Findings in files outside the repository are dropped.
// FileChanged says which files have changed lines, for the caller to keep
// only the notes about those; warnings (skipped files, directive problems)
// it keeps as they are.
package changes

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/holdfast-dev/holdfast/diag"
)

// Lines holds the changed lines of a repository's files.
type Lines struct {
	top     string                  // the repository's top level, symlinks resolved
	changed map[string]map[int]bool // by slash path relative to top
	all     map[string]bool         // untracked files: every line
}

// Rev is a revision resolved in a repository, ready to diff against.
type Rev struct {
	top string // the repository's top level
	sha string
}

// Resolve finds the repository around dir and the commit rev names in it.
func Resolve(dir, rev string) (*Rev, error) {
	if _, err := exec.LookPath("git"); err != nil {
		return nil, errors.New("--new-from-rev needs git, which is not on PATH")
	}
	top, err := topLevel(dir)
	if err != nil {
		return nil, err
	}
	return resolveIn(top, rev)
}

// ResolvePaths finds the repository that holds the paths (for a file,
// its directory's repository) and the commit rev names in it. The paths
// must lie in one repository; paths that do not exist are left to the
// caller, and with none left the repository is the one around dir.
func ResolvePaths(dir string, paths []string, rev string) (*Rev, error) {
	if _, err := exec.LookPath("git"); err != nil {
		return nil, errors.New("--new-from-rev needs git, which is not on PATH")
	}
	top, first := "", ""
	for _, p := range paths {
		fi, err := os.Stat(p)
		if err != nil {
			continue
		}
		d := p
		if !fi.IsDir() {
			d = filepath.Dir(p)
		}
		t, err := topLevel(d)
		if err != nil {
			return nil, err
		}
		if top == "" {
			top, first = t, p
		} else if t != top {
			return nil, fmt.Errorf("--new-from-rev: %s and %s are in different git repositories; scan them one at a time", first, p)
		}
	}
	if top == "" {
		t, err := topLevel(dir)
		if err != nil {
			return nil, err
		}
		top = t
	}
	return resolveIn(top, rev)
}

// topLevel is the top level of the repository dir is in.
func topLevel(dir string) (string, error) {
	top, err := git(dir, "rev-parse", "--show-toplevel")
	if err != nil {
		if strings.Contains(err.Error(), "not a git repository") {
			abs, _ := filepath.Abs(dir)
			return "", fmt.Errorf("--new-from-rev needs a git repository, and %s is not inside one", abs)
		}
		return "", fmt.Errorf("--new-from-rev: %w", err)
	}
	return strings.TrimSuffix(top, "\n"), nil
}

// resolveIn resolves rev in the repository whose top level is top.
func resolveIn(top, rev string) (*Rev, error) {
	if rev == "" || strings.HasPrefix(rev, "-") {
		return nil, fmt.Errorf("--new-from-rev: %q is not a revision", rev)
	}
	sha, err := git(top, "rev-parse", "--verify", "--quiet", "--end-of-options", rev+"^{commit}")
	if err != nil {
		return nil, fmt.Errorf("--new-from-rev: unknown revision %q in %s (is it fetched? shallow clones lack history: use fetch-depth: 0)", rev, top)
	}
	return &Rev{top: top, sha: strings.TrimSpace(sha)}, nil
}

// Since runs git in dir and collects the lines changed since rev in files
// (paths relative to dir, or absolute), or in every file when files is nil.
func Since(dir, rev string, files []string) (*Lines, error) {
	r, err := Resolve(dir, rev)
	if err != nil {
		return nil, err
	}
	return r.Lines(dir, files)
}

// maxArgs bounds the bytes of paths given to one git command; longer
// lists are split over several.
const maxArgs = 64 << 10

// Lines collects the lines changed since the revision in files, given
// relative to root (or absolute); files outside the repository are left
// out, and nil means every file. The diff is read as git writes it, never
// held whole, and only for the files asked about.
func (r *Rev) Lines(root string, files []string) (*Lines, error) {
	l := newLines(r.top)
	var specs []string
	if files != nil {
		specs = pathspecs(l.top, root, files)
		if len(specs) == 0 {
			return l, nil
		}
	}
	for _, chunk := range chunks(specs) {
		args := append([]string{"diff", "--no-color", "--no-ext-diff", "--no-textconv",
			"--no-relative", "--unified=0", "--src-prefix=a/", "--dst-prefix=b/", r.sha, "--"}, chunk...)
		if err := gitStream(r.top, args, l.parse); err != nil {
			return nil, fmt.Errorf("--new-from-rev: %w", err)
		}
		args = append([]string{"ls-files", "-z", "--others", "--exclude-standard", "--"}, chunk...)
		err := gitStream(r.top, args, func(rd io.Reader) error {
			br := bufio.NewReader(rd)
			for {
				name, err := br.ReadString(0)
				if name = strings.TrimSuffix(name, "\x00"); name != "" {
					l.all[name] = true
				}
				if errors.Is(err, io.EOF) {
					return nil
				}
				if err != nil {
					return err
				}
			}
		})
		if err != nil {
			return nil, fmt.Errorf("--new-from-rev: %w", err)
		}
	}
	return l, nil
}

// pathspecs turns files relative to root into paths relative to top,
// dropping those outside it.
func pathspecs(top, root string, files []string) []string {
	if real, err := filepath.EvalSymlinks(root); err == nil {
		root = real
	}
	var out []string
	for _, f := range files {
		abs := filepath.FromSlash(f)
		if !filepath.IsAbs(abs) {
			abs = filepath.Join(root, abs)
		}
		r, err := filepath.Rel(top, abs)
		if err != nil || r == ".." || strings.HasPrefix(r, ".."+string(filepath.Separator)) || filepath.IsAbs(r) {
			continue
		}
		out = append(out, filepath.ToSlash(r))
	}
	return out
}

// chunks splits paths into lists of at most maxArgs bytes; no paths is one
// empty list (every file).
func chunks(paths []string) [][]string {
	if len(paths) == 0 {
		return [][]string{nil}
	}
	var out [][]string
	start, size := 0, 0
	for i, p := range paths {
		if size+len(p) > maxArgs && i > start {
			out = append(out, paths[start:i])
			start, size = i, 0
		}
		size += len(p) + 1
	}
	return append(out, paths[start:])
}

// gitEnv is the environment git runs in: no pager, the C locale, paths
// taken literally (no globs in file names), and no system configuration.
func gitEnv() []string {
	return append(os.Environ(), "GIT_PAGER=cat", "LC_ALL=C", "GIT_LITERAL_PATHSPECS=1", "GIT_CONFIG_NOSYSTEM=1", "GIT_OPTIONAL_LOCKS=0")
}

// gitSafe is the settings that keep git from running the fsmonitor
// program the repository's own configuration may name, and from quoting
// non-ASCII names.
func gitSafe() []string {
	return []string{"-c", "core.fsmonitor=false", "-c", "core.quotePath=false"}
}

// git runs a git command and returns its standard output, which is small;
// the error carries its standard error.
func git(dir string, args ...string) (string, error) {
	var out strings.Builder
	err := gitStream(dir, args, func(r io.Reader) error {
		_, err := io.Copy(&out, io.LimitReader(r, 1<<20))
		return err
	})
	return out.String(), err
}

// gitStream runs a git command and hands its standard output to read as it
// comes; the error carries git's standard error.
func gitStream(dir string, args []string, read func(io.Reader) error) error {
	cmd := exec.Command("git", append(gitSafe(), args...)...)
	cmd.Dir = dir
	cmd.Env = gitEnv()
	var errb bytes.Buffer
	cmd.Stderr = &limitedBuffer{buf: &errb, max: 64 << 10}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	rerr := read(out)
	_, _ = io.Copy(io.Discard, out) // let git finish writing if read stopped early
	werr := cmd.Wait()
	if werr != nil {
		msg := strings.TrimSpace(errb.String())
		if msg == "" {
			msg = werr.Error()
		}
		return fmt.Errorf("git %s: %s", args[0], msg)
	}
	return rerr
}

// limitedBuffer keeps the first max bytes written to it.
type limitedBuffer struct {
	buf *bytes.Buffer
	max int
}

func (b *limitedBuffer) Write(p []byte) (int, error) {
	if room := b.max - b.buf.Len(); room > 0 {
		b.buf.Write(p[:min(len(p), room)])
	}
	return len(p), nil
}

func newLines(top string) *Lines {
	if real, err := filepath.EvalSymlinks(top); err == nil {
		top = real
	}
	return &Lines{top: top, changed: map[string]map[int]bool{}, all: map[string]bool{}}
}

// Parse reads the output of `git diff --unified=0` (with a/ and b/
// prefixes) run in the repository whose top level is top into changed
// lines by path. The paths are as git prints them, relative to top.
func Parse(top string, diff io.Reader) (*Lines, error) {
	l := newLines(top)
	if err := l.parse(diff); err != nil {
		return nil, err
	}
	return l, nil
}

// maxHead is how much of a diff line is kept: enough for any header (a
// file name is at most a few KiB, even quoted); the rest of a longer line,
// which can only be content, is skipped unread.
const maxHead = 64 << 10

// parse adds the changes of a diff to l, a line at a time.
func (l *Lines) parse(diff io.Reader) error {
	br := bufio.NewReaderSize(diff, maxHead)
	file := ""
	oldLeft, newLeft := 0, 0
	for {
		line, err := readHead(br)
		if errors.Is(err, io.EOF) && line == "" {
			return nil
		}
		if err != nil && !errors.Is(err, io.EOF) {
			return err
		}
		if oldLeft > 0 || newLeft > 0 {
			switch {
			case strings.HasPrefix(line, "-"):
				oldLeft--
			case strings.HasPrefix(line, "+"):
				newLeft--
			case strings.HasPrefix(line, " "):
				oldLeft--
				newLeft--
			}
			continue
		}
		switch {
		case strings.HasPrefix(line, "diff --git "):
			file = ""
		case strings.HasPrefix(line, "+++ "):
			name, err := diffName(strings.TrimPrefix(line, "+++ "))
			if err != nil {
				return fmt.Errorf("cannot read the file name in %q", line)
			}
			file = name
		case strings.HasPrefix(line, "@@ "):
			o, n, start, err := hunk(line)
			if err != nil {
				return err
			}
			oldLeft, newLeft = o, n
			if file == "" {
				continue
			}
			m := l.changed[file]
			if m == nil {
				m = map[int]bool{}
				l.changed[file] = m
			}
			if n == 0 {
				// A deletion after line start: both neighbours change.
				m[start] = true
				m[start+1] = true
			}
			for i := start; i < start+n; i++ {
				m[i] = true
			}
		}
	}
}

// readHead returns the next line without its line break, cut to maxHead
// bytes; the rest of a longer line is read and dropped.
func readHead(br *bufio.Reader) (string, error) {
	b, err := br.ReadSlice('\n')
	head := string(bytes.TrimSuffix(b, []byte("\n")))
	for errors.Is(err, bufio.ErrBufferFull) {
		_, err = br.ReadSlice('\n')
	}
	return head, err
}

// diffName reads the new file's name from a "+++ " line: "/dev/null" for
// none, a C-quoted string when the name has special characters, else the
// name as it is, which git follows with a tab when it holds a space.
func diffName(s string) (string, error) {
	if s == "/dev/null" {
		return "", nil
	}
	if strings.HasPrefix(s, `"`) {
		u, err := strconv.Unquote(s)
		if err != nil {
			return "", err
		}
		s = u
	} else {
		s = strings.TrimSuffix(s, "\t")
	}
	return strings.TrimPrefix(s, "b/"), nil
}

// hunk reads "@@ -a[,b] +c[,d] @@": the old and new line counts and the
// first new line.
func hunk(line string) (oldN, newN, start int, err error) {
	fields := strings.Fields(line)
	if len(fields) < 3 || !strings.HasPrefix(fields[1], "-") || !strings.HasPrefix(fields[2], "+") {
		return 0, 0, 0, fmt.Errorf("bad hunk header %q", line)
	}
	_, oldN, err = rangeOf(fields[1][1:])
	if err != nil {
		return 0, 0, 0, fmt.Errorf("bad hunk header %q", line)
	}
	start, newN, err = rangeOf(fields[2][1:])
	if err != nil {
		return 0, 0, 0, fmt.Errorf("bad hunk header %q", line)
	}
	return oldN, newN, start, nil
}

// rangeOf reads "start[,count]"; the count defaults to 1.
func rangeOf(s string) (start, count int, err error) {
	a, b, ok := strings.Cut(s, ",")
	if start, err = strconv.Atoi(a); err != nil {
		return 0, 0, err
	}
	count = 1
	if ok {
		if count, err = strconv.Atoi(b); err != nil {
			return 0, 0, err
		}
	}
	return start, count, nil
}

// Changed reports whether a line of a file, given as a slash path relative
// to the repository's top level, changed.
func (l *Lines) Changed(file string, line int) bool {
	return l.all[file] || l.changed[file][line]
}

// Filter keeps the findings about changed lines. root is the directory the
// findings' paths are relative to.
func (l *Lines) Filter(fs []*diag.Finding, root string) []*diag.Finding {
	inRepo := l.inRepo(root)
	var kept []*diag.Finding
	for _, f := range fs {
		if f == nil {
			continue
		}
		if l.touches(f, inRepo) {
			kept = append(kept, f)
		}
	}
	return kept
}

// FileChanged returns a test of whether a file, given as a path relative
// to root (as in findings) or absolute, has a changed line: it is new,
// or the diff adds, modifies or deletes lines of it. A file outside the
// repository has none.
func (l *Lines) FileChanged(root string) func(file string) bool {
	inRepo := l.inRepo(root)
	return func(file string) bool {
		r := inRepo(file)
		return r != "" && (l.all[r] || len(l.changed[r]) > 0)
	}
}

// inRepo returns a function that turns a path relative to root (or
// absolute) into a slash path relative to the repository's top level,
// or "" when it lies outside.
func (l *Lines) inRepo(root string) func(string) string {
	if real, err := filepath.EvalSymlinks(root); err == nil {
		root = real
	}
	rel := map[string]string{} // finding path -> path relative to top, "" outside
	return func(p string) string {
		if r, ok := rel[p]; ok {
			return r
		}
		abs := p
		if !filepath.IsAbs(abs) {
			abs = filepath.Join(root, filepath.FromSlash(p))
		}
		r, err := filepath.Rel(l.top, abs)
		if err != nil || r == ".." || strings.HasPrefix(r, ".."+string(filepath.Separator)) {
			r = ""
		}
		r = filepath.ToSlash(r)
		rel[p] = r
		return r
	}
}

func (l *Lines) touches(f *diag.Finding, inRepo func(string) string) bool {
	if r := inRepo(f.At.Start.File); r != "" && l.Changed(r, f.At.Start.Line) {
		return true
	}
	for _, s := range f.Witness {
		file := s.At.Start.File
		if file == "" {
			file = f.At.Start.File
		}
		if r := inRepo(file); r != "" && l.Changed(r, s.At.Start.Line) {
			return true
		}
	}
	return false
}
