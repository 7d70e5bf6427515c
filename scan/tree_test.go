package scan

import (
	"context"
	"fmt"
	"os"
	"runtime/debug"
	"slices"
	"sync"

	"github.com/holdfast-dev/holdfast/apimodel"
	"github.com/holdfast-dev/holdfast/config"
	"path/filepath"
	"strings"
	"testing"

	"github.com/holdfast-dev/holdfast/lifetime"
	"github.com/holdfast-dev/holdfast/parser"
	"github.com/holdfast-dev/holdfast/summary"
)

// A helper defined in one file frees its argument; another file uses the
// pointer after calling it. Only the whole tree's summaries can tell.
const (
	poolSrc = `#include <stdlib.h>
struct Block { int size; char* data; };
void release_block(Block* b) {
  free(b->data);
  free(b);
}
void maybe_release(Block* b, bool last) {
  if (last) {
    free(b);
  }
}
`
	userSrc = `struct Block { int size; char* data; };
void release_block(Block* b);
void maybe_release(Block* b, bool last);
int drop(Block* b) {
  release_block(b);
  return b->size;
}
int drop_maybe(Block* b) {
  maybe_release(b, false);
  return b->size;
}
`
)

func ruleLines(res *Result, file, rule string) []int {
	var out []int
	for _, f := range res.Findings {
		if f.At.Start.File == file && f.Rule.ID == rule {
			out = append(out, f.At.Start.Line)
		}
	}
	return out
}

func scanPaths(t *testing.T, root string, opt Options, paths ...string) *Result {
	t.Helper()
	opt.Root = root
	opt.Paths = nil
	for _, p := range paths {
		opt.Paths = append(opt.Paths, filepath.Join(root, p))
	}
	res, err := Run(context.Background(), opt)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func TestSummariesCrossFiles(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "src/pool.cc", []byte(poolSrc))
	write(t, dir, "src/user.cc", []byte(userSrc))
	res := scanPaths(t, dir, Options{}, ".")
	// release_block frees on every path: the use after it is reported;
	// maybe_release frees only on one: it is not.
	if got := ruleLines(res, "src/user.cc", "HF-B002"); len(got) != 1 || got[0] != 6 {
		t.Errorf("HF-B002 in src/user.cc at lines %v, want [6]", got)
	}
	var msg string
	for _, f := range res.Findings {
		for _, st := range f.Witness {
			msg += st.Message + "\n"
		}
	}
	if !strings.Contains(msg, "in src/pool.cc") {
		t.Errorf("the witness does not say where the helper is defined:\n%s", msg)
	}
	// Alone, the file cannot see the helper.
	if got := ruleLines(scanPaths(t, dir, Options{}, "src/user.cc"), "src/user.cc", "HF-B002"); len(got) != 0 {
		t.Errorf("without the tree: HF-B002 at lines %v, want none", got)
	}
}

func TestCacheServesTheRestOfTheTree(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "src/pool.cc", []byte(poolSrc))
	write(t, dir, "src/user.cc", []byte(userSrc))
	cache := summary.Open(t.TempDir())
	opt := Options{Cache: cache, CacheKey: "test build"}

	full := scanPaths(t, dir, opt, ".")
	if full.Summarised.Cached != 0 || full.Summarised.Own == 0 {
		t.Errorf("full scan: summaries %+v, want all its own", full.Summarised)
	}
	one := scanPaths(t, dir, opt, "src/user.cc")
	if got := ruleLines(one, "src/user.cc", "HF-B002"); len(got) != 1 || got[0] != 6 {
		t.Errorf("one file with a warm cache: HF-B002 at lines %v, want [6] as in the full scan", got)
	}
	if one.Summarised.Cached == 0 {
		t.Errorf("one file: no summary came from the cache: %+v", one.Summarised)
	}

	// Another build's cache is not read.
	other := scanPaths(t, dir, Options{Cache: cache, CacheKey: "another build"}, "src/user.cc")
	if got := ruleLines(other, "src/user.cc", "HF-B002"); len(got) != 0 {
		t.Errorf("foreign cache: HF-B002 at lines %v, want none", got)
	}

	// A file changed since it was cached is not trusted: its summary is
	// dropped until it is scanned again.
	write(t, dir, "src/pool.cc", []byte(strings.Replace(poolSrc, "  free(b);\n}\nvoid maybe", "  if (b->size) free(b);\n}\nvoid maybe", 1)))
	stale := scanPaths(t, dir, opt, "src/user.cc")
	if got := ruleLines(stale, "src/user.cc", "HF-B002"); len(got) != 0 {
		t.Errorf("changed helper: HF-B002 at lines %v, want none", got)
	}
}

// What the cache holds is used only for files the scan itself would
// scan: an excluded file's summary does not reach the findings, so the
// same command gives the same findings cold and warm.
func TestCacheHonoursExcludes(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "src/pool.cc", []byte(poolSrc))
	write(t, dir, "src/user.cc", []byte(userSrc))
	opt := Options{Cache: summary.Open(t.TempDir()), CacheKey: "test build"}
	scanPaths(t, dir, opt, ".")
	opt.Exclude = []string{"src/pool.cc"}
	if got := ruleLines(scanPaths(t, dir, opt, "src/user.cc"), "src/user.cc", "HF-B002"); len(got) != 0 {
		t.Errorf("the helper's file is excluded: HF-B002 at lines %v, want none as in a cold scan", got)
	}
	opt.Exclude = nil
	if got := ruleLines(scanPaths(t, dir, opt, "src/user.cc"), "src/user.cc", "HF-B002"); len(got) != 1 {
		t.Errorf("excluded in one scan, the helper's summary must still serve the next: HF-B002 at lines %v", got)
	}
}

// A generated source is left out of a scan unless --include-generated
// says otherwise, and a later partial scan without it must not read that
// file's summary from the cache an earlier scan with it wrote: the same
// command gives the same findings cold and warm.
func TestCacheHonoursGeneratedSources(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "src/pool.cc", []byte("// @generated by a tool\n"+poolSrc))
	write(t, dir, "src/user.cc", []byte(userSrc))
	cold := ruleLines(scanPaths(t, dir, Options{}, "src/user.cc"), "src/user.cc", "HF-B002")
	opt := Options{Cache: summary.Open(t.TempDir()), CacheKey: "test build", IncludeGenerated: true}
	scanPaths(t, dir, opt, ".")
	opt.IncludeGenerated = false
	scanPaths(t, dir, opt, ".")
	if got := ruleLines(scanPaths(t, dir, opt, "src/user.cc"), "src/user.cc", "HF-B002"); len(got) != len(cold) {
		t.Errorf("warm scan without --include-generated: HF-B002 at lines %v, cold %v", got, cold)
	}
	opt.IncludeGenerated = true
	if got := ruleLines(scanPaths(t, dir, opt, "src/user.cc"), "src/user.cc", "HF-B002"); len(got) != 1 {
		t.Errorf("with --include-generated the generated helper's summary serves the partial scan: HF-B002 at lines %v", got)
	}
}

// A cache folder inside the scanned tree is where the scanned code could
// plant summaries: it is not used, and the user is told.
func TestCacheInsideTheTreeIsRefused(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "src/pool.cc", []byte(poolSrc))
	write(t, dir, "src/user.cc", []byte(userSrc))
	opt := Options{Cache: summary.Open(filepath.Join(dir, ".cache")), CacheKey: "test build"}
	refusedInside(t, scanPaths(t, dir, opt, "src/user.cc"), dir)
}

// refusedInside checks that the scan warned of a cache folder inside the
// tree at dir and wrote none there.
func refusedInside(t *testing.T, res *Result, dir string) {
	t.Helper()
	var warned bool
	for _, n := range res.Notices {
		warned = warned || n.Level == "warning" && strings.Contains(n.Message, "inside the scanned tree")
	}
	if !warned {
		t.Errorf("no warning about the cache folder: %+v", res.Notices)
	}
	if _, err := os.Stat(filepath.Join(dir, ".cache")); err == nil {
		t.Error("a cache was written inside the scanned tree")
	}
}

// The same holds when the tree is scanned through a link to it and the
// cache folder is named by the tree's real path.
func TestCacheInsideTheTreeThroughALink(t *testing.T) {
	base := t.TempDir()
	dir := filepath.Join(base, "tree")
	write(t, dir, "src/pool.cc", []byte(poolSrc))
	write(t, dir, "src/user.cc", []byte(userSrc))
	alias := filepath.Join(base, "alias")
	if err := os.Symlink(dir, alias); err != nil {
		t.Skip("no symlinks:", err)
	}
	opt := Options{Cache: summary.Open(filepath.Join(dir, ".cache", "x")), CacheKey: "test build"}
	refusedInside(t, scanPaths(t, alias, opt, "src/user.cc"), dir)
}

// Partial scans of one tree (a pre-commit hook runs them side by side)
// each add their files to the cache instead of replacing the others'.
func TestConcurrentPartialScansMergeTheCache(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "src/pool.cc", []byte(poolSrc))
	write(t, dir, "src/user.cc", []byte(userSrc))
	for i := range 4 {
		write(t, dir, fmt.Sprintf("src/extra%d.cc", i), []byte(fmt.Sprintf("void extra%d(int* p) { *p = 1; }\n", i)))
	}
	opt := Options{Cache: summary.Open(t.TempDir()), CacheKey: "test build"}
	var wg sync.WaitGroup
	for i := range 4 {
		wg.Go(func() { scanPaths(t, dir, opt, fmt.Sprintf("src/extra%d.cc", i)) })
	}
	wg.Go(func() { scanPaths(t, dir, opt, "src/pool.cc") })
	wg.Wait()
	one := scanPaths(t, dir, opt, "src/user.cc")
	if got := ruleLines(one, "src/user.cc", "HF-B002"); len(got) != 1 {
		t.Errorf("the helper's summary was lost to a concurrent scan: HF-B002 at lines %v", got)
	}
	if one.Summarised.Cached < 5 {
		t.Errorf("cached summaries %d, want every concurrent scan's (5 files)", one.Summarised.Cached)
	}
}

// Models dropped after the summaries to bound memory are built again for
// the rules: the findings are the same.
func TestDroppedModelsAreRebuilt(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "src/pool.cc", []byte(poolSrc))
	write(t, dir, "src/user.cc", []byte(userSrc))
	write(t, dir, "src/buggy.cc", []byte(buggy))
	kept := scanPaths(t, dir, Options{}, ".")
	var models int
	rebuilt := scanPaths(t, dir, Options{RetainBytes: 1, Funcs: func(*parser.File, []*lifetime.Func) { models++ }}, ".")
	if len(kept.Findings) == 0 || len(rebuilt.Findings) != len(kept.Findings) {
		t.Fatalf("%d findings with the models kept, %d with them rebuilt", len(kept.Findings), len(rebuilt.Findings))
	}
	for i := range kept.Findings {
		if a, b := kept.Findings[i], rebuilt.Findings[i]; a.Message != b.Message || a.At != b.At {
			t.Errorf("finding %d differs: %q vs %q", i, a.Message, b.Message)
		}
	}
	if models != 3 {
		t.Errorf("the model callback ran %d times for 3 files, want once each", models)
	}
	if kept.Rebuilt != 0 || rebuilt.Rebuilt != 3 {
		t.Errorf("models built again: %d by default, %d with RetainBytes 1; want 0 and 3", kept.Rebuilt, rebuilt.Rebuilt)
	}
	// Under a soft memory limit the live heap is already over (the
	// fallback), no model is kept either.
	old := debug.SetMemoryLimit(1)
	limited := scanPaths(t, dir, Options{}, ".")
	debug.SetMemoryLimit(old)
	if limited.Rebuilt != 3 || len(limited.Findings) != len(kept.Findings) {
		t.Errorf("under a soft memory limit of 1 byte: %d models built again (want 3), %d findings (want %d)", limited.Rebuilt, len(limited.Findings), len(kept.Findings))
	}
}

// A helper in one file queues a non-blocking write of what it is handed;
// a caller in another file lets the host memory die before anything
// waits. The helper's summary carries the queued work across files.
func TestQueuedWorkCrossFiles(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "src/upload.cc", []byte(`#include <CL/cl.h>
void write_async(cl_command_queue q, cl_mem dst, const float* src, int n) {
  clEnqueueWriteBuffer(q, dst, CL_FALSE, 0, n * sizeof(float), src, 0, nullptr, nullptr);
}
void write_sync(cl_command_queue q, cl_mem dst, const float* src, int n) {
  clEnqueueWriteBuffer(q, dst, CL_FALSE, 0, n * sizeof(float), src, 0, nullptr, nullptr);
  clFinish(q);
}
`))
	write(t, dir, "src/model.cc", []byte(`#include <vector>
void write_async(cl_command_queue q, cl_mem dst, const float* src, int n);
void write_sync(cl_command_queue q, cl_mem dst, const float* src, int n);
std::vector<float> weights(int n);
void load(cl_command_queue q, cl_mem buf, int n) {
  std::vector<float> host = weights(n);
  write_async(q, buf, host.data(), n);
}
void load_sync(cl_command_queue q, cl_mem buf, int n) {
  std::vector<float> host = weights(n);
  write_sync(q, buf, host.data(), n);
}
`))
	res := scanPaths(t, dir, Options{}, ".")
	if got := ruleLines(res, "src/model.cc", "HF-A005"); len(got) != 1 || got[0] != 7 {
		t.Errorf("HF-A005 in src/model.cc at lines %v, want [7]", got)
	}
}

// A class defined in a header; its method, in a source file, takes a
// reference into a member deque and pops it. The header's member types,
// from the tree, make the member a container in the method.
func TestMemberTypesFromTheTree(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "src/channel.h", []byte(`#include <deque>
struct Send { int seq; };
class Channel {
 public:
  int Pop();
  int PopCopy();
 private:
  std::deque<Send> pending_;
};
`))
	write(t, dir, "src/channel.cc", []byte(`#include "channel.h"
int Channel::Pop() {
  Send& op = pending_.front();
  pending_.pop_front();
  return op.seq;
}
int Channel::PopCopy() {
  int seq = pending_.front().seq;
  pending_.pop_front();
  return seq;
}
`))
	res := scanPaths(t, dir, Options{}, ".")
	if got := ruleLines(res, "src/channel.cc", "HF-B004"); len(got) != 1 || got[0] != 5 {
		t.Errorf("HF-B004 in src/channel.cc at lines %v, want [5]", got)
	}
}

// A repository's own API, given as device entries in its configuration,
// is executed like the built-in packs.
func TestConfigDeviceEntries(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "src/up.cc", []byte(`#include <vector>
std::vector<float> rows(int n);
void load(Queue* q, Buffer* dst, int n) {
  std::vector<float> host = rows(n);
  StagedUpload(q, dst, host.data(), n);
}
void load_drained(Queue* q, Buffer* dst, int n) {
  std::vector<float> host = rows(n);
  StagedUpload(q, dst, host.data(), n);
  DrainQueue(q);
}
`))
	q, reads := 0, []int{2}
	cfg := &config.Config{API: &apimodel.Pack{Name: "config", Device: map[string]apimodel.DeviceOp{
		"StagedUpload": {Queue: &q, Reads: reads, Host: "all", Doc: "the runtime's header"},
		"DrainQueue":   {Queue: &q, Waits: "queue", Doc: "the runtime's header"},
	}}}
	res := scanPaths(t, dir, Options{Config: cfg}, ".")
	if got := ruleLines(res, "src/up.cc", "HF-A005"); len(got) != 1 || got[0] != 5 {
		t.Errorf("HF-A005 in src/up.cc at lines %v, want [5]", got)
	}
	if got := ruleLines(scanPaths(t, dir, Options{}, "."), "src/up.cc", "HF-A005"); len(got) != 0 {
		t.Errorf("without the entries: HF-A005 at lines %v, want none", got)
	}
}

// A file name quoted inside a message is escaped there, so that no
// format turns a line break in a name into a line break of its own (a
// GitHub annotation splits its message at line breaks).
func TestNamesInMessagesAreEscaped(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "src/po\nol.cc", []byte(poolSrc))
	write(t, dir, "src/user.cc", []byte(userSrc))
	res := scanPaths(t, dir, Options{}, ".")
	var seen bool
	for _, f := range res.Findings {
		for _, st := range f.Witness {
			if strings.Contains(st.Message, "po") {
				seen = true
				if strings.ContainsAny(st.Message, "\r\n") {
					t.Errorf("raw line break in a message: %q", st.Message)
				}
			}
		}
		if strings.ContainsAny(f.Message, "\r\n") {
			t.Errorf("raw line break in a message: %q", f.Message)
		}
	}
	if !seen {
		t.Fatalf("no finding quotes the helper's file: %+v", res.Findings)
	}
}

// A cached entry speaks only for the functions defined in the file it is
// filed under: an entry planted for one file that claims another file's
// function keeps its argument does not cancel that function's real free;
// and a full scan takes none for a file whose status on disk is not the
// entry's.
func TestPlantedCacheEntries(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "src/pool.cc", []byte(poolSrc))
	write(t, dir, "src/user.cc", []byte(userSrc))
	write(t, dir, "src/other.cc", []byte("int other() { return 0; }\n"))
	cacheDir := t.TempDir()
	opt := Options{Cache: summary.Open(cacheDir), CacheKey: "test build"}
	scanPaths(t, dir, opt, ".")

	m, err := apimodel.Load()
	if err != nil {
		t.Fatal(err)
	}
	info, err := os.Lstat(filepath.Join(dir, "src", "other.cc"))
	if err != nil {
		t.Fatal(err)
	}
	st, ok := summary.StampOf(info)
	if !ok {
		t.Skip("no file stamps on this system")
	}
	planted := &summary.File{Funcs: []summary.Func{{Name: "release_block", File: "src/pool.cc", Arity: 1, Keeps: []int{0}}}}
	root, err := filepath.Abs(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := summary.Open(cacheDir).Update(root, cacheKey(opt.CacheKey, m, false), map[string]*summary.Entry{"src/other.cc": {Stamp: st, Summary: planted}}, nil); err != nil {
		t.Fatal(err)
	}
	if got := ruleLines(scanPaths(t, dir, opt, "src/user.cc"), "src/user.cc", "HF-B002"); len(got) != 1 {
		t.Errorf("a partial scan: HF-B002 at lines %v, want the use after release_block; the planted entry for src/other.cc must not speak for src/pool.cc", got)
	}

	// The same plant, now filed under the file that defines the function
	// with a status the file does not have (as after an edit): a full
	// scan reads that file itself.
	info, err = os.Lstat(filepath.Join(dir, "src", "pool.cc"))
	if err != nil {
		t.Fatal(err)
	}
	st, _ = summary.StampOf(info)
	st.ModTime++
	if err := summary.Open(cacheDir).Update(root, cacheKey(opt.CacheKey, m, false), map[string]*summary.Entry{"src/pool.cc": {Stamp: st, Summary: planted}}, nil); err != nil {
		t.Fatal(err)
	}
	if got := ruleLines(scanPaths(t, dir, opt, "."), "src/user.cc", "HF-B002"); len(got) != 1 {
		t.Errorf("a full scan: HF-B002 at lines %v, want the use after release_block: the planted entry is not fresh", got)
	}
}

// TestChainsOfWrappersCrossFiles: a free reached through a chain of
// wrappers, each in a file of its own, is found whatever order the files
// come in (the tree's summaries compose to a fixpoint, not for a fixed
// number of rounds), and a partial scan of the caller, the chain read from
// the cache, finds it too.
func TestChainsOfWrappersCrossFiles(t *testing.T) {
	const links = 6
	for _, order := range []string{"callees first", "callers first"} {
		dir := t.TempDir()
		name := func(i int) string {
			if order == "callers first" {
				return fmt.Sprintf("src/f%d.cc", links-i)
			}
			return fmt.Sprintf("src/f%d.cc", i)
		}
		write(t, dir, name(0), []byte("struct Block { int size; };\nvoid release0(Block* b) {\n  delete b;\n}\n"))
		for i := 1; i < links; i++ {
			write(t, dir, name(i), fmt.Appendf(nil, "struct Block { int size; };\nvoid release%d(Block* b);\nvoid release%d(Block* b) {\n  release%d(b);\n}\n", i-1, i, i-1))
		}
		user := fmt.Sprintf("struct Block { int size; };\nvoid release%d(Block* b);\nint drop(Block* b) {\n  release%d(b);\n  return b->size;\n}\n", links-1, links-1)
		write(t, dir, "src/user.cc", []byte(user))
		cache := summary.Open(t.TempDir())
		res := scanPaths(t, dir, Options{Cache: cache, CacheKey: "k"}, ".")
		if got := ruleLines(res, "src/user.cc", "HF-B002"); len(got) != 1 || got[0] != 5 {
			t.Errorf("%s: HF-B002 in src/user.cc at lines %v, want [5]", order, got)
		}
		res = scanPaths(t, dir, Options{Cache: cache, CacheKey: "k"}, "src/user.cc")
		if got := ruleLines(res, "src/user.cc", "HF-B002"); len(got) != 1 || got[0] != 5 {
			t.Errorf("%s, partial scan: HF-B002 in src/user.cc at lines %v, want [5]", order, got)
		}
	}
}

// TestFileChangedWhileReadIsNotCached: a file saved while the scan reads
// it (a checkout, an editor) is analysed as read, but its summary is not
// cached under the status of the new content, where it would be taken
// for the new content's summary for good.
func TestFileChangedWhileReadIsNotCached(t *testing.T) {
	for _, change := range []bool{false, true} {
		dir := t.TempDir()
		write(t, dir, "src/pool.cc", []byte(poolSrc))
		write(t, dir, "src/user.cc", []byte(userSrc))
		cache := summary.Open(t.TempDir())
		opt := Options{Cache: cache, CacheKey: "k"}
		if change {
			opt.afterRead = func(path string) {
				if filepath.Base(path) == "pool.cc" {
					write(t, dir, "src/pool.cc", []byte(strings.ReplaceAll(poolSrc, "free(b);", "keep(b);")))
				}
			}
		}
		scanPaths(t, dir, opt, ".")
		m, err := apimodel.Load()
		if err != nil {
			t.Fatal(err)
		}
		tree, err := cache.Load(dir, cacheKey("k", m, false))
		if err != nil {
			t.Fatal(err)
		}
		info, err := os.Lstat(filepath.Join(dir, "src", "pool.cc"))
		if err != nil {
			t.Fatal(err)
		}
		if fresh := tree.Fresh("src/pool.cc", info) != nil; fresh == change {
			t.Errorf("changed while read %v: the cached summary is fresh for the file on disk: %v", change, fresh)
		}
	}
}

// TestCacheOfAnotherBuildIsNamed: two builds (a hook's and the one on
// PATH) keep caches of one tree apart instead of undoing each other, and
// a partial scan that finds only the other build's says so.
func TestCacheOfAnotherBuildIsNamed(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "src/pool.cc", []byte(poolSrc))
	write(t, dir, "src/user.cc", []byte(userSrc))
	cache := summary.Open(t.TempDir())
	const note = "summary cache written by another build or api: configuration, not used"
	scanPaths(t, dir, Options{Cache: cache, CacheKey: "build one"}, ".")
	if res := scanPaths(t, dir, Options{Cache: cache, CacheKey: "build one"}, "src/user.cc"); noticeFor(res, cache.Dir(), note) || len(ruleLines(res, "src/user.cc", "HF-B002")) != 1 {
		t.Errorf("the same build: notices %+v, HF-B002 at %v", res.Notices, ruleLines(res, "src/user.cc", "HF-B002"))
	}
	res := scanPaths(t, dir, Options{Cache: cache, CacheKey: "build two"}, "src/user.cc")
	if !noticeFor(res, cache.Dir(), note) {
		t.Errorf("another build's cache alone: no note; notices %+v", res.Notices)
	}
	scanPaths(t, dir, Options{Cache: cache, CacheKey: "build two"}, ".")
	for _, key := range []string{"build one", "build two"} {
		if res := scanPaths(t, dir, Options{Cache: cache, CacheKey: key}, "src/user.cc"); noticeFor(res, cache.Dir(), note) || len(ruleLines(res, "src/user.cc", "HF-B002")) != 1 {
			t.Errorf("%s after both wrote: notices %+v, HF-B002 at %v", key, res.Notices, ruleLines(res, "src/user.cc", "HF-B002"))
		}
	}
}

// An operator declared in one header (a friend defined in its class)
// that returns a reference makes no temporary in another file's
// this + offset; one that returns a value does.
func TestOperatorResultsCrossFiles(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "src/offset.h", []byte(`#pragma once
template <typename T>
struct OffsetTo {
  unsigned off;
  template <typename Base>
  friend const T& operator+(const Base& base, const OffsetTo& o) {
    return *reinterpret_cast<const T*>(reinterpret_cast<const char*>(&base) + o.off);
  }
};
struct Money {
  long cents;
};
Money operator-(const Money& a, const Money& b);
`))
	write(t, dir, "src/table.h", []byte(`#pragma once
#include "offset.h"
struct Sub { int n; };
struct Table {
  OffsetTo<Sub> sub;
  Money a, b;
  const Sub& get_sub() const { return this + sub; }
  const Money& diff() const { return a - b; }
};
`))
	res := scanPaths(t, dir, Options{}, ".")
	if got := ruleLines(res, "src/table.h", "HF-B001"); len(got) != 1 || got[0] != 8 {
		t.Errorf("HF-B001 in src/table.h at lines %v, want [8]", got)
	}
}

// An operator called by name is any class's overload of it: another
// file's by-value operator() of one argument says nothing of a class's
// own operator() over a parameter pack, which returns a reference.
func TestOperatorCalledByNameCrossFiles(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "src/counter.h", []byte(`#pragma once
struct Counter {
  int operator()(int k) const;
};
`))
	write(t, dir, "src/cells.h", []byte(`#pragma once
template <typename T>
struct Cells {
  T* data;
  template <typename... Ix>
  const T& operator()(Ix... index) const { return data[0]; }
  const T& operator[](long i) const { return operator()(i); }
};
`))
	res := scanPaths(t, dir, Options{}, ".")
	if got := ruleLines(res, "src/cells.h", "HF-B001"); len(got) != 0 {
		t.Errorf("HF-B001 in src/cells.h at lines %v, want none", got)
	}
}

// A storage macro defined in another header (#define TLS static
// thread_local) makes the declaration it begins a static: its address
// outlives the call. A local declared without it does not.
func TestStorageMacroCrossFiles(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "src/tls.h", []byte(`#pragma once
#if defined(OLD_COMPILER)
#define POOL_THREAD_LOCAL static __thread
#else
#define POOL_THREAD_LOCAL static thread_local
#endif
`))
	write(t, dir, "src/pool.h", []byte(`#pragma once
#include "tls.h"
struct PerThread { int id; };
struct Pool {
  PerThread* mine() const {
    POOL_THREAD_LOCAL PerThread per_thread;
    return &per_thread;
  }
  PerThread* fresh() const {
    PerThread per_call;
    return &per_call;
  }
};
`))
	res := scanPaths(t, dir, Options{}, ".")
	if got := ruleLines(res, "src/pool.h", "HF-B001"); len(got) != 1 || got[0] != 11 {
		t.Errorf("HF-B001 in src/pool.h at lines %v, want [11]", got)
	}
}

// What a function of another file reads of the object it is handed
// travels with the tree's summaries: only the fields it reads are used.
func TestFieldReadsCrossFiles(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "src/context.h", []byte(`#pragma once
struct Options {
  int level;
};
struct Context {
  Context(const Options& o) : options(o), level(o.level) {}
  const Options& options;
  int level;
};
int send(Context& ctx);
int send_options(Context& ctx);
`))
	write(t, dir, "src/send.cc", []byte(`#include "context.h"
int send(Context& ctx) { return ctx.level; }
int send_options(Context& ctx) { return ctx.options.level; }
`))
	write(t, dir, "src/main.cc", []byte(`#include "context.h"
int levels() {
  Context ctx(Options{});
  return send(ctx);
}
int options() {
  Context ctx(Options{});
  return send_options(ctx);
}
`))
	res := scanPaths(t, dir, Options{}, ".")
	if got := ruleLines(res, "src/main.cc", "HF-B003"); len(got) != 1 || got[0] != 8 {
		t.Errorf("HF-B003 in src/main.cc at lines %v, want [8]", got)
	}
}

// A macro of another header that forwards to one that returns returns
// too (#define RETURN_ERROR(c, m) ERROR_RESULT_INTERNAL(c, m, 0)): the
// path that uses it ends there.
func TestForwardingMacroReturnsCrossFiles(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "src/result.h", []byte(`#pragma once
struct Res { Res(int c, const char* m); };
#define ERROR_RESULT_INTERNAL(code, msg, ...) \
  do                                          \
  {                                           \
    return Res(code, msg);                    \
  } while(0)
#define RETURN_ERROR(code, msg) ERROR_RESULT_INTERNAL(code, msg, 0)
#define WARN(code, msg) note(code, msg)
void note(int, const char*);
`))
	write(t, dir, "src/driver.cc", []byte(`#include "result.h"
struct Driver { void init(); };
bool ok();
Res make(Driver** out) {
  Driver* d = new Driver;
  if (!ok()) {
    delete d;
    RETURN_ERROR(3, "failed");
  }
  d->init();
  *out = d;
  return Res(0, "");
}
Res make_warned(Driver** out) {
  Driver* d = new Driver;
  if (!ok()) {
    delete d;
    WARN(3, "failed");
  }
  d->init();
  *out = d;
  return Res(0, "");
}
`))
	res := scanPaths(t, dir, Options{}, ".")
	if got := ruleLines(res, "src/driver.cc", "HF-N001"); len(got) != 1 || got[0] != 20 {
		t.Errorf("HF-N001 in src/driver.cc at lines %v, want [20]", got)
	}
}

// A macro of another header that runs its cleanup argument only where
// it returns: the path past it did not run the cleanup.
func TestCleanupOnReturnMacroCrossFiles(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "src/plugin.h", []byte(`#pragma once
void note(int err);
#define WARN_OR_FAIL(strict, cmd, cleanup) \
  {                                        \
    int err = cmd;                         \
    if (err) {                             \
      if (strict) {                        \
        cleanup;                           \
        return err;                        \
      }                                    \
      note(err);                           \
    }                                      \
  }
#define WARN_THEN(cmd, cleanup) \
  {                             \
    int err = cmd;              \
    if (err) {                  \
      cleanup;                  \
      note(err);                \
    }                           \
  }
`))
	write(t, dir, "src/image.cc", []byte(`void release(int* p) { delete p; }
`))
	write(t, dir, "src/decode.cc", []byte(`#include "plugin.h"
void release(int* p);
int check(int* p);
int decode(int strict) {
  int* p = new int(1);
  WARN_OR_FAIL(strict, check(p), release(p));
  int v = *p;
  delete p;
  return v;
}
int decode_warned() {
  int* p = new int(1);
  WARN_THEN(check(p), release(p));
  int v = *p;
  delete p;
  return v;
}
`))
	res := scanPaths(t, dir, Options{}, ".")
	var lines []int
	for _, f := range res.Findings {
		if f.At.Start.File == "src/decode.cc" {
			lines = append(lines, f.At.Start.Line)
		}
	}
	if len(lines) == 0 || slices.ContainsFunc(lines, func(l int) bool { return l < 11 }) {
		t.Errorf("findings in src/decode.cc at lines %v, want some after line 11 and none before", lines)
	}
}

// An unqualified call in a method of a class whose base declares a
// method of that name calls the base's method ([basic.lookup.unqual]:
// class scope, bases included, before the namespace): a function of that
// name elsewhere in the tree, returning by value, is not the one called.
func TestInheritedMethodCrossFiles(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "core/record.h", []byte(`#pragma once
#include <map>
#include <string>
inline const std::string NONE;
class Record {
 public:
  const std::string& field(const std::string& key) const {
    auto it = fields_.find(key);
    return it != fields_.end() ? it->second : NONE;
  }
 protected:
  std::map<std::string, std::string> fields_;
};
`))
	write(t, dir, "core/part.h", []byte(`#pragma once
#include "record.h"
class Part : public Record {
 public:
  const std::string& title() const { return field("title"); }
};
class Loose {
 public:
  const std::string& title() const { return field("title"); }
};
`))
	write(t, dir, "gen/score.cc", []byte(`#include <string>
int field(const std::string& key) { return key.empty() ? 0 : 1; }
`))
	res := scanPaths(t, dir, Options{}, ".")
	if got := ruleLines(res, "core/part.h", "HF-B001"); len(got) != 1 || got[0] != 9 {
		t.Errorf("HF-B001 in core/part.h at lines %v, want [9]", got)
	}
}

// A function-like macro of another header is its expansion, not a
// class of the same name: Null(T) expanding to a call that returns a
// reference to a static object is no temporary, while a real
// temporary returned by reference still is.
func TestFunctionMacroCrossFiles(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "src/null.h", []byte(`#pragma once
extern const unsigned long long null_pool[8];
template <typename T>
struct Null {
  static const T& get() { return *reinterpret_cast<const T*>(null_pool); }
};
#define Null(T) Null<T>::get()
`))
	write(t, dir, "src/table.h", []byte(`#pragma once
#include "null.h"
struct Entry { int v; };
struct Table {
  int len;
  const Entry* items;
  const Entry& at(int i) const {
    if (i >= len) return Null(Entry);
    return items[i];
  }
  const Entry& made(int i) const {
    if (i >= len) return Entry{0};
    return items[i];
  }
};
`))
	res := scanPaths(t, dir, Options{}, ".")
	if got := ruleLines(res, "src/table.h", "HF-B001"); len(got) != 1 || got[0] != 12 {
		t.Errorf("HF-B001 in src/table.h at lines %v, want [12]", got)
	}
}

// The calls a destructor defined in a source file makes on the members
// of a class its header defines run before the members end: a member
// told to let go of a pointer to a later member no longer reads it.
func TestDestructorDetachesCrossFiles(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "src/player.h", []byte(`#pragma once
struct Source { virtual void release(); };
class Player {
 public:
  ~Player();
  void setSource(Source* s);
 private:
  Source* source = nullptr;
};
`))
	write(t, dir, "src/player.cc", []byte(`#include "player.h"
Player::~Player() { setSource(nullptr); }
void Player::setSource(Source* s) {
  if (source != s) {
    Source* old = source;
    source = s;
    if (old != nullptr) old->release();
  }
}
`))
	write(t, dir, "src/sound.h", []byte(`#pragma once
#include "player.h"
struct Mixer : Source { void release() override; };
class Detached {
 public:
  Detached();
  ~Detached();
 private:
  Player player;
  Mixer mixer;
};
class Attached {
 public:
  Attached();
 private:
  Player player;
  Mixer mixer;
};
`))
	write(t, dir, "src/sound.cc", []byte(`#include "sound.h"
Detached::Detached() { player.setSource(&mixer); }
Detached::~Detached() { player.setSource(nullptr); }
Attached::Attached() { player.setSource(&mixer); }
`))
	res := scanPaths(t, dir, Options{}, ".")
	if got := ruleLines(res, "src/sound.cc", "HF-B001"); len(got) != 1 || got[0] != 4 {
		t.Errorf("HF-B001 in src/sound.cc at lines %v, want [4]", got)
	}
}

// Two classes of one name in different namespaces are different classes:
// a function of namespace a finds a::Impl, whose constructor keeps a
// reference to its argument, and not b::Impl, which copies it.
func TestSameNamedClassesInNamespacesCrossFiles(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "src/lib.h", []byte(`#pragma once
struct Lib { int v; };
Lib load();
`))
	write(t, dir, "src/a/impl.h", []byte(`#pragma once
#include "../lib.h"
namespace top { namespace a {
class Impl {
 public:
  explicit Impl(const Lib& lib);
 private:
  const Lib& lib_;
};
} }
`))
	write(t, dir, "src/b/impl.h", []byte(`#pragma once
#include "../lib.h"
namespace top { namespace b {
class Impl {
 public:
  explicit Impl(const Lib& lib);
 private:
  Lib lib_;
  int uses_ = 0;
};
} }
`))
	write(t, dir, "src/a/impl.cc", []byte(`#include <memory>
#include "impl.h"
namespace top { namespace a {
Impl::Impl(const Lib& lib) : lib_(lib) {}
std::unique_ptr<Impl> make() {
  Lib lib = load();
  return std::make_unique<Impl>(lib);
}
} }
`))
	write(t, dir, "src/b/impl.cc", []byte(`#include <memory>
#include "impl.h"
namespace top { namespace b {
Impl::Impl(const Lib& lib) : lib_(lib) {}
std::unique_ptr<Impl> make() {
  Lib lib = load();
  return std::make_unique<Impl>(lib);
}
} }
`))
	res := scanPaths(t, dir, Options{}, ".")
	if got := ruleLines(res, "src/a/impl.cc", "HF-B001"); len(got) != 1 || got[0] != 7 {
		t.Errorf("HF-B001 in src/a/impl.cc at lines %v, want [7]", got)
	}
	if got := ruleLines(res, "src/b/impl.cc", "HF-B001"); len(got) != 0 {
		t.Errorf("HF-B001 in src/b/impl.cc at lines %v, want none", got)
	}
}

// TestMemberDeclarationsOutsideAClassCrossFiles: a declaration with a
// const qualifier or a virt-specifier outside any class body is a method
// whose class the parse lost, not a namespace function an unqualified
// call may run ([dcl.fct]); a plain one is.
func TestMemberDeclarationsOutsideAClassCrossFiles(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "lib/palette.h", []byte(`#pragma once
struct Palette { int c; };
// Methods of a class whose head the parse lost, read at file scope.
Palette palette() const;
Palette style() override;
Palette current();
`))
	write(t, dir, "src/view.cc", []byte(`#include "../lib/palette.h"
class Model {
 public:
  explicit Model(const Palette& p) : p_(p) {}
  const Palette& p_;
};
void show(Model* m);
class View : public Widget {
 public:
  void build();
};
void View::build() {
  Model* m1 = new Model(palette());
  show(m1);
  Model* m2 = new Model(style());
  show(m2);
  Model* m3 = new Model(current());
  show(m3);
}
`))
	res := scanPaths(t, dir, Options{}, ".")
	if got := ruleLines(res, "src/view.cc", "HF-B003"); !slices.Equal(got, []int{18}) {
		t.Errorf("HF-B003 in src/view.cc at lines %v, want [18]", got)
	}
}

// A factory defined in another file returns an object that holds what
// its argument refers to (core.Call.Holds): the caller's object points
// at the argument, so it dangles once the argument's block ends, and is
// fine while it lives. The summary reads the classes of the factory's
// own file (an inline factory in the class's header).
func TestFactoryHoldsArgumentCrossFiles(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "lib/ref.h", []byte(`#pragma once
struct Blob { explicit Blob(int n); int* data; };
struct Ref {
  const Blob* blob;
  int tag;
  static Ref refer(const Blob& b) { return Ref{&b, 1}; }
  static Ref copied(const Blob& b) { Ref r{nullptr, *b.data}; return r; }
};
`))
	write(t, dir, "src/use.cc", []byte(`#include "../lib/ref.h"
void submit(const Ref& r);
void dangles() {
  Ref r{nullptr, 0};
  {
    Blob b(0);
    r = Ref::refer(b);
  }
  submit(r);
}
void lives() {
  Blob b(0);
  Ref r = Ref::refer(b);
  submit(r);
}
void holds_nothing() {
  Ref r{nullptr, 0};
  {
    Blob b(0);
    r = Ref::copied(b);
  }
  submit(r);
}
`))
	res := scanPaths(t, dir, Options{}, ".")
	if got := ruleLines(res, "src/use.cc", "HF-B001"); !slices.Equal(got, []int{9}) {
		t.Errorf("HF-B001 in src/use.cc at lines %v, want [9]", got)
	}
}
