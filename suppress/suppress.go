// Package suppress applies in-source suppressions to findings.
//
// Two directives, written in comments of C, C++, CUDA and Objective-C++
// alike (never in strings):
//
//	// holdfast:ignore RULE[,RULE...] reason
//	// holdfast:ignore-file RULE[,RULE...] reason
//
// A space after the colon ("holdfast: ignore") is accepted. There is no
// wildcard: a '*' where the rules go is reported.
//
// RULE is a rule's ID (HF-B001, case-insensitive) or name
// (raw-pointer-escapes-owner). holdfast:ignore covers findings that start
// on the lines of its own comment and on the line below it; when the comment
// stands on a line of its own and more comment-only lines follow, "below"
// is the first line after them that is not comment-only, so a directive can
// lead a comment block that explains it, and directives can be stacked. holdfast:ignore-file, anywhere in a file, covers the
// whole file. The directive must open its comment (after // or /* and
// any further /, * or !), one directive per comment; /* */ comments work
// too, the reason ending at */.
//
// The reason is required: a directive without one suppresses nothing and is
// reported. So are a directive naming an unknown rule, an unknown
// holdfast: directive, and a rule in a directive that matched no finding of
// a rule that ran (a stale suppression, as staticcheck reports stale
// //lint:ignore). Suppressed findings are not removed: Process sets their
// Suppressed field to the reason and the printers mark them.
package suppress

import (
	"bytes"
	"cmp"
	"fmt"
	"slices"
	"strings"
	"unicode"

	"github.com/holdfast-dev/holdfast/diag"
)

// Prefix opens every directive.
const Prefix = "holdfast:"

// Directive kinds.
const (
	Ignore     = "ignore"
	IgnoreFile = "ignore-file"
)

// Directive is one well-formed suppression comment.
type Directive struct {
	File   string // slash path, as in diag.Pos.File
	Kind   string // Ignore or IgnoreFile
	Line   int    // first line of the comment
	Col    int    // column of the comment, in bytes
	Lines  [2]int // lines whose findings an Ignore covers, inclusive; unused for IgnoreFile
	Rules  []string
	Reason string
}

// Notice is a problem with a directive. It never stops a scan.
type Notice struct {
	Level   string // "warning"
	File    string
	Line    int
	Col     int
	Message string
}

// Mentions reports whether src may hold a directive: a cheap test that
// lets a caller skip Parse, and keep no source, for almost every file.
func Mentions(src []byte) bool {
	return bytes.Contains(src, []byte(Prefix))
}

// Parse reads the directives of one file. Malformed ones come back as
// notices instead.
func Parse(file string, src []byte) ([]Directive, []Notice) {
	if !Mentions(src) {
		return nil, nil
	}
	lx := lex(src)
	var ds []Directive
	var ns []Notice
	for _, c := range lx.comments {
		text := string(src[c.start:c.end])
		body := strings.TrimLeft(text[2:], "/*! \t")
		if c.block {
			body = strings.TrimSuffix(body, "*/")
		}
		if !strings.HasPrefix(body, Prefix) {
			continue
		}
		notice := func(format string, args ...any) {
			ns = append(ns, Notice{Level: "warning", File: file, Line: c.line, Col: c.col, Message: fmt.Sprintf(format, args...)})
		}
		rest := body[len(Prefix):]
		kind, rest := firstWord(rest)
		if kind == "" {
			// "holdfast: ignore RULE why", with a space after the colon,
			// is the directive too; other words after "holdfast: " are
			// prose, not a directive.
			word, after := firstWord(strings.TrimLeft(rest, " \t"))
			if word != Ignore && word != IgnoreFile {
				continue
			}
			kind, rest = word, after
		}
		if kind != Ignore && kind != IgnoreFile {
			notice("unknown directive %s%s (want %s%s or %s%s); it suppresses nothing",
				Prefix, kind, Prefix, Ignore, Prefix, IgnoreFile)
			continue
		}
		firstLine, _, _ := strings.Cut(rest, "\n")
		if f := strings.Fields(firstLine); len(f) > 0 && strings.Contains(f[0], "*") && !strings.HasPrefix(f[0], "*/") {
			notice("%s%s takes rule IDs or names, not a pattern such as '%s': name each rule (HF-B001 or raw-pointer-escapes-owner; 'holdfast rules' lists them); it suppresses nothing",
				Prefix, kind, f[0])
			continue
		}
		rules, reason := splitRules(rest)
		if len(rules) == 0 {
			notice("%s%s needs a rule and a reason, as in '// %s%s HF-B001 the pool keeps the buffer alive'; it suppresses nothing",
				Prefix, kind, Prefix, kind)
			continue
		}
		if reason == "" {
			notice("%s%s %s has no reason; say why the finding is wrong or acceptable (it suppresses nothing until then)",
				Prefix, kind, strings.Join(rules, ","))
			continue
		}
		d := Directive{File: file, Kind: kind, Line: c.line, Col: c.col, Rules: rules, Reason: reason}
		if kind == Ignore {
			below := c.endLine + 1
			for !lx.code[c.line] && lx.commentOnly(below) {
				below++
			}
			d.Lines = [2]int{c.line, below}
		}
		ds = append(ds, d)
	}
	return ds, ns
}

// firstWord splits s at the first space or line splice.
func firstWord(s string) (word, rest string) {
	end := strings.IndexFunc(s, func(r rune) bool { return unicode.IsSpace(r) || r == '\\' })
	if end < 0 {
		end = len(s)
	}
	return s[:end], s[end:]
}

// splitRules splits "A,B, C reason text" into the rules and the reason,
// with the reason's white space (and comment line splices) collapsed.
func splitRules(s string) (rules []string, reason string) {
	fields := slices.DeleteFunc(strings.Fields(strings.NewReplacer("\\\r\n", " ", "\\\n", " ").Replace(s)), func(f string) bool {
		return f == "*" // the margin of a /* */ comment's continuation lines
	})
	i := 0
	list := ""
	for i < len(fields) {
		list += fields[i]
		i++
		if !strings.HasSuffix(fields[i-1], ",") && (i >= len(fields) || !strings.HasPrefix(fields[i], ",")) {
			break
		}
	}
	for r := range strings.SplitSeq(list, ",") {
		if r != "" {
			rules = append(rules, r)
		}
	}
	return rules, strings.Join(fields[i:], " ")
}

// Options say which rules exist and which ran.
type Options struct {
	// Known is every rule a directive may name; a name outside it is
	// reported. Nil accepts any name.
	Known []*diag.Rule
	// Ran is the rules that ran. Only they can make a directive stale: a
	// directive for a rule that was disabled or not selected is left
	// alone.
	Ran []*diag.Rule
}

// Process applies the directives found in sources (file contents by slash
// path) to the findings: a finding a directive covers gets the directive's
// reason in Suppressed (the first covering directive in the file wins,
// line directives before file ones). It returns the findings, in their
// order, and the notices about malformed, unknown and stale directives,
// sorted by file and position.
func Process(fs []*diag.Finding, sources map[string][]byte, opt Options) ([]*diag.Finding, []Notice) {
	files := make([]string, 0, len(sources))
	for f := range sources {
		files = append(files, f)
	}
	slices.Sort(files)
	byFile := map[string][]*diag.Finding{}
	for _, f := range fs {
		if f != nil && f.Rule != nil {
			byFile[f.At.Start.File] = append(byFile[f.At.Start.File], f)
		}
	}
	var ns []Notice
	for _, file := range files {
		ds, bad := Parse(file, sources[file])
		ns = append(ns, bad...)
		ns = append(ns, apply(ds, byFile[file], opt)...)
	}
	slices.SortStableFunc(ns, func(a, b Notice) int {
		return cmp.Or(cmp.Compare(a.File, b.File), cmp.Compare(a.Line, b.Line), cmp.Compare(a.Col, b.Col))
	})
	return fs, ns
}

// apply applies one file's directives to its findings.
func apply(ds []Directive, fs []*diag.Finding, opt Options) []Notice {
	var ns []Notice
	// used[i][j]: rule j of directive i matched a finding.
	used := make([][]bool, len(ds))
	for i, d := range ds {
		used[i] = make([]bool, len(d.Rules))
		var unknown []string
		for _, r := range d.Rules {
			if opt.Known != nil && !slices.ContainsFunc(opt.Known, func(k *diag.Rule) bool { return names(k, r) }) {
				unknown = append(unknown, r)
			}
		}
		if len(unknown) > 0 {
			ns = append(ns, Notice{Level: "warning", File: d.File, Line: d.Line, Col: d.Col,
				Message: fmt.Sprintf("%s%s names unknown rule %s; 'holdfast rules' lists them", Prefix, d.Kind, strings.Join(quoteAll(unknown), ", "))})
		}
	}
	// Line directives first, so a finding carries the reason nearest to it.
	order := make([]int, len(ds))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		return cmp.Compare(kindRank(ds[a].Kind), kindRank(ds[b].Kind))
	})
	for _, f := range fs {
		line := f.At.Start.Line
		for _, i := range order {
			d := ds[i]
			if d.Kind == Ignore && (line < d.Lines[0] || line > d.Lines[1]) {
				continue
			}
			for j, r := range d.Rules {
				if names(f.Rule, r) {
					used[i][j] = true
					if f.Suppressed == "" {
						f.Suppressed = d.Reason
					}
				}
			}
		}
	}
	for i, d := range ds {
		var stale []string
		for j, r := range d.Rules {
			if !used[i][j] && slices.ContainsFunc(opt.Ran, func(k *diag.Rule) bool { return names(k, r) }) {
				stale = append(stale, r)
			}
		}
		if len(stale) == 0 {
			continue
		}
		where := "on this line or the next"
		if d.Kind == IgnoreFile {
			where = "in this file"
		}
		ns = append(ns, Notice{Level: "warning", File: d.File, Line: d.Line, Col: d.Col,
			Message: fmt.Sprintf("%s%s for %s matches no finding %s; remove it", Prefix, d.Kind, strings.Join(stale, ","), where)})
	}
	return ns
}

func kindRank(k string) int {
	if k == Ignore {
		return 0
	}
	return 1
}

// names reports whether a directive's rule name r names rule k: its ID, in
// any case, its name or a former name.
func names(k *diag.Rule, r string) bool {
	return strings.EqualFold(k.ID, r) || k.Named(r)
}

func quoteAll(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = "'" + s + "'"
	}
	return out
}
