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
// Changes never affect notices (parse failures, skipped files, directive
// problems), which the caller keeps as they are.
package changes

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
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

// Since runs git in dir and collects the lines changed since rev.
func Since(dir, rev string) (*Lines, error) {
	if _, err := exec.LookPath("git"); err != nil {
		return nil, errors.New("--new-from-rev needs git, which is not on PATH")
	}
	top, err := git(dir, "rev-parse", "--show-toplevel")
	if err != nil {
		if strings.Contains(err.Error(), "not a git repository") {
			abs, _ := filepath.Abs(dir)
			return nil, fmt.Errorf("--new-from-rev needs a git repository, and %s is not inside one", abs)
		}
		return nil, fmt.Errorf("--new-from-rev: %w", err)
	}
	top = strings.TrimSpace(top)
	if rev == "" || strings.HasPrefix(rev, "-") {
		return nil, fmt.Errorf("--new-from-rev: %q is not a revision", rev)
	}
	sha, err := git(top, "rev-parse", "--verify", "--quiet", "--end-of-options", rev+"^{commit}")
	if err != nil {
		return nil, fmt.Errorf("--new-from-rev: unknown revision %q in %s (is it fetched? shallow clones lack history: use fetch-depth: 0)", rev, top)
	}
	diff, err := git(top, "-c", "core.quotePath=false", "diff", "--no-color", "--no-ext-diff", "--no-textconv",
		"--no-relative", "--unified=0", "--src-prefix=a/", "--dst-prefix=b/", strings.TrimSpace(sha), "--")
	if err != nil {
		return nil, fmt.Errorf("--new-from-rev: %w", err)
	}
	untracked, err := git(top, "ls-files", "-z", "--others", "--exclude-standard")
	if err != nil {
		return nil, fmt.Errorf("--new-from-rev: %w", err)
	}
	l, err := Parse(top, diff)
	if err != nil {
		return nil, fmt.Errorf("--new-from-rev: %w", err)
	}
	for f := range strings.SplitSeq(untracked, "\x00") {
		if f != "" {
			l.all[f] = true
		}
	}
	return l, nil
}

// git runs a git command and returns its standard output; the error
// carries its standard error.
func git(dir string, args ...string) (string, error) {
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_PAGER=cat", "LC_ALL=C")
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		msg := strings.TrimSpace(errb.String())
		if msg == "" {
			msg = err.Error()
		}
		return "", fmt.Errorf("git %s: %s", args[0], msg)
	}
	return out.String(), nil
}

// Parse reads the output of `git diff --unified=0` (with a/ and b/
// prefixes) run in the repository whose top level is top into changed
// lines by path. The paths are as git prints them, relative to top.
func Parse(top, diff string) (*Lines, error) {
	if real, err := filepath.EvalSymlinks(top); err == nil {
		top = real
	}
	l := &Lines{top: top, changed: map[string]map[int]bool{}, all: map[string]bool{}}
	sc := bufio.NewScanner(strings.NewReader(diff))
	sc.Buffer(nil, 64<<20)
	file := ""
	oldLeft, newLeft := 0, 0
	for sc.Scan() {
		line := sc.Text()
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
			name := strings.TrimPrefix(line, "+++ ")
			if name == "/dev/null" {
				file = ""
				continue
			}
			if strings.HasPrefix(name, `"`) {
				u, err := strconv.Unquote(name)
				if err != nil {
					return nil, fmt.Errorf("cannot read the file name in %q", line)
				}
				name = u
			}
			file = strings.TrimPrefix(name, "b/")
		case strings.HasPrefix(line, "@@ "):
			o, n, start, err := hunk(line)
			if err != nil {
				return nil, err
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
	return l, sc.Err()
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
	if real, err := filepath.EvalSymlinks(root); err == nil {
		root = real
	}
	rel := map[string]string{} // finding path -> path relative to top, "" outside
	inRepo := func(p string) string {
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
