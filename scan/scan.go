// Package scan runs holdfast's pipeline over a set of paths: discover the
// files, parse them in parallel (one tree-sitter parser per worker), build
// each function's lifetime model once, run the rules over it, verify the
// findings on the simulated device, and hand back one sorted list.
package scan

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"github.com/holdfast-dev/holdfast/internal/budget"
	"io/fs"
	"maps"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/holdfast-dev/holdfast/apimodel"
	"github.com/holdfast-dev/holdfast/config"
	"github.com/holdfast-dev/holdfast/diag"
	"github.com/holdfast-dev/holdfast/discover"
	"github.com/holdfast-dev/holdfast/internal/safeio"
	"github.com/holdfast-dev/holdfast/lifetime"
	"github.com/holdfast-dev/holdfast/parser"
	"github.com/holdfast-dev/holdfast/rules"
	"github.com/holdfast-dev/holdfast/summary"
	"github.com/holdfast-dev/holdfast/suppress"
)

// DefaultMaxFileSize is the default cap on a file's size: bigger files are
// generated code far more often than hand-written backends.
const DefaultMaxFileSize = 8 << 20

// DefaultFileBudget is the work one file's analysis may do (see package
// budget): a unit is a statement executed on one path, or about 32 bytes
// of a function read by one rule or summary. In a scan of PyTorch on a
// 2-core laptop a million units take about a second, and its costliest
// file spends about one million.
const DefaultFileBudget = 20_000_000

// DefaultFileTimeout is the wall-clock safety limit of one file: the
// parse gets it, and the rest of the file's analysis what the parse left
// of it. The work budget ends a file's analysis long before, on any
// machine; this limit is there for what the budget does not count (the
// parse itself, the replay of findings, a machine far slower than
// expected), and a file it stops says that its result depends on the
// machine.
const DefaultFileTimeout = 120 * time.Second

// Options say what to scan and how.
type Options struct {
	Paths       []string
	Root        string // base of reported paths; "" is the current directory
	Exclude     []string
	Jobs        int // parallel workers; 0 means one per CPU
	Config      *config.Config
	MaxFileSize int64 // 0 means the config's, else DefaultMaxFileSize
	// FileBudget is the work each file's analysis may do, in the units of
	// package budget (DefaultFileBudget when 0). A file whose analysis
	// spends it keeps the findings made so far, with a warning that its
	// analysis was cut short. What a file's analysis finds depends on the
	// file, the tree's summaries and the options, never on the machine.
	FileBudget int64
	// FileTimeout is each file's wall-clock safety limit
	// (DefaultFileTimeout when 0): parsing and then the whole analysis
	// must end within it. A file stopped by it while being parsed or
	// modelled is skipped with a warning; one stopped while the rules or
	// the replay run keeps the findings made so far. Either warning says
	// the result depends on the machine.
	FileTimeout time.Duration
	// IncludeGenerated analyses generated sources too (see GeneratedWhy);
	// the configuration's include-generated does the same.
	IncludeGenerated bool
	// Rules to run; nil means every rule not disabled by the config.
	Rules []*rules.Rule
	// Verify, when set, is called on every finding to replay it, from the
	// worker that analysed the finding's file (so concurrently), within
	// that file's time budget.
	Verify func(*diag.Finding) *diag.Verification
	// Funcs, when set, receives every function's model (for dumps). It is
	// called from one goroutine at a time, in no particular file order,
	// within the file's time budget.
	Funcs func(*parser.File, []*lifetime.Func)
	// afterRead, when set, is called after each file is read (tests
	// change the file there, as a checkout during a scan would).
	afterRead func(path string)
	// Progress, when set, is called after each file with the number done.
	Progress func(done, total int)
	// Cache, when set, keeps the summaries of the tree's functions between
	// scans (see package summary): the scanned files' summaries are
	// written to it, and those of the tree's other files (relative to
	// Root) that have not changed since are read from it, so that a scan
	// of a few files sees what the rest of the tree's functions do.
	Cache *summary.Cache
	// CacheKey says what computed a cache's summaries (the build of the
	// analysis); a cache written under another key is not read.
	CacheKey string
	// RetainBytes bounds the memory of the models that wait between the
	// summaries and the rules, as modelBytes estimates it (0:
	// DefaultRetainBytes, or a quarter of the Go runtime's soft memory
	// limit when that is less); the models of files past it, or of files
	// modelled while the live heap is over half the soft limit, are built
	// again for the rules. Findings are the same either way.
	RetainBytes int64
}

// Notice is a problem with one file or the run that did not stop it.
type Notice struct {
	Level   string // "warning" or "note"
	File    string
	Line    int // 1-based, or 0 when the notice is about the whole file
	Message string

	// kind, on a detail, says what it is about (a kind... constant), and
	// funcs how many functions it counts; on a counting note, kind says
	// which details it counts.
	kind  string
	funcs int
}

// Counts reports whether the notice is a counting note: one run-level
// line that sums up details (functions with parse errors, cut paths,
// generated files, first-branch reads), which --verbose lists.
func (n Notice) Counts() bool { return n.File == "" && n.kind != "" }

// The kinds of details, which a counting note sums up.
const (
	kindGenerated   = "generated"
	kindFirstBranch = "first-branch"
	kindCut         = "cut"
	kindMerged      = "merged"
	kindParse       = "parse"
)

// ExtStats counts one file extension's share of a scan.
type ExtStats struct {
	Ext          string
	Files        int
	Bytes        int64
	Functions    int
	FuncsWithErr int // functions whose syntax has ERROR or MISSING nodes
	FilesWithErr int
	Skipped      int
}

// Result is what a scan found.
type Result struct {
	Findings []*diag.Finding
	Notices  []Notice
	Stats    []ExtStats // by extension, sorted
	Rules    []*rules.Rule
	// Sources holds the original bytes of files with findings or
	// suppression directives, by path, for printers that show source lines.
	Sources map[string][]byte
	// Skipped counts files that could not be analysed.
	Skipped int
	// Files lists the source files discovery handed to the analysis (slash
	// paths as in findings), sorted; a file discovery skipped (too large)
	// is a notice instead.
	Files []string
	// Details are per-file notes that Notices only count: each file whose
	// functions have parse errors, each generated file not analysed.
	Details []Notice
	// Summarised counts the functions whose summaries the rules saw: Own
	// from the scanned files, Cached from the tree's other files.
	Summarised struct{ Own, Cached int }
	// ExcludedByConfig counts the source files the configuration's
	// exclude patterns left out.
	ExcludedByConfig int
	// Rebuilt counts the files whose syntax tables were dropped after
	// the summaries to bound memory, and parsed again for the rules (every
	// file's lifetime model is built again for the rules).
	Rebuilt int
}

// Run scans. The error is for problems that stop the whole scan (no path
// exists, a bad configuration); per-file problems become Notices.
func Run(ctx context.Context, opt Options) (*Result, error) {
	cfg := opt.Config
	if cfg == nil {
		cfg = &config.Config{}
	}
	opt.IncludeGenerated = opt.IncludeGenerated || cfg.IncludeGenerated
	var extra []*apimodel.Pack
	if cfg.API != nil {
		extra = append(extra, cfg.API)
	}
	model, err := apimodel.Load(extra...)
	if err != nil {
		return nil, err
	}
	rs, err := selectRules(opt.Rules, cfg)
	if err != nil {
		return nil, err
	}
	maxSize := opt.MaxFileSize
	if maxSize == 0 {
		maxSize = int64(cfg.MaxFileSize)
	}
	if maxSize == 0 {
		maxSize = DefaultMaxFileSize
	}
	dopt := discover.Options{
		Root: opt.Root, Exclude: append(slices.Clone(cfg.ExcludeFrom(opt.Root)), opt.Exclude...), MaxFileSize: maxSize,
	}
	files, warnings, err := discover.Find(opt.Paths, dopt)
	if err != nil {
		return nil, err
	}
	res := &Result{Rules: rs, Sources: map[string][]byte{}, Files: make([]string, 0, len(files))}
	for _, f := range files {
		res.Files = append(res.Files, f.Rel)
	}
	if own := cfg.ExcludeFrom(opt.Root); len(own) > 0 {
		// What the configuration's patterns leave out, counted by a
		// second walk without them: a pull request that changes the
		// configuration shows what it hides.
		without := dopt
		without.Exclude = opt.Exclude
		if all, _, err := discover.Find(opt.Paths, without); err == nil {
			res.ExcludedByConfig = max(0, len(all)-len(files))
		}
	}
	if cfg.Refused != "" {
		res.Notices = append(res.Notices, Notice{Level: "warning", File: config.FileName, Message: cfg.Refused + "; scanned without it"})
		res.Skipped++
	}
	if cfg.Misnamed != "" {
		// Not a source left unanalysed: a warning that does not count.
		res.Notices = append(res.Notices, Notice{Level: "warning", File: relTo(opt.Root, cfg.Misnamed),
			Message: "not read: holdfast reads " + config.FileName + "; rename it to use it"})
	}
	for _, w := range warnings {
		level := "note"
		if w.Skipped || w.Loud {
			level = "warning"
		}
		if w.Skipped {
			res.Skipped++
		}
		res.Notices = append(res.Notices, Notice{Level: level, File: w.Path, Message: w.Msg})
	}

	// A partial scan reads the cache while its files are parsed; a scan
	// of the whole root reads it first.
	tc, notes := openTreeCache(opt, dopt, model)
	res.Notices = append(res.Notices, notes...)

	jobs := opt.Jobs
	if jobs <= 0 {
		jobs = runtime.GOMAXPROCS(0)
	}
	jobs = min(jobs, max(1, len(files)))
	outs := make([]fileResult, len(files))
	next := make(chan int)
	var wg sync.WaitGroup
	var mu sync.Mutex // serialises opt.Funcs and opt.Progress
	done := 0
	errs := make([]error, jobs)
	timeout := cmp.Or(opt.FileTimeout, DefaultFileTimeout)
	lim := limits{maxSize: maxSize, timeout: timeout, units: cmp.Or(opt.FileBudget, DefaultFileBudget)}
	// A file the cache holds a summary of, unchanged since, skips phase
	// one: phase two reads and parses it once, charging its budget what
	// the summary cost (see fresh).
	cached := fresh(tc, files, lim.units)
	var phaseOne, all []int
	for i := range files {
		all = append(all, i)
		if cached[i] == nil {
			phaseOne = append(phaseOne, i)
		}
	}
	// Phase one: every other file is read, parsed, modelled and
	// summarised. The models wait for phase two in memory up to
	// retainBytes of source; past that, a file's model is dropped and
	// built again in phase two.
	preps := make([]*prepared, len(files))
	var retained atomic.Int64
	retainBytes, heapBound := retention(opt.RetainBytes)
	for w := range jobs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p, err := parser.New(parser.Options{DeclMacros: model.DeclMacros(), Timeout: timeout})
			if err != nil {
				errs[w] = err
				for range next {
				}
				return
			}
			defer p.Close()
			for i := range next {
				pr := prepare(ctx, p, model, files[i], opt, lim, &mu)
				if pr.pf != nil && (liveHeap() > heapBound || retained.Add(modelBytes(pr.pf)) > retainBytes) {
					pr.pf, pr.funcs, pr.rebuild = nil, nil, true
				}
				// The lifetime model is built again in phase two from the
				// kept syntax table: it is full of pointers, which the
				// collector would mark at every cycle while it waits, and
				// building it costs a few percent of the scan.
				pr.funcs = nil
				preps[i] = pr
			}
		}()
	}
	if err := feed(ctx, next, phaseOne); err != nil {
		wg.Wait()
		return nil, err
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}

	// The tree's summaries: the scanned files', and the unchanged rest
	// from the cache.
	tree, sums, fromCache, notes := treeSummaries(opt, tc, files, preps, cached)
	res.Summarised.Own, res.Summarised.Cached = sums, fromCache
	// The index composes the forwards of the functions it is asked about
	// (see summary.NewTreeIndex): whether it had to stop is known after
	// phase two, and said here.
	treeNoteAt := len(res.Notices)
	for _, pr := range preps {
		if pr != nil && pr.rebuild {
			res.Rebuilt++
		}
	}
	res.Notices = append(res.Notices, notes...)

	// Phase two: the rules and the replay, file by file.
	next = make(chan int)
	for w := range jobs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var p *parser.Parser
			defer func() {
				if p != nil {
					p.Close()
				}
			}()
			for i := range next {
				if preps[i] == nil || preps[i].rebuild {
					if p == nil {
						if p, errs[w] = parser.New(parser.Options{DeclMacros: model.DeclMacros(), Timeout: timeout}); errs[w] != nil {
							p = nil
							outs[i] = fileResult{notice: &Notice{Level: "warning", File: files[i].Rel, Message: "cannot parse: " + errs[w].Error()}}
							continue
						}
					}
				}
				switch {
				case preps[i] == nil:
					// Summarised from the cache: the file is read, parsed
					// and modelled here, once.
					preps[i] = prepare(ctx, p, model, files[i], opt, lim.cached(cached[i].Spent), &mu)
				case preps[i].rebuild:
					// The model was dropped to bound memory: build it again,
					// without calling opt.Funcs a second time, nor spending
					// the file's budget on what phase one did already.
					again := opt
					again.Funcs = nil
					preps[i] = prepare(ctx, p, model, files[i], again, lim.rebuild(preps[i].meter), &mu)
				}
				outs[i] = check(ctx, model, rs, preps[i], opt, tree, lim)
				preps[i] = nil // the model is no longer needed
				if len(outs[i].findings) == 0 && !suppress.Mentions(outs[i].src) {
					outs[i].src = nil // nor the source: nothing quotes it
				}
				if opt.Progress != nil {
					mu.Lock()
					done++
					opt.Progress(done, len(files))
					mu.Unlock()
				}
			}
		}()
	}
	if err := feed(ctx, next, all); err != nil {
		wg.Wait()
		return nil, err
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var treeNotes []Notice
	if tree.Cut() {
		treeNotes = append(treeNotes, Notice{Level: "note", Message: fmt.Sprintf("the tree's summaries stopped composing after %d rounds: a free reached through a longer chain of calls across files may be missed", summary.MaxComposeRounds)})
	}
	if n := tree.Unreadable(); n > 0 {
		treeNotes = append(treeNotes, Notice{Level: "note", File: opt.Cache.Dir(), Message: fmt.Sprintf("the summaries of %s in the summary cache did not decode and were not used: a full scan of the tree writes them again", plural(n, "file"))})
	}
	res.Notices = slices.Insert(res.Notices, treeNoteAt, treeNotes...)

	stats := map[string]*ExtStats{}
	for i, fr := range outs {
		f := files[i]
		st := stats[f.Ext]
		if st == nil {
			st = &ExtStats{Ext: f.Ext}
			stats[f.Ext] = st
		}
		st.Files++
		st.Bytes += f.Size
		st.Functions += fr.funcs
		st.FuncsWithErr += fr.funcsWithErr
		if fr.parseErrors > 0 {
			st.FilesWithErr++
		}
		if fr.notice != nil {
			res.Notices = append(res.Notices, *fr.notice)
			res.Skipped++
			st.Skipped++
			continue
		}
		if fr.generated != "" {
			res.Details = append(res.Details, Notice{Level: "note", File: f.Rel, Message: "generated source not analysed: it " + fr.generated, kind: kindGenerated})
			continue
		}
		if fr.parseNote != nil {
			n := *fr.parseNote
			n.kind, n.funcs = kindParse, fr.funcsWithErr
			res.Details = append(res.Details, n)
		}
		if fr.firstBranches {
			res.Details = append(res.Details, Notice{Level: "note", File: f.Rel, Message: "read with only the first branch of a conditional that splits a statement or a bracket between its branches; the other branches' code was not analysed", kind: kindFirstBranch})
		}
		if len(fr.cut) > 0 {
			res.Details = append(res.Details, Notice{Level: "note", File: f.Rel, Message: fmt.Sprintf(
				"%s %s more paths than are followed at once, so some of %s paths were not executed: %s",
				plural(len(fr.cut), "function"), haveOrHas(len(fr.cut)), itsOrTheir(len(fr.cut)), strings.Join(fr.cut, ", ")),
				kind: kindCut, funcs: len(fr.cut)})
		}
		if len(fr.merged) > 0 {
			res.Details = append(res.Details, Notice{Level: "note", File: f.Rel, Message: fmt.Sprintf(
				"%s %s more paths than are followed at once, so some of %s paths were executed merged, as one path that forgot which way each went: %s",
				plural(len(fr.merged), "function"), haveOrHas(len(fr.merged)), itsOrTheir(len(fr.merged)), strings.Join(fr.merged, ", ")),
				kind: kindMerged, funcs: len(fr.merged)})
		}
		if len(fr.partial) > 0 {
			res.Notices = append(res.Notices, fr.partial...)
			res.Skipped++
		}
		if fr.src != nil {
			res.Sources[f.Rel] = fr.src
		}
		res.Findings = append(res.Findings, fr.findings...)
	}
	for _, st := range stats {
		res.Stats = append(res.Stats, *st)
	}
	res.Notices = append(res.Notices, countingNotes(res.Details)...)
	slices.SortFunc(res.Stats, func(a, b ExtStats) int { return cmp.Compare(a.Ext, b.Ext) })
	applySeverity(res.Findings, cfg)
	res.Notices = append(res.Notices, applySuppressions(res.Findings, res.Sources, rs)...)
	res.Findings = diag.Sort(res.Findings)
	slices.SortStableFunc(res.Notices, byPlace)
	slices.SortStableFunc(res.Details, byPlace)
	return res, nil
}

func byPlace(a, b Notice) int {
	return cmp.Or(cmp.Compare(a.File, b.File), cmp.Compare(a.Line, b.Line), cmp.Compare(a.Message, b.Message))
}

// countingNotes sums the details up, one note for each kind there is:
// generated files not analysed, files read with only the first branch of
// a conditional, functions with paths cut, functions with parse errors.
func countingNotes(details []Notice) []Notice {
	files := map[string]int{}
	funcs := map[string]int{}
	for _, d := range details {
		files[d.kind]++
		funcs[d.kind] += d.funcs
	}
	var out []Notice
	note := func(kind, msg string) {
		out = append(out, Notice{Level: "note", Message: msg, kind: kind})
	}
	if n := files[kindGenerated]; n > 0 {
		note(kindGenerated, fmt.Sprintf(
			"%s not analysed: %s generated, or mostly one data initialiser (--include-generated analyses them; --verbose names them)",
			plural(n, "generated source file"), sayOrSays(n)))
	}
	if n := files[kindFirstBranch]; n > 0 {
		note(kindFirstBranch, fmt.Sprintf(
			"%s read with only the first branch of a conditional that splits a statement between its branches, so the other branches were not analysed (--verbose names them)",
			plural(n, "file")))
	}
	if n, fn := files[kindCut], funcs[kindCut]; n > 0 {
		note(kindCut, fmt.Sprintf(
			"%s in %s %s more paths than are followed at once, so some of %s paths were not executed (--verbose names them)",
			plural(fn, "function"), plural(n, "file"), haveOrHas(fn), itsOrTheir(fn)))
	}
	if n, fn := files[kindMerged], funcs[kindMerged]; n > 0 {
		note(kindMerged, fmt.Sprintf(
			"%s in %s %s more paths than are followed at once, so some of %s paths were executed merged, as one path that forgot which way each went (--verbose names them)",
			plural(fn, "function"), plural(n, "file"), haveOrHas(fn), itsOrTheir(fn)))
	}
	if n, fn := files[kindParse], funcs[kindParse]; n > 0 {
		note(kindParse, fmt.Sprintf(
			"%s in %s %s parse errors, so %s analysis may be incomplete (--verbose names them)",
			plural(fn, "function"), plural(n, "file"), haveOrHas(fn), itsOrTheir(fn)))
	}
	return out
}

// KeepDetails keeps the details about the files keep accepts (given as
// their paths in the result), and counts only those in the notes that
// sum the details up: a scan that reports only the changes since a
// revision speaks only of the changed files.
func (r *Result) KeepDetails(keep func(file string) bool) {
	r.Details = slices.DeleteFunc(r.Details, func(n Notice) bool { return !keep(n.File) })
	r.Notices = slices.DeleteFunc(r.Notices, func(n Notice) bool { return n.File == "" && n.kind != "" })
	r.Notices = append(r.Notices, countingNotes(r.Details)...)
	slices.SortStableFunc(r.Notices, byPlace)
}

type fileResult struct {
	src          []byte
	findings     []*diag.Finding
	funcs        int
	funcsWithErr int
	// firstBranches: the file was read with only the first branch of a
	// conditional that split a statement (see parser.File.FirstBranches).
	firstBranches bool
	parseErrors   int
	// cut and merged name the functions with more paths than the
	// executor follows at once (see rules.Outcome).
	cut, merged []string
	// notice, when set, says the file was not analysed at all; partial
	// says what part of it was not, while its findings still count
	// (code nested too deeply, the time budget run out); parseNote
	// counts its functions with parse errors (informational).
	notice    *Notice
	partial   []Notice
	parseNote *Notice
	// generated says why the file was taken for generated source and not
	// analysed (see GeneratedWhy).
	generated string
}

// feed hands the indexes of files to the workers, then closes next; it
// stops early, with ctx's error, when ctx is done.
func feed(ctx context.Context, next chan<- int, indexes []int) error {
	defer close(next)
	for _, i := range indexes {
		select {
		case next <- i:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	return nil
}

// prepared is one file after phase one: its model and summary, or the
// notice that says why it has none.
type prepared struct {
	out   fileResult
	pf    *parser.File
	funcs []*lifetime.Func
	sum   *summary.File
	hash  string
	info  fs.FileInfo
	left  time.Duration // what phase one left of the file's wall-clock limit
	meter *budget.Meter // the file's work budget, as phase one left it
	spent int64         // the units phase one spent (see summary.Entry.Spent)
	// rebuild says the model was dropped after phase one to bound memory.
	rebuild bool
}

// DefaultRetainBytes bounds the memory of the models phase one keeps for
// phase two (as modelBytes estimates it); a tree larger than this has the
// rest of its files parsed and modelled again in phase two. PyTorch's
// models take about 0.5 GB.
const DefaultRetainBytes = 2 << 30

// modelBytes estimates the memory a file's model takes while it waits for
// phase two: its source and 40 bytes per syntax node (the live heap after
// phase one measures 33 bytes per node on PyTorch: the syntax table, its
// line index and the summary; the lifetime model is not kept).
func modelBytes(pf *parser.File) int64 {
	return int64(len(pf.Src)) + 40*int64(len(pf.Nodes))
}

// retention returns the bound on the models kept for phase two (retain,
// or the default; a quarter of the runtime's soft memory limit when that
// is less), and the live heap past which no further model is kept (half
// the limit; none without one).
func retention(retain int64) (bound, heap int64) {
	bound, heap = cmp.Or(retain, DefaultRetainBytes), math.MaxInt64
	if limit := debug.SetMemoryLimit(-1); limit < math.MaxInt64 {
		bound, heap = min(bound, limit/4), limit/2
	}
	return bound, heap
}

// liveHeap is the heap the last garbage collection found live.
func liveHeap() int64 {
	sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(sample)
	if sample[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return int64(min(sample[0].Value.Uint64(), math.MaxInt64))
}

// grace is how long a stage stopped by the wall-clock limit or an
// interrupt is waited for: every stage stops at its next step, so only a
// stage that does not look at its meter (a bug) is left running.
const grace = 2 * time.Second

// prepare reads, parses, models and summarises one file within its work
// budget and its wall-clock limit. The model runs in a goroutine of its
// own; when the limit or ctx ends first, its meter is stopped and the
// goroutine is waited for until it stops (or for grace at most), and the
// file is reported as not analysed.
func prepare(ctx context.Context, p *parser.Parser, m *apimodel.Model, f discover.File, opt Options, lim limits, mu *sync.Mutex) (out *prepared) {
	defer func() {
		if r := recover(); r != nil {
			out = &prepared{out: fileResult{notice: &Notice{Level: "warning", File: f.Rel, Message: fmt.Sprintf("internal error, file skipped: %v", r)}}}
		}
	}()
	start := time.Now()
	deadline := start.Add(lim.timeout)
	skip := func(msg string) *prepared {
		return &prepared{out: fileResult{notice: &Notice{Level: "warning", File: f.Rel, Message: msg}}}
	}
	src, info, err := safeio.ReadFileStat(f.Path, lim.maxSize, safeio.Options{})
	if err != nil {
		var tl *safeio.TooLargeError
		switch {
		case errors.As(err, &tl):
			return skip(fmt.Sprintf("skipped: size exceeds the limit of %d bytes", tl.Limit))
		case errors.Is(err, safeio.ErrNotRegular):
			return skip("skipped: not a regular file")
		}
		return skip("cannot read: " + describe(err))
	}
	if isBinary(src) {
		return skip("looks binary (NUL bytes in the first 8 KiB), skipped")
	}
	if !opt.IncludeGenerated {
		if why := GeneratedWhy(src); why != "" {
			return &prepared{out: fileResult{generated: why}}
		}
	}
	if opt.afterRead != nil {
		opt.afterRead(f.Path)
	}
	// A file that changed while it was read (a checkout, an editor's
	// save) is analysed as read, but its summary is not cached under a
	// status that may belong to other content.
	if after, err := os.Stat(f.Path); err != nil || !sameStamp(info, after) {
		info = nil
	}
	hash := summary.HashContent(src)
	// A byte order mark is not code: without it, columns on line 1 are
	// those of every other line.
	src = bytes.TrimPrefix(src, []byte("\xef\xbb\xbf"))
	// The text with lone CRs as LFs is also what suppression directives
	// and the printers' snippets are read from, so that every stage
	// counts the same lines.
	src = grammarText(src)
	pf, err := p.Parse(f.Rel, f.Ext, src)
	if err != nil {
		if errors.Is(err, parser.ErrTimeout) {
			return skip(fmt.Sprintf("parse stopped by the wall-clock limit of %s (--file-timeout; the result depends on the machine), file skipped", lim.timeout))
		}
		return skip("cannot parse: " + err.Error())
	}
	meter := lim.meter()
	done := make(chan *prepared, 1)
	go func() { done <- model(pf, m, src, opt, mu, meter, !lim.again) }()
	timer := time.NewTimer(time.Until(deadline))
	defer timer.Stop()
	select {
	case pr := <-done:
		if pr.out.notice != nil {
			pr.out.notice.File = f.Rel
		}
		pr.hash, pr.info, pr.left, pr.meter = hash, info, lim.timeout-time.Since(start), meter
		if !lim.again {
			pr.spent = lim.units - meter.Left()
		}
		return pr
	case <-timer.C:
		meter.Stop()
		wait(done)
		return skip(fmt.Sprintf("analysis stopped by the wall-clock limit of %s (--file-timeout; the result depends on the machine), file skipped", lim.timeout))
	case <-ctx.Done():
		meter.Stop()
		wait(done)
		return skip("interrupted")
	}
}

// wait waits for a stopped stage to hand over its result, for grace at
// most.
func wait[T any](done <-chan T) {
	t := time.NewTimer(grace)
	defer t.Stop()
	select {
	case <-done:
	case <-t.C:
	}
}

// limits bound the work on one file.
type limits struct {
	maxSize int64
	timeout time.Duration
	units   int64
	// again: the model is built in phase two (see prepared.rebuild),
	// with no summary: with what phase one left of the budget in left,
	// or, for a file summarised from the cache, the full budget less
	// what the summary cost, taken.
	again bool
	left  *budget.Meter
	taken int64
}

// rebuild returns the limits of a model built again, with what phase
// one left of the file's budget in m.
func (l limits) rebuild(m *budget.Meter) limits {
	l.again, l.left = true, m
	return l
}

// cached returns the limits of the model of a file whose summary came
// from the cache, where summarising it cost spent units.
func (l limits) cached(spent int64) limits {
	l.again, l.taken = true, spent
	return l
}

// meter returns the file's work budget for phase one, or what phase one
// left of it in phase two.
func (l limits) meter() *budget.Meter {
	if l.again && l.left != nil {
		return l.left
	}
	m := budget.New(l.units)
	if l.taken > 0 {
		m.Spend(int(min(l.taken, math.MaxInt32)))
	}
	return m
}

// model builds the lifetime model of a parsed file and, with summarise,
// its summary, spending work from meter and giving up at the next step
// once it is out.
func model(pf *parser.File, m *apimodel.Model, src []byte, opt Options, mu *sync.Mutex, meter *budget.Meter, summarise bool) (out *prepared) {
	defer func() {
		if r := recover(); r != nil {
			out = &prepared{out: fileResult{notice: &Notice{Level: "warning", Message: fmt.Sprintf("internal error, file skipped: %v", r)}}}
		}
	}()
	funcs := lifetime.Build(pf, m)
	out = &prepared{pf: pf, funcs: funcs, out: fileResult{src: src, funcs: len(funcs), parseErrors: pf.Errors, firstBranches: pf.FirstBranches}}
	var lost []*lifetime.Func
	for _, fn := range funcs {
		if fn.HasErrors {
			out.out.funcsWithErr++
			lost = append(lost, fn)
		}
		if fn.Truncated && out.out.partial == nil {
			out.out.partial = []Notice{{Level: "warning", File: pf.Path, Line: line(pf, fn),
				Message: "code nested too deeply in this function was not analysed; findings in it may be missing"}}
		}
	}
	if len(lost) > 0 {
		out.out.parseNote = &Notice{Level: "note", File: pf.Path, Message: parseErrorNote(pf, lost, len(funcs))}
	}
	if !summarise {
		// Phase two's model: opt.Funcs sees it when phase one's did not
		// exist (the summary came from the cache); a model built again
		// comes without opt.Funcs.
		if opt.Funcs != nil {
			mu.Lock()
			opt.Funcs(pf, funcs)
			mu.Unlock()
		}
		return out
	}
	// Building the model reads the file once.
	if !meter.Spend(len(pf.Src)/32 + 1) {
		return out
	}
	if opt.Funcs != nil {
		mu.Lock()
		opt.Funcs(pf, funcs)
		mu.Unlock()
	}
	if meter.Out() {
		return out
	}
	out.sum = rules.Summarise(pf, m, funcs, nil, meter)
	return out
}

// check runs the rules on a prepared file and replays the findings,
// spending the file's work budget and within what is left of its
// wall-clock limit. The work runs in a goroutine of its own, which hands
// over what it has made after each step (a rule over one function, the
// replay of one finding): when the limit or ctx ends first, check stops
// the meter, waits for the goroutine to stop (grace at most) and keeps
// what was handed over.
func check(ctx context.Context, m *apimodel.Model, rs []*rules.Rule, pr *prepared, opt Options, tree *summary.Index, lim limits) fileResult {
	if pr.out.notice != nil || pr.pf == nil {
		return pr.out
	}
	file := pr.pf.Path
	mk := &made{}
	done := make(chan struct{})
	meter := pr.meter
	go func() {
		defer close(done)
		defer func() {
			if r := recover(); r != nil {
				mk.keep(func() { mk.failed = fmt.Sprintf("internal error, file skipped: %v", r) })
			}
		}()
		if pr.funcs == nil {
			pr.funcs = lifetime.Build(pr.pf, m) // phase one's, dropped (see Run)
		}
		for oc := range rules.Steps(pr.pf, m, pr.funcs, rs, tree, meter) {
			if !mk.keep(func() { mk.oc = oc }) {
				return
			}
		}
		var found []*diag.Finding
		if !mk.keep(func() { mk.oc = mk.oc.Sorted(); mk.ruled, found = !meter.Out(), mk.oc.Findings }) || opt.Verify == nil {
			return
		}
		for i, fd := range found {
			if mk.over() {
				return
			}
			v := opt.Verify(fd)
			if !mk.keep(func() { fd.Verification, mk.replayed = v, i+1; rules.InTwoConfigurations(pr.pf, fd) }) {
				return
			}
		}
		mk.keep(func() { mk.verified = true })
	}()
	timer := time.NewTimer(max(pr.left, 0))
	defer timer.Stop()
	skip := func(msg string) fileResult {
		return fileResult{notice: &Notice{Level: "warning", File: file, Message: msg}}
	}
	out := pr.out
	var why string
	select {
	case <-done:
	case <-timer.C:
		meter.Stop()
		wait(done)
		why = fmt.Sprintf("the wall-clock limit of %s (--file-timeout; the result depends on the machine)", lim.timeout)
	case <-ctx.Done():
		meter.Stop()
		wait(done)
		mk.keep(func() { mk.stopped = true })
		return skip("interrupted")
	}
	if why == "" && meter.Out() {
		why = fmt.Sprintf("the work budget of %d units (--file-budget)", lim.units)
	}
	oc, failed, left := mk.stop(opt.Verify != nil, why)
	if failed != "" {
		return skip(failed)
	}
	out.findings, out.cut, out.merged = oc.Findings, oc.Cut, oc.Merged
	if left != "" {
		out.partial = append(slices.Clone(out.partial), Notice{Level: "warning", File: file, Message: left})
	}
	return out
}

// made is what check's goroutine has made of a file so far. Once check
// has stopped waiting, the goroutine records nothing more.
type made struct {
	mu       sync.Mutex
	stopped  bool
	oc       rules.Outcome // the rules' outcome after the last step done, sorted once ruled
	ruled    bool          // every rule ran over every function
	replayed int           // the first findings replayed
	verified bool          // every finding replayed
	failed   string
}

// keep runs f, which records what was made, unless check has stopped
// waiting; it says whether it ran f.
func (mk *made) keep(f func()) bool {
	mk.mu.Lock()
	defer mk.mu.Unlock()
	if mk.stopped {
		return false
	}
	f()
	return true
}

func (mk *made) over() bool {
	return !mk.keep(func() {})
}

// stop tells the goroutine to stop and returns what it made: the
// outcome, its findings copies (it may still be reading the originals),
// its internal error if any, and what it left undone ("": nothing), with
// replay saying the findings were to be replayed and why what stopped
// the work ("" when nothing did).
func (mk *made) stop(replay bool, why string) (oc rules.Outcome, failed, left string) {
	mk.mu.Lock()
	defer mk.mu.Unlock()
	mk.stopped = true
	oc = mk.oc.Sorted()
	found := make([]*diag.Finding, len(oc.Findings))
	for i, f := range oc.Findings {
		c := *f
		found[i] = &c
	}
	switch {
	case !mk.ruled:
		left = fmt.Sprintf("analysis cut short by %s: findings may be missing", cmp.Or(why, "the work budget"))
	case replay && !mk.verified:
		left = fmt.Sprintf("replay cut short by %s: %d of %d findings not replayed", cmp.Or(why, "the work budget"), len(found)-mk.replayed, len(found))
	}
	oc.Findings = found
	return oc, mk.failed, left
}

// treeCache is how a scan uses the summary cache: the root it is filed
// under, its key, and for a partial scan the cached tree and the files
// discovery lists under the root, read in the background while the
// scanned files are parsed; for a scan of the whole root, the cached
// tree, read before.
type treeCache struct {
	root, key string
	read      chan cachedTree // nil: a scan of the whole root
	whole     *summary.Tree   // a scan of the whole root: what the cache held
}

type cachedTree struct {
	t     *summary.Tree
	files []discover.File // sorted by Rel; each with the status the walk read
	notes []Notice
}

// openTreeCache decides whether the scan uses the cache, and for a
// partial scan starts reading it. nil: the cache is not used (the notes
// say why when that is not the user's choice).
func openTreeCache(opt Options, dopt discover.Options, m *apimodel.Model) (*treeCache, []Notice) {
	if opt.Cache == nil {
		return nil, nil
	}
	root, err := filepath.Abs(cmp.Or(opt.Root, "."))
	if err != nil {
		return nil, nil
	}
	warn := func(msg string) []Notice {
		return []Notice{{Level: "warning", File: opt.Cache.Dir(), Message: msg}}
	}
	dir, err := filepath.Abs(opt.Cache.Dir())
	if err != nil {
		return nil, warn("summary cache not used: " + err.Error())
	}
	realDir := resolved(dir)
	for _, p := range append([]string{root}, opt.Paths...) {
		// As written and with links resolved: a tree reached through a
		// link still holds a cache folder named by its real path.
		if ap, err := filepath.Abs(p); err == nil && (isBelow(ap, dir) || isBelow(resolved(ap), realDir)) {
			return nil, warn("summary cache not used: the folder is inside the scanned tree, where the scanned code could plant summaries; pass a --cache-dir outside it")
		}
	}
	if err := summary.CheckDir(dir); err != nil {
		return nil, warn("summary cache not used: " + err.Error())
	}
	tc := &treeCache{root: root, key: cacheKey(opt.CacheKey, m, opt.IncludeGenerated)}
	// load reads the cache; partial says a partial scan, which is told
	// when the cache it needs is another build's.
	load := func(partial bool) (*summary.Tree, []Notice) {
		var notes []Notice
		t, err := opt.Cache.Load(root, tc.key)
		if err != nil {
			notes = append(notes, Notice{Level: "note", File: opt.Cache.Dir(), Message: "summary cache unreadable, rebuilt: " + err.Error()})
		}
		if partial && err == nil && t.Absent() && opt.Cache.Others(root, tc.key) {
			notes = append(notes, Notice{Level: "note", File: opt.Cache.Dir(),
				Message: "summary cache written by another build or api: configuration, not used: a full scan of the tree fills this one"})
		}
		return t, notes
	}
	if coversRoot(root, opt.Paths) {
		t, notes := load(false)
		tc.whole = t
		return tc, notes
	}
	tc.read = make(chan cachedTree, 1)
	// The tree is walked while the cache file is read.
	walked := make(chan []discover.File, 1)
	go func() {
		whole := dopt
		whole.Root = root
		files, _, err := discover.Find([]string{root}, whole)
		if err != nil {
			files = nil
		}
		slices.SortFunc(files, func(a, b discover.File) int { return cmp.Compare(a.Rel, b.Rel) })
		walked <- files
	}()
	go func() {
		var out cachedTree
		out.t, out.notes = load(true)
		out.files = <-walked
		tc.read <- out
	}()
	return tc, nil
}

// fresh returns, for a scan of the whole root, the cache's entry of each
// file that has not changed on disk since it was summarised, and nil for
// the others. An entry whose summary cost the file's whole budget (units)
// or more is not taken: a scan without the cache would stop summarising
// it, and find what its budget allows.
func fresh(tc *treeCache, files []discover.File, units int64) []*summary.Entry {
	out := make([]*summary.Entry, len(files))
	if tc == nil || tc.whole == nil {
		return out
	}
	for i, f := range files {
		if f.Info == nil || strings.HasPrefix(f.Rel, "/") {
			continue
		}
		if e := tc.whole.Fresh(f.Rel, f.Info); e != nil && e.Spent < units {
			out[i] = e
		}
	}
	return out
}

// treeSummaries merges the summaries of the scanned files with those of
// the tree's other files that the cache holds and that have not changed
// on disk since, and merges the scanned files' into the cache. It returns
// the index, how many functions came from each side, and notices about
// the cache. In a scan of the whole root, the files fresh in the cache
// (cached, from fresh) were not summarised: their summaries are the
// cache's. A partial scan takes an entry only for a file that discovery,
// with this scan's options, lists under the root. A summary whose file
// ran out of budget is not cached: it depends on the budget.
func treeSummaries(opt Options, tc *treeCache, files []discover.File, preps []*prepared, fromCache []*summary.Entry) (*summary.Index, int, int, []Notice) {
	var own []*summary.File
	scanned := map[string]bool{}
	for i, pr := range preps {
		scanned[files[i].Rel] = true
		if pr != nil && pr.sum != nil {
			own = append(own, pr.sum)
		}
	}
	if tc == nil {
		ix := summary.NewIndex(own...)
		return ix, ix.Len(), 0, nil
	}
	root := tc.root
	var notes []Notice
	// An entry stays while its file exists, even when this scan's
	// options leave the file out: it is only used when they do not.
	listed := map[string]bool{}
	keep := func(rel string) bool {
		if scanned[rel] || listed[rel] {
			return true
		}
		_, err := os.Lstat(filepath.Join(root, filepath.FromSlash(rel)))
		return err == nil
	}
	var cached []summary.Cached
	var base *summary.Tree
	if tc.whole != nil {
		base = tc.whole
		for i, e := range fromCache {
			if e != nil {
				cached = append(cached, summary.Cached{Rel: files[i].Rel, Entry: e})
			}
		}
	}
	if tc.read != nil {
		got := <-tc.read
		notes = append(notes, got.notes...)
		base = got.t
		// The walk read each file's status without following a link; a
		// file reached through one has none and is never taken from the
		// cache.
		for _, f := range got.files {
			listed[f.Rel] = true
			if e := base.Files[f.Rel]; e != nil && !scanned[f.Rel] && f.Info != nil && base.Fresh(f.Rel, f.Info) != nil {
				cached = append(cached, summary.Cached{Rel: f.Rel, Entry: e})
			}
		}
	}
	put := map[string]*summary.Entry{}
	for i, pr := range preps {
		if pr == nil || pr.sum == nil || pr.meter.Out() || strings.HasPrefix(files[i].Rel, "/") {
			continue
		}
		if st, ok := summary.StampOf(pr.info); ok {
			put[files[i].Rel] = &summary.Entry{Hash: pr.hash, Stamp: st, Spent: pr.spent, Summary: pr.sum}
		}
	}
	// The cache is an optimisation: failing to write it changes no
	// result, but the user is told, since every later scan is slower.
	if err := opt.Cache.UpdateFrom(base, root, tc.key, put, keep); err != nil {
		notes = append(notes, Notice{Level: "warning", File: opt.Cache.Dir(), Message: "summary cache not written: " + err.Error()})
	}
	// The cached summaries are read as the scanned files' calls ask for
	// them, each for the functions filed under its own path; a scan that
	// takes none (of the whole root) reads its own at once.
	var ix *summary.Index
	if len(cached) > 0 {
		ix = summary.NewTreeIndex(own, cached)
	} else {
		ix = summary.NewIndex(own...)
	}
	return ix, ix.Len() - ix.FromCache(), ix.FromCache(), notes
}

// isBelow says path p is dir or lies below it.
// resolved is p with the links of its longest existing prefix resolved
// (a cache folder may not exist yet); p itself when nothing resolves.
func resolved(p string) string {
	rest := ""
	for q := p; ; q = filepath.Dir(q) {
		if r, err := filepath.EvalSymlinks(q); err == nil {
			return filepath.Join(r, rest)
		}
		if filepath.Dir(q) == q {
			return p
		}
		rest = filepath.Join(filepath.Base(q), rest)
	}
}

func isBelow(dir, p string) bool {
	rel, err := filepath.Rel(dir, p)
	return err == nil && filepath.IsLocal(rel)
}

// coversRoot says the scan's paths include the root itself, so every
// file of the tree is scanned and nothing cached is needed.
func coversRoot(root string, paths []string) bool {
	for _, p := range paths {
		if ap, err := filepath.Abs(p); err == nil && ap == root {
			return true
		}
	}
	return false
}

// sameStamp says two statuses of a file describe the same content.
func sameStamp(a, b fs.FileInfo) bool {
	x, ok1 := summary.StampOf(a)
	y, ok2 := summary.StampOf(b)
	return ok1 && ok2 && x == y
}

// cacheKey says what computed a cache's summaries: the analysis build,
// the API model (the built-in packs and the configuration's own) and
// whether generated sources were analysed, since a scan that leaves them
// out must not read their summaries from one that did not.
func cacheKey(build string, m *apimodel.Model, includeGenerated bool) string {
	k := fmt.Sprintf("v%d %s %s", summary.FormatVersion, build, m.Fingerprint())
	if includeGenerated {
		k += " generated"
	}
	return k
}

// relTo is the absolute path as a slash path relative to root (the
// current directory when ""), as the report's paths are.
func relTo(root, path string) string {
	abs, err := filepath.Abs(cmp.Or(root, "."))
	if err != nil {
		return path
	}
	if r, err := filepath.Rel(abs, path); err == nil {
		return filepath.ToSlash(r)
	}
	return path
}

// line is the 1-based line a function starts on.
func line(pf *parser.File, fn *lifetime.Func) int {
	l, _ := pf.Position(int(pf.Nodes[fn.Node].Start))
	return l
}

// grammarText is src as the grammar should see it: a lone CR, which old
// Mac files end lines with, becomes LF, or the grammar would read a
// "//" comment on line 1 as running to the end of the file (and the
// suppression lexer and the printers, which count LFs, would see one
// line). The length and so every offset stay the same.
func grammarText(src []byte) []byte {
	i := bytes.IndexByte(src, '\r')
	if i < 0 {
		return src
	}
	out := slices.Clone(src)
	for ; i < len(out); i++ {
		if out[i] == '\r' && (i+1 == len(out) || out[i+1] != '\n') {
			out[i] = '\n'
		}
	}
	return out
}

// parseErrorNote says which functions of a file have syntax the grammar
// could not read (ERROR or MISSING nodes), naming the first few.
func parseErrorNote(pf *parser.File, lost []*lifetime.Func, total int) string {
	const named = 3
	var b strings.Builder
	verb, whose := "have", "their"
	if len(lost) == 1 {
		verb, whose = "has", "its"
	}
	fmt.Fprintf(&b, "%d of %d functions %s parse errors, so %s analysis may be incomplete: ", len(lost), total, verb, whose)
	for i, fn := range lost[:min(len(lost), named)] {
		if i > 0 {
			b.WriteString(", ")
		}
		line, _ := pf.Position(int(pf.Nodes[fn.Node].Start))
		fmt.Fprintf(&b, "%s (line %d)", declarator(fn.Name), line)
	}
	if len(lost) > named {
		fmt.Fprintf(&b, " and %d more", len(lost)-named)
	}
	return b.String()
}

func describe(err error) string {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

// isBinary reports NUL bytes near the start, as git does.
func isBinary(src []byte) bool {
	return slices.Contains(src[:min(len(src), 8192)], 0)
}

func selectRules(rs []*rules.Rule, cfg *config.Config) ([]*rules.Rule, error) {
	if rs == nil {
		rs = rules.All()
	}
	for _, id := range cfg.Rules.Disable {
		if rules.ByID(id) == nil {
			return nil, fmt.Errorf("%s: rules.disable: unknown rule %q", cfg.Where("rules", "disable", id), id)
		}
	}
	for _, id := range slices.Sorted(maps.Keys(cfg.Rules.Severity)) {
		if rules.ByID(id) == nil {
			return nil, fmt.Errorf("%s: rules.severity: unknown rule %q", cfg.Where("rules", "severity", id), id)
		}
	}
	return slices.DeleteFunc(slices.Clone(rs), func(r *rules.Rule) bool {
		return slices.ContainsFunc(cfg.Rules.Disable, r.Meta.Named)
	}), nil
}

func applySeverity(fs []*diag.Finding, cfg *config.Config) {
	for _, f := range fs {
		for id, s := range cfg.Rules.Severity {
			if f.Rule.Named(id) {
				f.Severity, _ = diag.ParseSeverity(s)
			}
		}
	}
}

// applySuppressions marks the findings that holdfast:ignore directives
// cover and turns problems with directives into notices.
func applySuppressions(fs []*diag.Finding, sources map[string][]byte, ran []*rules.Rule) []Notice {
	opt := suppress.Options{}
	for _, r := range rules.All() {
		opt.Known = append(opt.Known, r.Meta)
	}
	for _, r := range ran {
		opt.Ran = append(opt.Ran, r.Meta)
	}
	_, ns := suppress.Process(fs, sources, opt)
	out := make([]Notice, len(ns))
	for i, n := range ns {
		out[i] = Notice{Level: n.Level, File: n.File, Line: n.Line, Message: n.Message}
	}
	return out
}
