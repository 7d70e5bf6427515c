package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/holdfast-dev/holdfast/baseline"
	"github.com/holdfast-dev/holdfast/changes"
	"github.com/holdfast-dev/holdfast/config"
	"github.com/holdfast-dev/holdfast/diag"
	"github.com/holdfast-dev/holdfast/internal/esc"
	"github.com/holdfast-dev/holdfast/internal/safeio"
	"github.com/holdfast-dev/holdfast/report"
	"github.com/holdfast-dev/holdfast/scan"
	"github.com/holdfast-dev/holdfast/summary"
)

type scanFlags struct {
	format      string
	output      string
	failOn      string
	jobs        int
	exclude     []string
	configPath  string
	stats       bool
	all         bool
	noVerify    bool
	maxFileSize byteSize
	baseline    string
	newFromRev  string
	category    string
	trace       bool
	cacheDir    string
	noCache     bool
	generated   bool
	verbose     bool
	budget      workUnits
	timeout     time.Duration
}

// addInputFlags registers the flags that say what is scanned and how,
// which scan and baseline share so that a baseline is recorded from the
// same scan.
func addInputFlags(f *pflag.FlagSet, fl *scanFlags) {
	f.IntVarP(&fl.jobs, "jobs", "j", 0, "parallel workers (default: one per CPU)")
	f.StringArrayVar(&fl.exclude, "exclude", nil, "skip paths matching `GLOB` (repeatable; ** matches across directories)")
	f.StringVar(&fl.configPath, "config", "", "read configuration from `FILE` instead of the nearest .holdfast.yaml")
	f.Var(&fl.maxFileSize, "max-file-size", "skip files bigger than this size: bytes, or with a unit, 512K, 8M (default 8M, or the configuration's max-file-size; 0 means the default)")
	f.BoolVar(&fl.generated, "include-generated", false, "also analyse generated sources (files that say they are generated, or are mostly one data initialiser)")
	fl.budget = scan.DefaultFileBudget
	f.Var(&fl.budget, "file-budget", "work each file's analysis may do, in units (a statement executed on one path, about 32 bytes read by a rule): a number, or with k, M, G (default 20M: about 20 s on a laptop, and 20 times what PyTorch's costliest file spends; 0 means the default); past it the file keeps what its rules found by then, with a warning. The result never depends on the machine")
	f.DurationVar(&fl.timeout, "file-timeout", scan.DefaultFileTimeout, "wall-clock safety limit of each file's parse and analysis; a file it stops is skipped or keeps what its rules found by then, with a warning that the result depends on the machine")
	f.StringVar(&fl.cacheDir, "cache-dir", "", "keep whole-tree summaries in `DIR` (default: the user cache directory's holdfast folder)")
	f.BoolVar(&fl.noCache, "no-cache", false, "neither read nor write the summary cache: only the scanned files' summaries are used")
}

func newScan(e *env) *cobra.Command {
	var fl scanFlags
	cmd := &cobra.Command{
		Use:   "scan [PATH...]",
		Short: "scan files and directories for buffer-lifetime bugs",
		Long: `Scan C, C++, CUDA and Objective-C++ sources (.c .cc .cpp .cxx .c++ .h .hh
.hpp .hxx .inl .ipp .cu .cuh .m .mm) under the given paths (default: the current
directory), honouring .gitignore and --exclude. Paths in the output are
relative to the current directory.

In the text format a finding is one line, a note per step of its lifetime
story and the simulated device's verdict; --trace adds its source line,
the verdict's reason and the replay step by step. After the report one line
on standard error sums up the run: findings, files, what --all, the
baseline and --new-from-rev left out, and baseline entries that no longer
match.

Configuration is read from the nearest .holdfast.yaml from the current
directory up to the root of its git repository, or from --config. Flags
override it.

A finding is suppressed by a comment on its line or the line above,
'// holdfast:ignore HF-B001 why it is fine', or anywhere in its file,
'// holdfast:ignore-file HF-B001 why'; the reason is required, and a
directive that matches nothing is reported. --baseline FILE (written by
'holdfast baseline') hides the findings recorded in FILE; --new-from-rev REV
keeps only findings on lines changed since the git revision REV (of the
repository that holds the scanned paths), and the notes about files
(parse errors, generated files, paths cut) only for the changed files.
Neither hides warnings.

Exit status: 0 when nothing at or above --fail-on was found (a tree with no
source to analyse included: that is a note), 1 when something was, 2 on a
usage or internal error, 3 when nothing failed but some source could not
be analysed (too large, unreadable, binary, not a regular file, over the
per-file work budget, stopped by the per-file wall-clock limit, or nested
too deeply) or the .holdfast.yaml found
was not read (each is a warning), 130 when interrupted. With --fail-on
never, a scan that runs exits 0.

Whole-tree summaries: what each function does to its parameters (frees,
keeps, defers, encodes into device work, waits) is summarised for every
scanned file, and the rules use the summaries of the other files for calls
a file does not define. The summaries are cached (--cache-dir, by default
the user's cache directory), by path and file content, for the tree under
the current directory: a later scan of a few files (a pre-commit hook)
reads those of the tree's other, unchanged files from the cache, so it
sees what a full scan sees. A full scan fills the cache; --no-cache
neither reads nor writes it.

-o FILE is the report's path, checked before the scan. Any path is
written as named, character devices (/dev/null) included, except what a
repository could have planted: inside the current directory's tree a
symbolic link, a file that is neither regular nor a character device, or
a directory reached through a link out of the tree is refused, and
anywhere a file with a scanned source's extension. '-o -' is standard output.`,
		Example: `  holdfast scan
  holdfast scan --format sarif -o holdfast.sarif src/
  holdfast scan --fail-on error --exclude 'third_party/**' .
  holdfast scan --baseline holdfast-baseline.json
  holdfast scan --new-from-rev origin/main`,
		RunE: func(cmd *cobra.Command, args []string) error {
			if !cmd.Flags().Changed("format") {
				fl.format = formatOf(fl.output, fl.format)
			}
			// Flags that do nothing in the chosen format say so.
			if fl.trace && fl.format != "text" {
				_, _ = fmt.Fprintf(e.stderr, "holdfast: warning: --trace changes only the text format; it is ignored with --format %s\n", fl.format)
			}
			if cmd.Flags().Changed("sarif-category") && fl.format != "sarif" {
				_, _ = fmt.Fprintf(e.stderr, "holdfast: warning: --sarif-category applies to SARIF only; it is ignored with --format %s\n", fl.format)
			}
			return runScan(cmd.Context(), fl, args, e)
		},
	}
	f := cmd.Flags()
	f.StringVar(&fl.format, "format", "text", "output format: text, json, sarif or github (default: from the -o file's extension, .sarif or .json, else text)")
	f.StringVarP(&fl.output, "output", "o", "", "write the report to `FILE` instead of standard output ('-' for standard output)")
	f.StringVar(&fl.failOn, "fail-on", "", "lowest severity that makes the exit status 1: note, warning, error or never (default warning)")
	addInputFlags(f, &fl)
	f.BoolVar(&fl.verbose, "verbose", false, "print the notes counting files with parse errors, generated files, first-branch reads and functions with merged or cut paths, naming each (text output otherwise counts them in the summary line)")
	f.BoolVar(&fl.stats, "stats", false, "print files, bytes, functions and parse errors per extension to standard error")
	f.BoolVar(&fl.all, "all", false, "also show findings the simulated device did not reproduce, as notes")
	f.BoolVar(&fl.trace, "trace", false, "text format: also print the verdict's reason and the replay on the simulated device")
	f.BoolVar(&fl.noVerify, "no-verify", false, "skip replaying findings on the simulated device")
	f.StringVar(&fl.baseline, "baseline", "", "report only findings not recorded in `FILE` (see 'holdfast baseline')")
	f.StringVar(&fl.newFromRev, "new-from-rev", "", "report only findings on lines changed since the git revision `REV`")
	f.StringVar(&fl.category, "sarif-category", "holdfast", "code scanning category of the SARIF run (run.automationDetails.id); give each analysis of one repository its own")
	return cmd
}

func runScan(ctx context.Context, fl scanFlags, args []string, e *env) error {
	if !slices.Contains([]string{"text", "json", "sarif", "github"}, fl.format) {
		return &exitError{code: 2, err: fmt.Errorf("--format: %q is not one of text, json, sarif, github", fl.format)}
	}
	if err := checkLimits(fl); err != nil {
		return err
	}
	root, err := os.Getwd()
	if err != nil {
		return &exitError{code: 2, err: err}
	}
	freeOutput, err := checkOutputPath(fl.output, root)
	if err != nil {
		return &exitError{code: 2, err: err}
	}
	cfg, err := config.Load(fl.configPath, root)
	if err != nil {
		return &exitError{code: 2, err: err}
	}
	failOn := cmp(fl.failOn, cfg.FailOn, "warning")
	threshold, ok := diag.ParseSeverity(failOn)
	if !ok && failOn != "never" {
		return &exitError{code: 2, err: fmt.Errorf("--fail-on: %q is not one of note, warning, error, never", failOn)}
	}
	var base *baseline.File
	if fl.baseline != "" {
		if base, err = baseline.Load(fl.baseline); err != nil {
			return &exitError{code: 2, err: fmt.Errorf("--baseline: %w", err)}
		}
	}
	var rev *changes.Rev
	if fl.newFromRev != "" {
		// The repository is the one that holds the scanned paths, which
		// need not be the one around the current directory.
		if rev, err = changes.ResolvePaths(root, args, fl.newFromRev); err != nil {
			return &exitError{code: 2, err: err}
		}
	}
	res, err := scanPaths(ctx, fl, cfg, root, args, e)
	if err != nil {
		return err
	}
	var tally runTally
	tally.files = len(res.Files)
	tally.config = configEffects(cfg, res.ExcludedByConfig)
	if base != nil {
		var matched int
		res.Findings, matched = base.Filter(res.Findings)
		tally.baselined = matched
		tally.staleBaseline = staleEntries(base, res.Files, matched)
		if n := len(base.Findings); n > 0 && matched == 0 && !anyEntryScanned(base, res.Files) && !anyEntryExists(base) {
			// Paths in a baseline are relative to where it was recorded:
			// from elsewhere, it hides nothing.
			res.Notices = append(res.Notices, scan.Notice{Level: "warning", File: fl.baseline,
				Message: fmt.Sprintf("none of the baseline's %s names a file that exists from here: run from the directory it was recorded in", plural(n, "entry"))})
		}
	}
	if rev != nil {
		changed, err := rev.Lines(root, res.Files)
		if err != nil {
			return &exitError{code: 2, err: err}
		}
		before := len(res.Findings)
		res.Findings = changed.Filter(res.Findings, root)
		tally.unchanged = before - len(res.Findings)
		// Notes about files (parse errors, paths cut, generated files)
		// speak of the changed ones only; warnings stay.
		res.KeepDetails(changed.FileChanged(root))
	}
	if fl.stats {
		if err := printStats(e.stderr, res.Stats, res.Rebuilt); err != nil {
			return err
		}
	}

	out := e.stdout
	toStdout := fl.output == "" || fl.output == "-"
	if !toStdout {
		file, err := openOutput(fl.output, freeOutput)
		if err != nil {
			return &exitError{code: 2, err: err}
		}
		defer func() { _ = file.Close() }() // closed and checked below; this is for early returns
		out = file
	}
	ropt := report.Options{
		Root:         root,
		ToolVersion:  readBuildVersion().tool(),
		Source:       func(p string) []byte { return sourceOf(res, root, p) },
		Color:        toStdout && isTerminal(e.stdout),
		ShowAll:      fl.all,
		Trace:        fl.trace,
		AutomationID: automationID(fl.category),
		DocsURL:      docsURL,
	}
	for _, r := range res.Rules {
		ropt.Rules = append(ropt.Rules, r.Meta)
	}
	notices := res.Notices
	if fl.verbose {
		notices = append(slices.Clone(notices), res.Details...)
	} else if fl.format == "text" {
		// In a terminal the counts of what was not fully analysed (parse
		// errors, cut paths, generated files, first branches) are one
		// clause of the summary line; --verbose prints them with the files
		// they name, and the machine formats always carry them.
		notices, tally.heldNotes = holdCounts(notices)
	}
	for _, n := range notices {
		ropt.Notices = append(ropt.Notices, report.Notice{Level: n.Level, File: n.File, Line: n.Line, Message: n.Message})
	}
	if err := report.Write(out, fl.format, res.Findings, ropt); err != nil {
		return &exitError{code: 2, err: err}
	}
	if !toStdout {
		if err := out.(*os.File).Close(); err != nil {
			return &exitError{code: 2, err: err}
		}
	}
	sum, err := report.Summarize(res.Findings, ropt)
	if err != nil {
		return &exitError{code: 2, err: err}
	}
	_, _ = fmt.Fprintln(e.stderr, esc.Name(tally.line(sum)))
	if failOn == "never" {
		return nil
	}
	if failing(res.Findings, threshold) {
		return &exitError{code: 1}
	}
	if res.Skipped > 0 {
		return &exitError{code: 3, err: fmt.Errorf("%s could not be analysed; see the warnings above", plural(res.Skipped, "source path"))}
	}
	return nil
}

// holdCounts splits off the counting notes (functions with parse errors,
// cut paths, generated files, first-branch reads), returning the rest and
// how many were held.
func holdCounts(ns []scan.Notice) ([]scan.Notice, int) {
	var keep []scan.Notice
	held := 0
	for _, n := range ns {
		if n.Counts() {
			held++
			continue
		}
		keep = append(keep, n)
	}
	return keep, held
}

// formatOf is the format a report written to path is in when --format is
// not given: the one its extension names (x.sarif, x.json), else def.
func formatOf(path, def string) string {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".sarif":
		return "sarif"
	case ".json":
		return "json"
	}
	return def
}

// checkLimits refuses negative numbers, which the configuration refuses
// too, instead of reading them as "no limit" or "the default".
func checkLimits(fl scanFlags) error {
	if fl.jobs < 0 {
		return &exitError{code: 2, err: fmt.Errorf("-j/--jobs: %d is negative; give a number of workers, or 0 for one per CPU", fl.jobs)}
	}
	if fl.budget < 0 {
		return &exitError{code: 2, err: fmt.Errorf("--file-budget: %d is negative; give a count of units such as 50M, or 0 for the default", fl.budget)}
	}
	if fl.timeout < 0 {
		return &exitError{code: 2, err: fmt.Errorf("--file-timeout: %s is negative; give a duration such as 60s, or 0 for the default", fl.timeout)}
	}
	if fl.maxFileSize < 0 {
		return &exitError{code: 2, err: fmt.Errorf("--max-file-size: %d is negative; give a size, or 0 for the default", fl.maxFileSize)}
	}
	return nil
}

// runTally is what the scan command adds to the report's summary.
type runTally struct {
	files         int // source files analysed
	baselined     int // findings the baseline hid
	staleBaseline int // baseline entries for scanned files that matched nothing
	unchanged     int // findings --new-from-rev hid
	heldNotes     int // run-level notes the text output counts instead of printing (see holdCounts)
	// config says what the configuration file turned off, so that a
	// pull request's own .holdfast.yaml cannot quietly silence a scan.
	config string
}

// configEffects says what cfg turns off or may: rules disabled, paths
// excluded, severities lowered, a fail-on of never, calls its API
// section describes; "" when there is none of these.
func configEffects(cfg *config.Config, excluded int) string {
	if cfg == nil || cfg.Path == "" {
		return ""
	}
	var parts []string
	if n := len(cfg.Rules.Disable); n > 0 {
		parts = append(parts, plural(n, "rule")+" disabled")
	}
	if n := len(cfg.Exclude); n > 0 {
		parts = append(parts, fmt.Sprintf("%s leaving out %s", plural(n, "exclude pattern"), plural(excluded, "file")))
	}
	if n := len(cfg.Rules.Severity); n > 0 {
		what := "1 severity changed"
		if n > 1 {
			what = fmt.Sprintf("%d severities changed", n)
		}
		parts = append(parts, what)
	}
	if cfg.FailOn == "never" {
		parts = append(parts, "fail-on never")
	}
	if cfg.API != nil && len(cfg.API.Calls) > 0 {
		// A role such as wait or keep excuses what a call does with its
		// arguments, so the file's own API knowledge can silence findings.
		parts = append(parts, plural(len(cfg.API.Calls), "API call")+" described")
	}
	if len(parts) == 0 {
		return ""
	}
	return filepath.Base(cfg.Path) + ": " + strings.Join(parts, ", ")
}

// line is the one-line summary printed on standard error after every scan:
// "0 findings in 8 files; 20 hidden by the baseline; 2 baseline entries no
// longer match".
func (t runTally) line(s report.Summary) string {
	head := s.Findings + " in " + plural(t.files, "file")
	if s.Confirmed != "" {
		head += ", " + s.Confirmed
	}
	parts := []string{head}
	if s.NotShown != "" {
		parts = append(parts, s.NotShown)
	}
	if t.baselined > 0 {
		parts = append(parts, fmt.Sprintf("%d hidden by the baseline", t.baselined))
	}
	if t.unchanged > 0 {
		parts = append(parts, fmt.Sprintf("%d on lines not changed since the revision", t.unchanged))
	}
	if t.staleBaseline > 0 {
		verb := " no longer matches"
		if t.staleBaseline > 1 {
			verb = " no longer match"
		}
		parts = append(parts, plural(t.staleBaseline, "baseline entry")+verb)
	}
	if s.Notices != "" {
		parts = append(parts, s.Notices)
	}
	if t.heldNotes > 0 {
		what := "notes on what was not fully analysed"
		if t.heldNotes == 1 {
			what = "note on what was not fully analysed"
		}
		parts = append(parts, fmt.Sprintf("%d %s (--verbose shows them)", t.heldNotes, what))
	}
	if t.config != "" {
		parts = append(parts, t.config)
	}
	return "holdfast: " + strings.Join(parts, "; ")
}

// anyEntryScanned says some entry of b is for one of the scanned files.
func anyEntryScanned(b *baseline.File, files []string) bool {
	scanned := map[string]bool{}
	for _, f := range files {
		scanned[f] = true
	}
	for _, e := range b.Findings {
		if scanned[e.File] {
			return true
		}
	}
	return false
}

// anyEntryExists says some entry of b names a file that exists from the
// current directory: the baseline was recorded here (a scan of a few
// files may scan none of its entries).
func anyEntryExists(b *baseline.File) bool {
	for _, e := range b.Findings {
		if _, err := os.Lstat(filepath.FromSlash(e.File)); err == nil {
			return true
		}
	}
	return false
}

// staleEntries counts the baseline entries for files this scan analysed
// that hid no finding: the code they recorded was fixed or changed. Entries
// for files outside the scan (a pre-commit run on a few files) are not
// counted.
func staleEntries(b *baseline.File, files []string, matched int) int {
	scanned := map[string]bool{}
	for _, f := range files {
		scanned[f] = true
	}
	n := 0
	for _, e := range b.Findings {
		if scanned[e.File] {
			n++
		}
	}
	return max(0, n-matched)
}

func plural(n int, noun string) string {
	if n != 1 {
		if strings.HasSuffix(noun, "y") {
			noun = strings.TrimSuffix(noun, "y") + "ie"
		}
		noun += "s"
	}
	return fmt.Sprintf("%d %s", n, noun)
}

// scanPaths runs the scan that scan and baseline share, with a progress
// line on stderr when it is a terminal. The first Ctrl-C ends it at once
// with exit status 130, without waiting for the file being read or
// analysed; from then on Ctrl-C has its default effect, so a second one
// kills the process whatever it is doing.
func scanPaths(ctx context.Context, fl scanFlags, cfg *config.Config, root string, args []string, e *env) (*scan.Result, error) {
	if len(args) == 0 {
		args = []string{"."}
	}
	for _, a := range args {
		// A path named on the command line that is not there is a
		// mistake in the command, not a finding about the tree.
		if _, err := os.Lstat(a); errors.Is(err, fs.ErrNotExist) {
			return nil, &exitError{code: 2, err: fmt.Errorf("%s: no such file or directory", esc.Name(a))}
		}
	}
	if ctx == nil {
		ctx = context.Background()
	}
	ctx, stop := e.interrupt(ctx)
	defer stop()
	opt := scan.Options{
		Paths: args, Root: root, Exclude: fl.exclude, Jobs: fl.jobs, Config: cfg, MaxFileSize: int64(fl.maxFileSize),
		IncludeGenerated: fl.generated, FileBudget: int64(fl.budget), FileTimeout: fl.timeout,
	}
	if !fl.noVerify {
		opt.Verify = verifier()
	}
	if !fl.noCache {
		dir := fl.cacheDir
		if dir == "" {
			// No cache directory (no HOME): the scan runs without one.
			dir, _ = summary.DefaultDir()
		}
		if dir != "" {
			opt.Cache, opt.CacheKey = summary.Open(dir), analysisBuild()
		}
	}
	if isTTY(e.stderr) {
		p := newProgress(e.stderr, time.Now)
		opt.Progress = p.update
		defer p.finish()
	}
	type result struct {
		res *scan.Result
		err error
	}
	done := make(chan result, 1)
	go func() {
		res, err := e.scan(ctx, opt)
		done <- result{res, err}
	}()
	var r result
	select {
	case r = <-done:
	case <-ctx.Done():
	}
	if ctx.Err() != nil {
		stop()
		return nil, &exitError{code: 130, err: errors.New("interrupted")}
	}
	if r.err != nil {
		return nil, &exitError{code: 2, err: r.err}
	}
	if len(r.res.Files) == 0 && r.res.Skipped == 0 && !namesFile(args) {
		// Directories held nothing to analyse: say so, so that a clean
		// exit does not read as a clean tree (a repository without C++ is
		// not a failure). Files named one by one (as pre-commit does) and
		// excluded were excluded on purpose.
		r.res.Notices = append(r.res.Notices, scan.Notice{Level: "note", Message: "no source files to analyse under " + strings.Join(args, ", ") + " (after .gitignore and excludes)"})
	}
	return r.res, nil
}

// namesFile reports whether any path is something other than a directory.
func namesFile(paths []string) bool {
	for _, p := range paths {
		if fi, err := os.Stat(p); err == nil && !fi.IsDir() {
			return true
		}
	}
	return false
}

// failing reports whether a shown, unsuppressed finding is at or above the
// threshold. Findings the device did not reproduce count only with --all,
// and then as notes.
func failing(fs []*diag.Finding, threshold diag.Severity) bool {
	for _, f := range fs {
		sev := f.Severity
		if f.Suppressed != "" {
			continue
		}
		if f.Verification != nil && !f.Verification.Verdict.Shown() {
			// Unconfirmed findings are shown as notes with --all; they
			// never fail the run (docs/verification.md).
			continue
		}
		if sev >= threshold {
			return true
		}
	}
	return false
}

// automationID turns a code scanning category into SARIF's
// run.automationDetails.id, which ends with "/" as upload-sarif makes it.
func automationID(category string) string {
	if category == "" {
		return ""
	}
	return strings.TrimSuffix(category, "/") + "/"
}

func cmp(vals ...string) string {
	for _, v := range vals {
		if v != "" {
			return v
		}
	}
	return ""
}

// sourceOf is a file's text for the printers: the bytes the scan read, or
// for a file it did not keep, a bounded read of it.
func sourceOf(res *scan.Result, root, rel string) []byte {
	if b, ok := res.Sources[rel]; ok {
		return b
	}
	if filepath.IsAbs(rel) {
		return nil
	}
	b, err := safeio.ReadFile(filepath.Join(root, filepath.FromSlash(rel)), scan.DefaultMaxFileSize, safeio.Options{})
	if err != nil {
		return nil
	}
	return b
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0 && os.Getenv("NO_COLOR") == "" && os.Getenv("TERM") != "dumb"
}

func printStats(w io.Writer, stats []scan.ExtStats, rebuilt int) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', tabwriter.AlignRight)
	_, _ = fmt.Fprintln(tw, "EXT\tFILES\tBYTES\tFUNCTIONS\tFUNCS WITH ERRORS\tFILES WITH ERRORS\tSKIPPED\t")
	var tot scan.ExtStats
	for _, s := range stats {
		_, _ = fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d (%.1f%%)\t%d\t%d\t\n", s.Ext, s.Files, s.Bytes, s.Functions, s.FuncsWithErr, pct(s.FuncsWithErr, s.Functions), s.FilesWithErr, s.Skipped)
		tot.Files += s.Files
		tot.Bytes += s.Bytes
		tot.Functions += s.Functions
		tot.FuncsWithErr += s.FuncsWithErr
		tot.FilesWithErr += s.FilesWithErr
		tot.Skipped += s.Skipped
	}
	_, _ = fmt.Fprintf(tw, "total\t%d\t%d\t%d\t%d (%.1f%%)\t%d\t%d\t\n", tot.Files, tot.Bytes, tot.Functions, tot.FuncsWithErr, pct(tot.FuncsWithErr, tot.Functions), tot.FilesWithErr, tot.Skipped)
	if err := tw.Flush(); err != nil {
		return err
	}
	if rebuilt > 0 {
		_, err := fmt.Fprintf(w, "%d of %d files parsed twice: their syntax tables were dropped between the summaries and the rules to bound memory\n", rebuilt, tot.Files)
		return err
	}
	return nil
}

func pct(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return 100 * float64(a) / float64(b)
}
