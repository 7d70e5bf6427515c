package report

import (
	"cmp"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/holdfast-dev/holdfast/diag"
	"github.com/holdfast-dev/holdfast/internal/esc"
)

// ANSI styles of the text format.
const (
	ansiReset   = "\x1b[0m"
	ansiBold    = "\x1b[1m"
	ansiRed     = "\x1b[1;31m"
	ansiGreen   = "\x1b[1;32m"
	ansiMagenta = "\x1b[1;35m"
	ansiCyan    = "\x1b[1;36m"
)

// Text prints findings the way a compiler prints diagnostics. By default
// each finding is one line, its source line with a caret under the range,
// one note per step of its lifetime story, its verdict and a hint:
//
//	path/to/file.cc:12:5: warning: <message> [HF-B001]
//	   12 |     pjrt_buffers.push_back(pjrt_buffer);
//	      |     ^~~~~~~~~~~~
//	path/to/file.cc:8:5: note: 'device_buffer' declared here
//	  verification: confirmed (DEV_UAF_REUSED: device memory was used after ...)
//	  hint: <the rule's short fix> ('holdfast explain HF-B001' says more)
//
// With Options.Trace, each finding also gets the verdict's reason and the
// replay on the simulated device, one step per line with the path and line
// it replays; findings are then separated by a blank line:
//
//	path/to/file.cc:12:5: warning: <message> [HF-B001]
//	   12 |     pjrt_buffers.push_back(pjrt_buffer);
//	      |     ^~~~~~~~~~~~
//	path/to/file.cc:8:5: note: 'device_buffer' declared here
//	  verification: confirmed (DEV_UAF_REUSED: <what it means>) — <reason>
//	    host      path/to/file.cc:9   <text>
//	    stream:x  path/to/file.cc:20  <text>  ← fault: DEV_UAF_REUSED
//	  with the fix applied: no fault
//
// Columns count bytes, as diag.Pos does. The source line and caret appear
// when Options.Source has the file; tabs are expanded to 8 columns so the
// caret lines up. Notices come after the findings. A run with nothing to
// show prints nothing; Summarize gives the line that sums a run up.
func Text(w io.Writer, fs []*diag.Finding, opt Options) error {
	sel, err := selectFindings(fs, opt, false)
	if err != nil {
		return err
	}
	ns := notices(opt.Notices)
	ew := &errWriter{w: w}
	t := &textPrinter{w: ew, color: opt.Color, src: newSources(opt.Source), trace: opt.Trace}
	for i, f := range sel.shown {
		if i > 0 && opt.Trace {
			ew.str("\n")
		}
		t.finding(f)
	}
	if len(ns) > 0 && len(sel.shown) > 0 && opt.Trace {
		ew.str("\n")
	}
	for _, n := range ns {
		t.notice(n)
	}
	return ew.err
}

// Summary sums up what a run shows, in parts the caller joins with "; "
// after adding its own (files scanned, findings a baseline hid).
type Summary struct {
	// Findings is "0 findings", or "3 findings (1 error, 2 warnings)": the
	// unsuppressed findings a printer shows.
	Findings string
	// Confirmed is "2 confirmed" when the device confirmed any of them,
	// or "".
	Confirmed string
	// NotShown is "1 unconfirmed and 2 suppressed not shown", or "".
	NotShown string
	// Notices is "3 notices", or "".
	Notices string
}

// Summarize counts findings as the text format shows them: not-reproduced
// and suppressed findings are left out and counted as not shown, unless
// Options.ShowAll, which shows and counts them as notes.
func Summarize(fs []*diag.Finding, opt Options) (Summary, error) {
	all := opt
	all.ShowAll = true
	sel, err := selectFindings(fs, all, true)
	if err != nil {
		return Summary{}, err
	}
	var s selection
	for _, f := range sel.shown {
		switch {
		case f.Suppressed != "" && !opt.ShowAll:
			s.suppressed++
		case notReproduced(f) && !opt.ShowAll:
			s.notReproduced++
		default:
			s.shown = append(s.shown, f)
		}
	}
	return summary(s, len(notices(opt.Notices))), nil
}

// textPrinter holds what the text format needs while printing.
type textPrinter struct {
	w     *errWriter
	color bool
	src   *sources
	trace bool
}

// style wraps s in an ANSI style when colour is on.
func (t *textPrinter) style(code, s string) string {
	if !t.color || s == "" {
		return s
	}
	return code + s + ansiReset
}

func severityStyle(s diag.Severity) string {
	switch s {
	case diag.Error:
		return ansiRed
	case diag.Warning:
		return ansiMagenta
	}
	return ansiCyan
}

// posText is "file:line:col", leaving out what is unknown.
func posText(p diag.Pos) string {
	s := esc.Name(p.File)
	if p.Line > 0 {
		s += ":" + strconv.Itoa(p.Line)
		if p.Col > 0 {
			s += ":" + strconv.Itoa(p.Col)
		}
	}
	return s
}

func (t *textPrinter) finding(f *diag.Finding) {
	sev := shownSeverity(f)
	code := severityStyle(sev)
	// One token, as clang's [-Wflag]: problem matchers and errorformats
	// read it whole.
	tag := "[" + oneLine(f.Rule.ID) + "]"
	t.w.printf("%s %s %s %s\n",
		t.style(ansiBold, posText(f.At.Start)+":"),
		t.style(code, sev.String()+":"),
		oneLine(f.Message),
		t.style(code, tag))
	t.snippet(f.At)
	for _, s := range f.Witness {
		p := s.At.Start
		if p.File == "" {
			p.File = f.At.Start.File
		}
		t.w.printf("%s %s %s\n",
			t.style(ansiBold, posText(p)+":"),
			t.style(ansiCyan, "note:"),
			oneLine(stepMessage(s)))
	}
	if f.Suppressed != "" {
		t.w.printf("  suppressed: %s\n", oneLine(f.Suppressed))
	}
	if v := f.Verification; v != nil {
		t.verification(f, v)
	}
	hint := "run 'holdfast explain " + oneLine(f.Rule.ID) + "' for why and how to fix it"
	if fix := cmp.Or(f.Rule.Hint, f.Rule.Fix); fix != "" {
		hint = oneLine(fix) + " ('holdfast explain " + oneLine(f.Rule.ID) + "' says more)"
	}
	t.w.printf("  %s %s\n", t.style(ansiGreen, "hint:"), hint)
}

// Snippet window of the text format: the bytes of a long source line shown
// before and after the caret, and the longest caret.
const (
	snippetContext = 80
	snippetSpan    = 160
)

// snippet prints the first line of span with a caret under it. A line
// longer than the window (generated or minified code) is cut around the
// caret, with "..." where it was cut.
func (t *textPrinter) snippet(at diag.Span) {
	start := at.Start
	line, ok := t.src.line(start.File, start.Line)
	if !ok || start.Col < 1 {
		return
	}
	from := min(start.Col-1, len(line))
	to := len(line)
	if at.End.Line == start.Line && at.End.Col > start.Col {
		to = min(at.End.Col-1, len(line))
	}
	to = min(to, from+snippetSpan)
	lo, hi := max(0, from-snippetContext), min(len(line), to+snippetContext)
	for lo > 0 && !utf8.RuneStart(line[lo]) {
		lo--
	}
	for hi < len(line) && !utf8.RuneStart(line[hi]) {
		hi++
	}
	prefix, suffix := "", ""
	if lo > 0 {
		prefix = "..."
	}
	if hi < len(line) {
		suffix = "..."
	}
	shown, cols := render(line[lo:hi])
	from, to = from-lo, to-lo
	width := cols[to] - cols[from]
	underline := "^"
	if width > 1 {
		underline += strings.Repeat("~", width-1)
	}
	num := strconv.Itoa(start.Line)
	gutter := max(5, len(num))
	t.w.printf("%*s | %s\n", gutter, num, strings.TrimRight(prefix+shown+suffix, " "))
	t.w.printf("%*s | %s%s\n", gutter, "", strings.Repeat(" ", len(prefix)+cols[from]), t.style(ansiGreen, underline))
}

func (t *textPrinter) verification(f *diag.Finding, v *diag.Verification) {
	head := oneLine(verdictText(v.Verdict))
	if v.Fault != "" {
		head += " (" + oneLine(faultText(v.Fault)) + ")"
	}
	if !t.trace {
		t.w.printf("  verification: %s\n", head)
		return
	}
	if v.Reason != "" {
		head += " — " + oneLine(v.Reason)
	}
	t.w.printf("  verification: %s\n", head)
	t.replay(f, v.Trace)
	if len(v.Fixed) > 0 {
		fault := ""
		for _, s := range v.Fixed {
			if s.Fault != "" {
				fault = s.Fault
				break
			}
		}
		if fault == "" {
			t.w.str("  with the fix applied: no fault\n")
		} else {
			t.w.printf("  with the fix applied: %s\n", t.style(ansiRed, "still faults: "+oneLine(fault)))
		}
	}
}

// replay prints replay steps as aligned columns: thread, position (the
// path and line, as an editor opens them), text.
func (t *textPrinter) replay(f *diag.Finding, steps []diag.TraceStep) {
	threads, poss := 0, 0
	pos := make([]string, len(steps))
	for i, s := range steps {
		if s.At != nil {
			p := s.At.Start
			if p.File == "" {
				p.File = f.At.Start.File
			}
			p.Col = 0
			pos[i] = posText(p)
		}
		threads = max(threads, len(oneLine(s.Thread)))
		poss = max(poss, len(pos[i]))
	}
	for i, s := range steps {
		line := fmt.Sprintf("    %-*s  %-*s  %s", threads, oneLine(s.Thread), poss, pos[i], oneLine(s.Text))
		line = strings.TrimRight(line, " ")
		if s.Fault != "" {
			line += "  " + t.style(ansiRed, "← fault: "+oneLine(s.Fault))
		}
		t.w.str(line + "\n")
	}
}

func (t *textPrinter) notice(n Notice) {
	where := toolName
	if n.File != "" {
		where = esc.Name(n.File)
		if n.Line > 0 {
			where += ":" + strconv.Itoa(n.Line)
		}
	}
	code := ansiMagenta
	switch n.Level {
	case "error":
		code = ansiRed
	case "note":
		code = ansiCyan
	}
	t.w.printf("%s %s %s\n", t.style(ansiBold, where+":"), t.style(code, n.Level+":"), oneLine(n.Message))
}

// summary sums up a selection.
func summary(sel selection, notices int) Summary {
	var bySev [diag.Error + 1]int
	confirmed := 0
	for _, f := range sel.shown {
		bySev[shownSeverity(f)]++
		if f.Verification != nil && f.Verification.Verdict == diag.Confirmed {
			confirmed++
		}
	}
	s := Summary{Findings: plural(len(sel.shown), "finding")}
	if len(sel.shown) > 0 {
		var kinds []string
		for sev := diag.Error; sev >= diag.Note; sev-- {
			if bySev[sev] > 0 {
				kinds = append(kinds, plural(bySev[sev], sev.String()))
			}
		}
		s.Findings += " (" + strings.Join(kinds, ", ") + ")"
		if confirmed > 0 {
			s.Confirmed = strconv.Itoa(confirmed) + " confirmed"
		}
	}
	var hidden []string
	if sel.notReproduced > 0 {
		hidden = append(hidden, strconv.Itoa(sel.notReproduced)+" unconfirmed")
	}
	if sel.suppressed > 0 {
		hidden = append(hidden, strconv.Itoa(sel.suppressed)+" suppressed")
	}
	if len(hidden) > 0 {
		s.NotShown = strings.Join(hidden, " and ") + " not shown (--all shows them)"
	}
	if notices > 0 {
		s.Notices = plural(notices, "notice")
	}
	return s
}

func plural(n int, noun string) string {
	if n != 1 {
		noun += "s"
	}
	return strconv.Itoa(n) + " " + noun
}

// oneLine keeps a message on one line of a terminal and out of its
// control (esc.Text).
func oneLine(s string) string { return esc.Text(s) }

// stepMessage is a witness step's note: its Message, or one made from its
// kind and values when the rule left it empty.
func stepMessage(s diag.Step) string {
	if s.Message != "" {
		return s.Message
	}
	q := func(v string) string { return "'" + v + "'" }
	var m string
	switch s.Kind {
	case diag.StepDeclare, diag.StepDeclHold:
		m = q(s.Value) + " declared here"
	case diag.StepBorrow:
		m = "pointer " + q(s.Value) + " taken from " + q(s.Other) + " here"
	case diag.StepStore:
		m = q(s.Value) + " stored into " + q(s.Other) + " here"
	case diag.StepOwnerDies:
		m = q(s.Value) + " dies here"
	case diag.StepUse:
		m = q(s.Value) + " used here"
	case diag.StepMove:
		m = q(s.Value) + " moved here"
	default:
		m = string(s.Kind)
		if s.Value != "" {
			m += " " + q(s.Value)
		}
		m += " here"
	}
	if s.Value == "" {
		m = strings.TrimPrefix(m, "'' ")
	}
	if s.Via != "" && s.Via != "}" {
		m += " via " + s.Via
	}
	return m
}
