package report

import (
	"io"
	"strconv"
	"strings"

	"github.com/holdfast-dev/holdfast/diag"
	"github.com/holdfast-dev/holdfast/internal/esc"
)

// GitHub prints one GitHub Actions workflow command per finding, which the
// runner turns into an annotation on the pull request:
//
//	::warning file=src/a.cc,line=12,endLine=12,col=5,endColumn=17,title=HF-B001 raw-pointer-escapes-owner::<message>
//
// The level is error, warning or notice (for note). The message goes on
// with the witness steps and the verdict, one per line. Columns are UTF-16
// code units when Options.Source has the file, as in SARIF; paths are
// relative to the scan root, so the scan root should be the repository
// root. Notices follow the findings as annotations titled "holdfast".
// Values are escaped as the runner expects: %, CR and LF everywhere, and
// also ':' and ',' in properties.
func GitHub(w io.Writer, fs []*diag.Finding, opt Options) error {
	sel, err := selectFindings(fs, opt, false)
	if err != nil {
		return err
	}
	ew := &errWriter{w: w}
	src := newSources(opt.Source)
	for _, f := range sel.shown {
		ew.str(githubFinding(f, src) + "\n")
	}
	for _, n := range notices(opt.Notices) {
		props := [][2]string{}
		if n.File != "" {
			props = append(props, [2]string{"file", n.File})
			if n.Line > 0 {
				props = append(props, [2]string{"line", strconv.Itoa(n.Line)})
			}
		}
		props = append(props, [2]string{"title", toolName})
		ew.str(command(annotationLevel(n.Level), props, n.Message) + "\n")
	}
	return ew.err
}

// annotationLevel maps a level onto a workflow command: error, warning or
// notice.
func annotationLevel(l string) string {
	switch l {
	case "error", "warning":
		return l
	}
	return "notice"
}

func githubFinding(f *diag.Finding, src *sources) string {
	file := f.At.Start.File
	s, e := f.At.Start, f.At.End
	props := [][2]string{{"file", file}}
	if s.Line > 0 {
		props = append(props, [2]string{"line", strconv.Itoa(s.Line)})
		if e.Line >= s.Line {
			props = append(props, [2]string{"endLine", strconv.Itoa(e.Line)})
		}
		if s.Col > 0 {
			props = append(props, [2]string{"col", strconv.Itoa(src.utf16Col(file, s.Line, s.Col))})
			if e.Line == s.Line && e.Col >= s.Col {
				props = append(props, [2]string{"endColumn", strconv.Itoa(src.utf16Col(file, e.Line, e.Col))})
			}
		}
	}
	title := f.Rule.ID
	if f.Rule.Name != "" {
		title += " " + f.Rule.Name
	}
	props = append(props, [2]string{"title", title})

	lines := []string{f.Message}
	for _, st := range f.Witness {
		where := ""
		if st.At.Start.File != "" && st.At.Start.File != file {
			where = esc.Name(st.At.Start.File) + ":"
		}
		if st.At.Start.Line > 0 {
			where += "line " + strconv.Itoa(st.At.Start.Line) + ": "
		}
		lines = append(lines, "  "+where+stepMessage(st))
	}
	if f.Suppressed != "" {
		lines = append(lines, "suppressed: "+f.Suppressed)
	}
	if v := f.Verification; v != nil {
		l := "verification: " + verdictText(v.Verdict)
		if v.Fault != "" {
			l += " (" + faultText(v.Fault) + ")"
		}
		if v.Reason != "" {
			l += " — " + v.Reason
		}
		lines = append(lines, l)
	}
	return command(annotationLevel(shownSeverity(f).String()), props, strings.Join(lines, "\n"))
}

// command formats a workflow command: ::name k=v,k=v::message. Property
// values are escaped as names and each line of the message as text (see
// package esc) before the runner's own escaping, so nothing from the
// scanned tree reaches the log raw.
func command(name string, props [][2]string, msg string) string {
	var b strings.Builder
	b.WriteString("::" + name)
	for i, p := range props {
		if i == 0 {
			b.WriteString(" ")
		} else {
			b.WriteString(",")
		}
		b.WriteString(p[0] + "=" + escapeProperty(esc.Name(p[1])))
	}
	lines := strings.Split(msg, "\n")
	for i, l := range lines {
		lines[i] = esc.Text(l)
	}
	b.WriteString("::" + escapeData(strings.Join(lines, "\n")))
	return b.String()
}

// escapeData escapes a workflow command's message.
func escapeData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

// escapeProperty escapes a workflow command's property value.
func escapeProperty(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}
