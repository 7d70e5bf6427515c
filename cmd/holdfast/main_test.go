package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"
	"time"

	"github.com/holdfast-dev/holdfast/diag"
)

// buggy is examples/backend/p2p_send.cc: one HF-B001 finding (line 18, in
// ProcessGroup::SendTensors) and a correct twin.
func buggy(t *testing.T) string {
	t.Helper()
	dir := filepath.Join("..", "..", "examples", "backend")
	b, err := os.ReadFile(filepath.Join(dir, "p2p_send.cc"))
	if err != nil {
		t.Fatal(err)
	}
	h, err := os.ReadFile(filepath.Join(dir, "device_buffer.h"))
	if err != nil {
		t.Fatal(err)
	}
	// The handle's header inlined where it is included, as the
	// preprocessor would: one file that shows what the handle owns.
	return strings.Replace(string(b), "#include \"backend/device_buffer.h\"\n", string(h), 1)
}

const clean = `void Ok(const std::vector<Tensor>& ts) {
  std::vector<DeviceBufferRef> owners;
  for (const Tensor& t : ts) owners.push_back(Materialize(t));
  Send(std::move(owners));
}
`

// tree writes files into a new directory and makes it the working
// directory for the rest of the test.
func tree(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, text := range files {
		writeFile(t, filepath.Join(dir, name), text)
	}
	t.Chdir(dir)
	return dir
}

func writeFile(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// holdfast runs the command line and returns its exit status and outputs.
func holdfast(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(args, &out, &errb)
	return code, out.String(), errb.String()
}

func expect(t *testing.T, wantCode int, args ...string) (string, string) {
	t.Helper()
	code, out, errs := holdfast(t, args...)
	if code != wantCode {
		t.Fatalf("holdfast %s: exit %d, want %d\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), code, wantCode, out, errs)
	}
	return out, errs
}

func TestScanExitStatus(t *testing.T) {
	bug := buggy(t)
	tree(t, map[string]string{"src/send.cc": bug, "src/ok.cc": clean})
	out, _ := expect(t, 1, "scan")
	if !strings.Contains(out, "src/send.cc:50:24: error:") || !strings.Contains(out, "HF-B001") {
		t.Errorf("finding not shown:\n%s", out)
	}
	expect(t, 0, "scan", "src/ok.cc")
	expect(t, 0, "scan", "--fail-on", "never")
	if _, errs := expect(t, 2, "scan", "--format", "xml"); !strings.Contains(errs, "--format") {
		t.Errorf("bad format: %s", errs)
	}
	expect(t, 2, "scan", "--fail-on", "sometimes")
	out, _ = expect(t, 1, "scan", "--format", "sarif")
	if !strings.Contains(out, `"id": "holdfast/"`) {
		t.Errorf("default SARIF category missing")
	}
	out, _ = expect(t, 0, "scan", "--format", "sarif", "--sarif-category", "backend", "--fail-on", "never")
	if !strings.Contains(out, `"id": "backend/"`) {
		t.Errorf("--sarif-category not used")
	}
}

func TestSuppressions(t *testing.T) {
	bug := buggy(t)
	line := "  return CrossHostSend(pjrt_buffers, descriptors);\n"
	if !strings.Contains(bug, line) {
		t.Fatal("the example changed; update this test")
	}
	above := strings.Replace(bug, line, "    // holdfast:ignore HF-B001 the transport pins every buffer until the send completes\n"+line, 1)
	trailing := strings.Replace(bug, line, strings.TrimSuffix(line, "\n")+"  // holdfast:ignore raw-pointer-escapes-owner pinned by the transport\n", 1)
	reasonless := strings.Replace(bug, line, "    // holdfast:ignore HF-B001\n"+line, 1)
	wholeFile := "// holdfast:ignore-file HF-B001 legacy transport, tracked in #12\n" + bug
	stale := clean + "// holdfast:ignore HF-C001 nothing here\n"
	tree(t, map[string]string{"above.cc": above, "trailing.mm": trailing, "reasonless.cu": reasonless, "whole.h": wholeFile, "stale.cc": stale})

	for _, f := range []string{"above.cc", "trailing.mm", "whole.h"} {
		out, errs := expect(t, 0, "scan", f)
		if out != "" || errs != "holdfast: 0 findings in 1 file; 1 suppressed not shown (--all shows them)\n" {
			t.Errorf("%s: stdout %q, stderr (the summary) %q", f, out, errs)
		}
		out, _ = expect(t, 0, "scan", "--all", f)
		if !strings.Contains(out, "note:") || !strings.Contains(out, "HF-B001") {
			t.Errorf("%s --all: suppressed finding not shown as a note:\n%s", f, out)
		}
	}
	out, _ := expect(t, 1, "scan", "reasonless.cu")
	if !strings.Contains(out, "reasonless.cu:50: warning: holdfast:ignore HF-B001 has no reason") || !strings.Contains(out, "error:") {
		t.Errorf("a directive without a reason must suppress nothing and be reported:\n%s", out)
	}
	out, _ = expect(t, 0, "scan", "stale.cc")
	if !strings.Contains(out, "stale.cc:6: warning: holdfast:ignore for HF-C001 matches no finding") {
		t.Errorf("stale directive not reported:\n%s", out)
	}

	// JSON and SARIF keep the suppressed finding and say why.
	out, _ = expect(t, 0, "scan", "--format", "json", "above.cc")
	var js struct {
		Findings []struct {
			Suppressed string `json:"suppressed"`
		} `json:"findings"`
	}
	if err := json.Unmarshal([]byte(out), &js); err != nil || len(js.Findings) != 1 || js.Findings[0].Suppressed != "the transport pins every buffer until the send completes" {
		t.Errorf("json: %v %+v", err, js)
	}
	out, _ = expect(t, 0, "scan", "--format", "sarif", "above.cc")
	if !strings.Contains(out, `"kind": "inSource"`) {
		t.Errorf("sarif has no inSource suppression:\n%s", out)
	}
}

func TestBaseline(t *testing.T) {
	bug := buggy(t)
	dir := tree(t, map[string]string{"src/send.cc": bug, "src/ok.cc": clean})
	expect(t, 2, "baseline") // -o is required
	_, errs := expect(t, 0, "baseline", "-o", "base.json")
	if !strings.Contains(errs, "recorded 1 finding in base.json") {
		t.Errorf("stderr: %s", errs)
	}
	data, err := os.ReadFile("base.json")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"version": 1`, `"fingerprint": "`, `"rule": "HF-B001"`, `"file": "src/send.cc"`, `"line": 50`, `"function": "ProcessGroup::SendTensors"`} {
		if !bytes.Contains(data, []byte(want)) {
			t.Errorf("baseline lacks %s:\n%s", want, data)
		}
	}
	if out, errs := expect(t, 0, "scan", "--baseline", "base.json"); out != "" || errs != "holdfast: 0 findings in 2 files; 1 hidden by the baseline\n" {
		t.Errorf("a fully baselined run: stdout %q, stderr (the summary) %q", out, errs)
	}

	// Edits elsewhere in the file move the finding's lines and change its
	// message (which quotes line numbers): it stays known.
	moved := "// Copyright line.\n// Another.\n#include <map>\n\n" +
		strings.Replace(bug, "    keys.push_back(TransferKey(peer, i));\n", "    // a comment inside the loop\n    keys.push_back(TransferKey(peer, i));\n", 1)
	writeFile(t, filepath.Join(dir, "src/send.cc"), moved)
	out, _ := expect(t, 1, "scan")
	if !strings.Contains(out, "src/send.cc:55:") {
		t.Fatalf("the finding did not move to line 55:\n%s", out)
	}
	out, _ = expect(t, 0, "scan", "--baseline", "base.json")
	if out != "" {
		t.Errorf("old finding resurrected:\n%s", out)
	}

	// A new finding in another function is reported, alone.
	twin := strings.Replace(bug[strings.Index(bug, "absl::StatusOr<xla::Future<>> ProcessGroup::SendTensors("):strings.Index(bug, "// The same loop done right")],
		"ProcessGroup::SendTensors(", "ProcessGroup::SendMore(", 1)
	writeFile(t, filepath.Join(dir, "src/send.cc"), moved+"\nnamespace backend {\n"+twin+"}\n")
	out, errs = expect(t, 1, "scan", "--baseline", "base.json")
	if strings.Count(out, "error:") != 1 || !strings.Contains(errs, "holdfast: 1 finding (1 error) in 2 files, 1 confirmed; 1 hidden by the baseline\n") {
		t.Errorf("want exactly the new finding:\n%s\n%s", out, errs)
	}

	// When the recorded finding is fixed, its entry no longer matches; an
	// entry for a file this run did not scan is not counted.
	writeFile(t, filepath.Join(dir, "src/send.cc"), clean)
	if _, errs := expect(t, 0, "scan", "--baseline", "base.json"); errs != "holdfast: 0 findings in 2 files; 1 baseline entry no longer matches\n" {
		t.Errorf("stale baseline: stderr %q", errs)
	}
	if _, errs := expect(t, 0, "scan", "--baseline", "base.json", "src/ok.cc"); errs != "holdfast: 0 findings in 1 file\n" {
		t.Errorf("baseline entry of an unscanned file: stderr %q", errs)
	}

	if _, errs := expect(t, 2, "scan", "--baseline", "missing.json"); !strings.Contains(errs, "--baseline") {
		t.Errorf("missing baseline: %s", errs)
	}
	writeFile(t, filepath.Join(dir, "bad.json"), `{"version": 7, "tool": "holdfast", "findings": []}`)
	if _, errs := expect(t, 2, "scan", "--baseline", "bad.json"); !strings.Contains(errs, "version 7") {
		t.Errorf("bad baseline: %s", errs)
	}
	out, _ = expect(t, 0, "baseline", "-o", "-", "src/ok.cc")
	if !strings.Contains(out, `"findings": []`) {
		t.Errorf("empty baseline on stdout:\n%s", out)
	}
}

func git(t *testing.T, args ...string) {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "commit.gpgsign=false"}, args...)...)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

func TestNewFromRev(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	bug := buggy(t)
	dir := tree(t, map[string]string{"src/send.cc": "// empty for now\n", "src/old.cc": bug})
	t.Setenv("GIT_CEILING_DIRECTORIES", filepath.Dir(dir))
	git(t, "init", "-q")
	git(t, "add", ".")
	git(t, "commit", "-q", "-m", "base")

	// The old finding is not on a changed line; a new one is.
	writeFile(t, filepath.Join(dir, "src/send.cc"), bug)
	// A binary file: its notice is never hidden.
	writeFile(t, filepath.Join(dir, "src/blob.cc"), "\x00\x01")
	out, _ := expect(t, 1, "scan", "--new-from-rev", "HEAD")
	if !strings.Contains(out, "src/send.cc:50:24: error:") || strings.Contains(out, "src/old.cc:50") {
		t.Errorf("want only the new file's finding:\n%s", out)
	}
	if !strings.Contains(out, "src/blob.cc: warning: looks binary") {
		t.Errorf("notice hidden by --new-from-rev:\n%s", out)
	}
	git(t, "add", "src/send.cc")
	git(t, "commit", "-q", "-m", "send")
	if err := os.Remove(filepath.Join(dir, "src/blob.cc")); err != nil {
		t.Fatal(err)
	}
	expect(t, 0, "scan", "--new-from-rev", "HEAD")
	expect(t, 1, "scan", "--new-from-rev", "HEAD~1")

	// Touching a line of the witness (here: where the owner dies) brings
	// the finding back.
	writeFile(t, filepath.Join(dir, "src/old.cc"), strings.Replace(bug, "    keys.push_back(TransferKey(peer, i));\n  }\n", "    keys.push_back(TransferKey(peer, i));\n  }  // end of loop\n", 1))
	out, _ = expect(t, 1, "scan", "--new-from-rev", "HEAD")
	if !strings.Contains(out, "src/old.cc:50:24") {
		t.Errorf("witness line change not seen:\n%s", out)
	}

	if _, errs := expect(t, 2, "scan", "--new-from-rev", "no-such-branch"); !strings.Contains(errs, `unknown revision "no-such-branch"`) {
		t.Errorf("unknown revision: %s", errs)
	}
	// From outside the repository, the repository is the one that holds
	// the scanned paths, a directory or a file.
	outside := t.TempDir()
	t.Chdir(outside)
	t.Setenv("GIT_CEILING_DIRECTORIES", filepath.Dir(outside))
	if out, _ := expect(t, 1, "scan", "--new-from-rev", "HEAD", dir); !strings.Contains(out, "src/old.cc:50:24") || strings.Contains(out, "send.cc") {
		t.Errorf("repository of a directory named from outside:\n%s", out)
	}
	expect(t, 1, "scan", "--new-from-rev", "HEAD", filepath.Join(dir, "src", "old.cc"))
	expect(t, 0, "scan", "--new-from-rev", "HEAD", filepath.Join(dir, "src", "send.cc"))
	if _, errs := expect(t, 2, "scan", "--new-from-rev", "HEAD"); !strings.Contains(errs, "needs a git repository, and "+outside+" is not inside one") {
		t.Errorf("outside a repository: %s", errs)
	}
	// Paths in two repositories have no one revision to compare with.
	other := filepath.Join(outside, "other")
	writeFile(t, filepath.Join(other, "a.cc"), clean)
	git(t, "-C", other, "init", "-q")
	if _, errs := expect(t, 2, "scan", "--new-from-rev", "HEAD", dir, other); !strings.Contains(errs, "are in different git repositories") {
		t.Errorf("paths in two repositories: %s", errs)
	}
}

// TestNewFromRevNotesChangedFiles: with --new-from-rev, the notes about
// files (parse errors here) count and name only the changed files; an
// old broken header is not spoken of.
func TestNewFromRevNotesChangedFiles(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	dir := tree(t, map[string]string{"src/old.h": "void A() { int x = (; }\nvoid B() { f(; }\n", "src/ok.cc": clean})
	t.Setenv("GIT_CEILING_DIRECTORIES", filepath.Dir(dir))
	git(t, "init", "-q")
	git(t, "add", ".")
	git(t, "commit", "-q", "-m", "base")
	writeFile(t, filepath.Join(dir, "src/new.cc"), "void C() { g(; }\n")

	out, _ := expect(t, 0, "scan", "--no-verify", "--verbose")
	if !strings.Contains(out, "holdfast: note: 3 functions in 2 files have parse errors") {
		t.Errorf("a full scan counts both files:\n%s", out)
	}
	out, _ = expect(t, 0, "scan", "--no-verify", "--new-from-rev", "HEAD", "--verbose")
	if !strings.Contains(out, "holdfast: note: 1 function in 1 file has parse errors") {
		t.Errorf("want the changed file counted alone:\n%s", out)
	}
	out, _ = expect(t, 0, "scan", "--no-verify", "--new-from-rev", "HEAD", "--verbose")
	if !strings.Contains(out, "src/new.cc: note: 1 of 1 functions has parse errors") || strings.Contains(out, "old.h") {
		t.Errorf("want the changed file named alone:\n%s", out)
	}
	git(t, "add", ".")
	git(t, "commit", "-q", "-m", "new")
	if out, _ := expect(t, 0, "scan", "--no-verify", "--new-from-rev", "HEAD", "--verbose"); strings.Contains(out, "parse errors") {
		t.Errorf("nothing changed, yet parse errors are spoken of:\n%s", out)
	}
}

func TestProgress(t *testing.T) {
	var buf bytes.Buffer
	now := time.Unix(0, 0)
	p := newProgress(&buf, func() time.Time { return now })
	p.update(1, 1000) // too early: short scans print nothing
	if buf.Len() != 0 {
		t.Fatalf("printed before the delay: %q", buf.String())
	}
	for i := 2; i <= 1000; i++ {
		now = now.Add(time.Millisecond)
		p.update(i, 1000)
	}
	// From 500 ms to 999 ms: one line at 500 ms, then one per 100 ms.
	if n := strings.Count(buf.String(), "\r"); n != 5 {
		t.Errorf("%d updates, want 5: %q", n, buf.String())
	}
	if !strings.HasSuffix(buf.String(), "\rholdfast: 901/1000 files (90%)") {
		t.Errorf("last update: %q", buf.String()[max(0, buf.Len()-60):])
	}
	p.finish()
	if !strings.HasSuffix(buf.String(), "\r"+strings.Repeat(" ", len("holdfast: 901/1000 files (90%)"))+"\r") {
		t.Errorf("not cleared: %q", buf.String()[max(0, buf.Len()-60):])
	}
	var none bytes.Buffer
	if isTTY(&none) {
		t.Error("a buffer is not a terminal")
	}
	devnull, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer devnull.Close()
	if isTTY(devnull) {
		t.Error("the null device is not a terminal")
	}
}

// TestSkippedSourceExitStatus: a scan that finds nothing but could not
// analyse some source says so with exit status 3, and with a warning
// naming the file; findings still take precedence (exit 1).
func TestSkippedSourceExitStatus(t *testing.T) {
	bug := buggy(t)
	tree(t, map[string]string{"ok.cc": clean, "blob.h": "\x00\x01\x02 not source"})
	_, errs := expect(t, 3, "scan")
	if !strings.Contains(errs, "could not be analysed") {
		t.Errorf("stderr does not explain exit 3: %s", errs)
	}
	out, _ := expect(t, 3, "scan", "--format", "text")
	if !strings.Contains(out, "blob.h") {
		t.Errorf("no warning naming the skipped file:\n%s", out)
	}
	expect(t, 0, "scan", "--fail-on", "never")
	expect(t, 0, "scan", "ok.cc")
	writeFile(t, "send.cc", bug)
	expect(t, 1, "scan")
}

// TestVersion: the version comes from the build information the Go
// toolchain records, not from a constant in the source.
func TestVersion(t *testing.T) {
	bi := &debug.BuildInfo{Main: debug.Module{Version: "v0.0.0-20261201122253-d26192a1b2c3+dirty"}, Settings: []debug.BuildSetting{
		{Key: "vcs.revision", Value: "d26192a1b2c3d4e5f60718293a4b5c6d7e8f9012"},
		{Key: "vcs.time", Value: "2026-12-01T12:22:53Z"},
		{Key: "vcs.modified", Value: "true"},
	}}
	v := fromBuildInfo(bi)
	if got, want := v.String(), "v0.0.0-20261201122253-d26192a1b2c3+dirty, revision d26192a1b2c3 (2026-12-01T12:22:53Z), modified"; got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
	if got, want := v.tool(), "0.0.0-20261201122253-d26192a1b2c3+dirty"; got != want {
		t.Errorf("tool() = %q, want %q", got, want)
	}
	release := fromBuildInfo(&debug.BuildInfo{Main: debug.Module{Version: "v0.2.0"}})
	if release.String() != "v0.2.0" || release.tool() != "0.2.0" {
		t.Errorf("a release: %q, %q", release.String(), release.tool())
	}
	devel := fromBuildInfo(&debug.BuildInfo{Main: debug.Module{Version: "(devel)"}})
	if devel.String() != "(devel)" || devel.tool() != "0.0.0-devel" {
		t.Errorf("a build without a version: %q, %q", devel.String(), devel.tool())
	}

	// Both spellings print the running binary's version.
	want := "holdfast " + readBuildVersion().String() + "\n"
	for _, args := range [][]string{{"version"}, {"--version"}} {
		if out, _ := expect(t, 0, args...); out != want {
			t.Errorf("holdfast %s = %q, want %q", args[0], out, want)
		}
	}
}

// TestConfigFromAbove: a scan in a subdirectory of a repository reads the
// repository's .holdfast.yaml, and a bad value in it is reported with its
// line.
func TestConfigFromAbove(t *testing.T) {
	dir := tree(t, map[string]string{
		".git/HEAD":      "ref: refs/heads/main\n",
		".holdfast.yaml": "exclude: [src/gen/**]\nfail-on: error\n",
		"src/send.cc":    buggy(t),
		"src/gen/g.cc":   buggy(t),
	})
	t.Chdir(filepath.Join(dir, "src"))
	out, _ := expect(t, 1, "scan")
	if !strings.Contains(out, "send.cc:50:24: error:") || strings.Contains(out, "gen/g.cc") {
		t.Errorf("the repository's config (exclude src/gen/**) was not applied from src/:\n%s", out)
	}
	writeFile(t, filepath.Join(dir, ".holdfast.yaml"), "fail-on: error\nrules:\n  disable: [HF-Z001]\n")
	_, errs := expect(t, 2, "scan")
	if want := filepath.Join(dir, ".holdfast.yaml") + ":3: rules.disable: unknown rule \"HF-Z001\""; !strings.Contains(errs, want) {
		t.Errorf("stderr %q lacks %q", errs, want)
	}
}

// TestCPUProfileWhenFindingsFail: --cpuprofile writes a profile (gzip)
// also when the scan exits 1.
func TestCPUProfileWhenFindingsFail(t *testing.T) {
	dir := tree(t, map[string]string{"send.cc": buggy(t)})
	prof := filepath.Join(dir, "cpu.pprof")
	expect(t, 1, "scan", "--cpuprofile", prof)
	b, err := os.ReadFile(prof)
	if err != nil {
		t.Fatal(err)
	}
	if len(b) < 2 || b[0] != 0x1f || b[1] != 0x8b {
		t.Errorf("the profile is not a gzip-compressed pprof profile (%d bytes)", len(b))
	}
}

// TestCompactByDefault: a finding is its line (one token for the rule),
// its source line with a caret, its story notes, its verdict and a hint;
// --trace adds the verdict's reason, and for a finding the device replayed,
// the replay with paths an editor opens, and the fixed run.
func TestCompactByDefault(t *testing.T) {
	d2h, err := os.ReadFile(filepath.Join("..", "..", "examples", "backend", "d2h_copy.cc"))
	if err != nil {
		t.Fatal(err)
	}
	tree(t, map[string]string{"src/send.cc": buggy(t), "src/d2h.cc": string(d2h)})
	out, _ := expect(t, 1, "scan", "src/send.cc")
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) != 8 || !strings.HasPrefix(lines[0], "src/send.cc:50:24: error:") || !strings.HasSuffix(lines[0], " [HF-B001]") ||
		!strings.HasPrefix(lines[1], "   50 |   return CrossHostSend") || !strings.Contains(lines[2], "^~~") ||
		lines[6] != "  verification: confirmed (HOST_UAF: "+diag.FaultMeaning("HOST_UAF")+")" || !strings.HasPrefix(lines[7], "  hint: ") || !strings.Contains(lines[7], "holdfast explain HF-B001") {
		t.Errorf("want the finding, its source line and caret, its 3 notes (taken, ends, used), its verdict and a hint, 8 lines:\n%s", out)
	}
	for _, l := range lines[3:6] {
		if !strings.HasPrefix(l, "src/send.cc:") || !strings.Contains(l, ": note: ") {
			t.Errorf("not a story note: %q", l)
		}
	}
	out, _ = expect(t, 1, "scan", "--trace", "src/send.cc")
	if want := "the function's own path executes it"; !strings.Contains(out, want) {
		t.Errorf("--trace output lacks %q:\n%s", want, out)
	}
	out, _ = expect(t, 1, "scan", "--trace", "src/d2h.cc")
	for _, want := range []string{"   37 |   xla::Future<> copied = raw->ToLiteral", "host             src/d2h.cc:33  alloc buffer", "with the fix applied: no fault"} {
		if !strings.Contains(out, want) {
			t.Errorf("--trace output lacks %q:\n%s", want, out)
		}
	}
}

// TestNoSourceFileWarns: a scan that finds no source file says so in a
// notice, and exits 0: a repository without C++ is not a failure.
func TestNoSourceFileWarns(t *testing.T) {
	tree(t, map[string]string{"README.md": "no C++ here\n"})
	out, errs := expect(t, 0, "scan")
	if !strings.Contains(out+errs, "no source files to analyse under .") || !strings.Contains(errs, "holdfast: 0 findings in 0 files") {
		t.Errorf("stdout %q, stderr %q: want the warning and the summary", out, errs)
	}
}

// TestCommandMistakes: mistakes in the command are usage errors (exit 2)
// or corrected as a user means them, never silent.
func TestCommandMistakes(t *testing.T) {
	dir := tree(t, map[string]string{"src/send.cc": buggy(t), ".holdfast.yml": "fail-on: never\n"})
	// A mistyped path next to a real one.
	if _, errs := expect(t, 2, "scan", "src", "srcc"); !strings.Contains(errs, "srcc: no such file or directory") {
		t.Errorf("missing path: %q", errs)
	}
	// Rule IDs in any case, as suppressions accept them.
	if out, _ := expect(t, 0, "explain", "hf-b001"); !strings.Contains(out, "HF-B001") {
		t.Errorf("explain hf-b001:\n%s", out)
	}
	// The report's format follows the extension of -o when --format is
	// not given.
	expect(t, 1, "scan", "-o", "report.sarif", "src")
	data, err := os.ReadFile(filepath.Join(dir, "report.sarif"))
	if err != nil || !strings.Contains(string(data), `"$schema"`) {
		t.Errorf("-o report.sarif did not write SARIF: %v\n%.200s", err, data)
	}
	// A configuration under the wrong name is not read, and says so.
	if out, _ := expect(t, 1, "scan", "src"); !strings.Contains(out, "rename") || !strings.Contains(out, ".holdfast.yml") {
		t.Errorf("misnamed configuration not reported:\n%s", out)
	}
}

// TestUnconfirmedNeverFails: with --all an unconfirmed finding is shown as
// a note, and --fail-on note still does not fail on it (as
// docs/verification.md says of latent and not-reproduced findings).
func TestUnconfirmedNeverFails(t *testing.T) {
	for _, f := range []*diag.Finding{
		{Severity: diag.Error, Verification: &diag.Verification{Verdict: diag.Latent}},
		{Severity: diag.Warning, Verification: &diag.Verification{Verdict: diag.NotReproduced}},
	} {
		if failing([]*diag.Finding{f}, diag.Note) {
			t.Errorf("%s finding fails the run", f.Verification.Verdict)
		}
	}
	if !failing([]*diag.Finding{{Severity: diag.Note, Verification: &diag.Verification{Verdict: diag.Confirmed}}}, diag.Note) {
		t.Error("a confirmed note must fail --fail-on note")
	}
}

// TestSummaryNamesConfigEffects: what a configuration file turns off is
// said in the summary line, so a pull request's own .holdfast.yaml cannot
// silence a scan without a word.
func TestSummaryNamesConfigEffects(t *testing.T) {
	tree(t, map[string]string{"src/send.cc": buggy(t), "gen/a.cc": buggy(t), "gen/deep/b.cu": buggy(t), "gen/notes.txt": "not a source",
		".holdfast.yaml": "fail-on: never\nrules:\n  disable: [HF-B001]\nexclude: [\"gen/**\"]\napi:\n  calls:\n    Sync: [wait]\n    Hold: [keep]\n"})
	_, errs := expect(t, 0, "scan")
	if !strings.Contains(errs, ".holdfast.yaml: 1 rule disabled, 1 exclude pattern leaving out 2 files, fail-on never, 2 API calls described") {
		t.Errorf("summary does not name what the configuration turns off: %q", errs)
	}
}

// TestBaselineFromElsewhereWarns: a baseline's paths are relative to the
// directory it was recorded in; used from another, it hides nothing, and
// the scan says so instead of reporting everything as new in silence.
func TestBaselineFromElsewhereWarns(t *testing.T) {
	dir := tree(t, map[string]string{"src/send.cc": buggy(t)})
	expect(t, 0, "baseline", "-o", "base.json")
	t.Chdir(filepath.Join(dir, "src"))
	out, _ := expect(t, 1, "scan", "--baseline", "../base.json")
	if !strings.Contains(out, "none of the baseline's 1 entry names a file that exists from here") {
		t.Errorf("no warning for a baseline used from another directory:\n%s", out)
	}
	t.Chdir(dir)
	if out, _ := expect(t, 0, "scan", "--baseline", "base.json"); strings.Contains(out, "none of the baseline") {
		t.Errorf("warned from the right directory:\n%s", out)
	}
}

// TestIgnoredFlagsWarn: a flag that does nothing in the chosen format says
// so instead of being dropped in silence.
func TestIgnoredFlagsWarn(t *testing.T) {
	tree(t, map[string]string{"ok.cc": clean})
	if _, errs := expect(t, 0, "scan", "--trace", "--format", "json"); !strings.Contains(errs, "--trace changes only the text format") {
		t.Errorf("--trace with json: %q", errs)
	}
	if _, errs := expect(t, 0, "scan", "--sarif-category", "x"); !strings.Contains(errs, "--sarif-category applies to SARIF only") {
		t.Errorf("--sarif-category with text: %q", errs)
	}
	if _, errs := expect(t, 0, "scan", "--trace"); strings.Contains(errs, "warning") {
		t.Errorf("--trace with text warned: %q", errs)
	}
}

// TestMisnamedConfigIsNotASkippedSource: a .holdfast.yml is not read, and
// the scan says so, but it is no source left unanalysed: a tree with only
// that file exits 0 and counts nothing as not analysed.
func TestMisnamedConfigIsNotASkippedSource(t *testing.T) {
	tree(t, map[string]string{".holdfast.yml": "fail-on: never\n"})
	out, errs := expect(t, 0, "scan")
	if !strings.Contains(out, ".holdfast.yml: warning: not read") || !strings.Contains(out, "rename") {
		t.Errorf("no warning about the misnamed file:\n%s", out)
	}
	if strings.Contains(errs, "could not be analysed") {
		t.Errorf("the misnamed file counted as a source not analysed: %q", errs)
	}
}
