// Package report prints one sorted list of findings as compiler-style text,
// JSON, SARIF 2.1.0 or GitHub workflow annotations.
//
// Every printer is a pure function of its inputs: it reads no files (source
// text comes through Options.Source), keeps no state between calls, sorts its
// input with diag.Sort and writes the same bytes for the same inputs.
//
// Which findings a printer shows:
//
//   - a finding the replay did not confirm (latent, not reproduced or not
//     modelled: diag.Verdict.Shown) is left out of every format unless
//     Options.ShowAll is set; then it is shown at severity note;
//   - a suppressed finding (Finding.Suppressed != "") is always present in
//     JSON and SARIF, which mark it as suppressed (SARIF with an inSource
//     suppression that code scanning shows as dismissed), and is shown by
//     text and GitHub annotations only with Options.ShowAll, at severity note.
//
// The text format prints nothing at all for a run with no finding or notice
// to show, like a compiler or go vet; Summarize gives the one line that
// sums up any run, which the command prints on standard error.
package report

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/holdfast-dev/holdfast/diag"
	"github.com/holdfast-dev/holdfast/internal/esc"
)

// toolName is the name every format gives the tool.
const toolName = "holdfast"

// Options is what a printer needs besides the findings.
type Options struct {
	// Root is the scan root as an absolute OS path. Finding paths
	// (diag.Pos.File) are slash paths relative to it.
	Root string
	// ToolVersion is holdfast's version, e.g. "0.1.0", or "devel" for a
	// build that recorded none. SARIF's semanticVersion carries it only
	// when it is a semantic version.
	ToolVersion string
	// DocsURL is where holdfast's files are published as web pages, the
	// base under which README.md and docs/rules/<ID>.md are found, e.g.
	// "https://github.com/you/holdfast/blob/main". SARIF's informationUri
	// and each rule's helpUri are made from it, and left out when it is
	// empty; JSON's tool.informationUri is then "".
	DocsURL string
	// Rules is every rule that ran, in ID order. SARIF lists them as rule
	// descriptors; a rule that a finding names but Rules lacks is added.
	Rules []*diag.Rule
	// Source returns a file's content by its relative path, for the text
	// caret line, SARIF snippets and UTF-16 columns. It may be nil, and may
	// return nil for any file.
	Source func(file string) []byte
	// Color turns on ANSI colours in the text format.
	Color bool
	// ShowAll includes not-reproduced findings in every format, and
	// suppressed findings in text and GitHub annotations, all as notes.
	ShowAll bool
	// Trace makes the text format print, for each finding, its source line
	// with a caret, the verdict's reason and the replay on the simulated
	// device. Without it a finding is its line, its story notes and its
	// verdict.
	Trace bool
	// AutomationID is SARIF's run.automationDetails.id, e.g. "holdfast/".
	// Code scanning keys runs by it, so it should be stable per category.
	AutomationID string
	// Notices are run-level messages: files skipped, parse errors, limits
	// hit. Text prints them after the findings, SARIF puts them in
	// invocations[0].toolExecutionNotifications, JSON in "notices".
	Notices []Notice
	// MaxSARIFResults caps the results of a SARIF run; 0 means 25,000, the
	// most GitHub code scanning accepts. Results beyond it are dropped
	// (notes first, then warnings, suppressed ones before unsuppressed) and
	// a notification says how many.
	MaxSARIFResults int
}

// Notice is a run-level message that is not a finding.
type Notice struct {
	Level   string // "warning", "note" or "error"; anything else is read as "warning"
	File    string // slash path relative to the root, or "" for the whole run
	Line    int    // 1-based line the notice is about, or 0
	Message string
}

// Formats returns the formats Write knows, in the order a usage line shows
// them.
func Formats() []string {
	return []string{"text", "json", "sarif", "github"}
}

// Write prints findings in the named format: "text", "json", "sarif" or
// "github".
func Write(w io.Writer, format string, fs []*diag.Finding, opt Options) error {
	switch format {
	case "text":
		return Text(w, fs, opt)
	case "json":
		return JSON(w, fs, opt)
	case "sarif":
		return SARIF(w, fs, opt)
	case "github":
		return GitHub(w, fs, opt)
	}
	return fmt.Errorf("unknown output format %q (want one of %s)", format, strings.Join(Formats(), ", "))
}

// sorted returns a sorted, de-duplicated copy of fs, leaving fs untouched.
// It fails on a finding without a rule, which no stage should produce.
func sorted(fs []*diag.Finding) ([]*diag.Finding, error) {
	out := make([]*diag.Finding, 0, len(fs))
	for _, f := range fs {
		if f == nil {
			continue
		}
		if f.Rule == nil {
			return nil, fmt.Errorf("finding at %s:%d has no rule", f.At.Start.File, f.At.Start.Line)
		}
		out = append(out, f)
	}
	return diag.Sort(out), nil
}

// notReproduced tells whether f is hidden by default: the simulated device
// did not confirm it (latent, not reproduced or not modelled).
func notReproduced(f *diag.Finding) bool {
	return f.Verification != nil && !f.Verification.Verdict.Shown()
}

// severity is f's own severity, falling back to the rule's default and then
// to warning.
func severity(f *diag.Finding) diag.Severity {
	s := f.Severity
	if s == 0 && f.Rule != nil {
		s = f.Rule.Severity
	}
	if s < diag.Note || s > diag.Error {
		s = diag.Warning
	}
	return s
}

// selection is the findings a printer shows, with what it left out.
type selection struct {
	shown         []*diag.Finding
	notReproduced int // left out: not confirmed (latent, not reproduced, not modelled)
	suppressed    int // left out: suppressed
}

// selectFindings applies the package's visibility rules. keepSuppressed is
// true for formats that mark suppressions themselves (JSON, SARIF).
func selectFindings(fs []*diag.Finding, opt Options, keepSuppressed bool) (selection, error) {
	fs, err := sorted(fs)
	if err != nil {
		return selection{}, err
	}
	var sel selection
	for _, f := range fs {
		switch {
		case opt.ShowAll:
		case notReproduced(f):
			sel.notReproduced++
			continue
		case f.Suppressed != "" && !keepSuppressed:
			sel.suppressed++
			continue
		}
		sel.shown = append(sel.shown, f)
	}
	return sel, nil
}

// shownSeverity is the severity a format that cannot mark suppressions (text,
// GitHub) prints: note for not-reproduced and suppressed findings.
func shownSeverity(f *diag.Finding) diag.Severity {
	if notReproduced(f) || f.Suppressed != "" {
		return diag.Note
	}
	return severity(f)
}

// notices returns the notices sorted by file, line, level and message, without
// exact duplicates, and with their levels normalised.
func notices(ns []Notice) []Notice {
	out := make([]Notice, 0, len(ns))
	for _, n := range ns {
		n.Level = noticeLevel(n.Level)
		out = append(out, n)
	}
	slices.SortStableFunc(out, func(a, b Notice) int {
		return cmp.Or(
			cmp.Compare(a.File, b.File),
			cmp.Compare(a.Line, b.Line),
			cmp.Compare(levelRank(b.Level), levelRank(a.Level)),
			cmp.Compare(a.Message, b.Message),
		)
	})
	return slices.Compact(out)
}

// noticeLevel maps a notice level onto "error", "warning" or "note".
func noticeLevel(l string) string {
	switch strings.ToLower(l) {
	case "error":
		return "error"
	case "note", "info", "notice":
		return "note"
	}
	return "warning"
}

func levelRank(l string) int {
	switch l {
	case "error":
		return 3
	case "warning":
		return 2
	}
	return 1
}

// verdictText is a verdict as prose: "not reproduced" for "not-reproduced".
func verdictText(v diag.Verdict) string {
	return strings.ReplaceAll(string(v), "-", " ")
}

// informationURI is the tool's home page, README.md under Options.DocsURL,
// or "" when the build names no docs.
func informationURI(opt Options) string {
	return docsPage(opt.DocsURL, "README.md")
}

// docsPage is the page of the file at path (slash-separated, relative to
// the repository) under base, or "" when base is empty.
func docsPage(base, path string) string {
	if base == "" {
		return ""
	}
	return strings.TrimSuffix(base, "/") + "/" + path
}

// faultText is a fault's name followed by what it means, when diag.Faults
// explains it: "HOST_UAF: host memory was used after ...". JSON and SARIF
// carry the name alone.
func faultText(name string) string {
	if m := diag.FaultMeaning(name); m != "" {
		return name + ": " + m
	}
	return name
}

// errWriter remembers the first write error so printers can write freely
// and check once.
type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) Write(p []byte) (int, error) {
	if e.err != nil {
		return 0, e.err
	}
	n, err := e.w.Write(p)
	if err != nil {
		e.err = err
	}
	return n, err
}

// encodeJSON writes v as indented JSON with no unsafe character raw (see
// esc.JSON): the values are exact, the bytes are safe to print.
func encodeJSON(w io.Writer, v any) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return err
	}
	_, err := w.Write(esc.JSON(buf.Bytes()))
	return err
}

func (e *errWriter) printf(format string, args ...any) {
	_, _ = fmt.Fprintf(e, format, args...) // errWriter keeps the first error
}

func (e *errWriter) str(s string) {
	_, _ = io.WriteString(e, s) // errWriter keeps the first error
}
