package report

import (
	"io"

	"github.com/holdfast-dev/holdfast/diag"
)

// JSONVersion is the version of the JSON schema described in SCHEMA.md. It
// changes only when a key is removed or changes meaning; new keys may be
// added without a change.
const JSONVersion = 1

// The types below are the JSON format. Every key is always present, so a
// consumer never has to tell a missing key from an empty value; lists are
// [] when empty, never null. SCHEMA.md documents each key.

type jsonLog struct {
	Version  int           `json:"version"`
	Tool     jsonTool      `json:"tool"`
	Findings []jsonFinding `json:"findings"`
	Notices  []jsonNotice  `json:"notices"`
}

type jsonTool struct {
	Name           string `json:"name"`
	Version        string `json:"version"`
	InformationURI string `json:"informationUri"`
}

type jsonFinding struct {
	RuleID       string            `json:"ruleId"`
	RuleName     string            `json:"ruleName"`
	Severity     string            `json:"severity"`
	Message      string            `json:"message"`
	File         string            `json:"file"`
	Line         int               `json:"line"`
	Col          int               `json:"col"`
	EndLine      int               `json:"endLine"`
	EndCol       int               `json:"endCol"`
	Offset       int               `json:"offset"`
	EndOffset    int               `json:"endOffset"`
	Function     string            `json:"function"`
	Fingerprint  string            `json:"fingerprint"`
	Witness      []jsonStep        `json:"witness"`
	Verification *jsonVerification `json:"verification"`
	Suppressed   string            `json:"suppressed"`
}

type jsonStep struct {
	Kind    string `json:"kind"`
	File    string `json:"file"`
	Line    int    `json:"line"`
	Col     int    `json:"col"`
	EndLine int    `json:"endLine"`
	EndCol  int    `json:"endCol"`
	Value   string `json:"value"`
	Other   string `json:"other"`
	Via     string `json:"via"`
	Message string `json:"message"`
}

type jsonVerification struct {
	Verdict string          `json:"verdict"`
	Fault   string          `json:"fault"`
	Reason  string          `json:"reason"`
	Trace   []jsonTraceStep `json:"trace"`
	Fixed   []jsonTraceStep `json:"fixed"`
}

type jsonTraceStep struct {
	Thread string `json:"thread"`
	Text   string `json:"text"`
	File   string `json:"file"`
	Line   int    `json:"line"`
	Col    int    `json:"col"`
	Fault  string `json:"fault"`
}

type jsonNotice struct {
	Level   string `json:"level"`
	File    string `json:"file"`
	Line    int    `json:"line"`
	Message string `json:"message"`
}

// JSON prints findings as one JSON object, indented, in the schema that
// SCHEMA.md describes (version JSONVersion). Suppressed findings are always
// present and carry their reason in "suppressed"; not-reproduced ones only
// with Options.ShowAll, at severity "note". Positions are those of
// diag.Pos: 1-based lines, 1-based byte columns, 0-based byte offsets.
func JSON(w io.Writer, fs []*diag.Finding, opt Options) error {
	sel, err := selectFindings(fs, opt, true)
	if err != nil {
		return err
	}
	out := jsonLog{
		Version:  JSONVersion,
		Tool:     jsonTool{Name: toolName, Version: opt.ToolVersion, InformationURI: informationURI(opt)},
		Findings: make([]jsonFinding, 0, len(sel.shown)),
		Notices:  []jsonNotice{},
	}
	for _, f := range sel.shown {
		out.Findings = append(out.Findings, jsonFindingOf(f))
	}
	for _, n := range notices(opt.Notices) {
		out.Notices = append(out.Notices, jsonNotice(n))
	}
	return encodeJSON(w, out)
}

func jsonFindingOf(f *diag.Finding) jsonFinding {
	sev := severity(f)
	if notReproduced(f) {
		sev = diag.Note
	}
	jf := jsonFinding{
		RuleID:      f.Rule.ID,
		RuleName:    f.Rule.Name,
		Severity:    sev.String(),
		Message:     f.Message,
		File:        f.At.Start.File,
		Line:        f.At.Start.Line,
		Col:         f.At.Start.Col,
		EndLine:     f.At.End.Line,
		EndCol:      f.At.End.Col,
		Offset:      f.At.Start.Offset,
		EndOffset:   f.At.End.Offset,
		Function:    f.Function,
		Fingerprint: f.Fingerprint(),
		Witness:     make([]jsonStep, 0, len(f.Witness)),
		Suppressed:  f.Suppressed,
	}
	for _, s := range f.Witness {
		file := s.At.Start.File
		if file == "" {
			file = f.At.Start.File
		}
		jf.Witness = append(jf.Witness, jsonStep{
			Kind:    string(s.Kind),
			File:    file,
			Line:    s.At.Start.Line,
			Col:     s.At.Start.Col,
			EndLine: s.At.End.Line,
			EndCol:  s.At.End.Col,
			Value:   s.Value,
			Other:   s.Other,
			Via:     s.Via,
			Message: stepMessage(s),
		})
	}
	if v := f.Verification; v != nil {
		jf.Verification = &jsonVerification{
			Verdict: string(v.Verdict),
			Fault:   v.Fault,
			Reason:  v.Reason,
			Trace:   jsonTrace(f, v.Trace),
			Fixed:   jsonTrace(f, v.Fixed),
		}
	}
	return jf
}

func jsonTrace(f *diag.Finding, steps []diag.TraceStep) []jsonTraceStep {
	out := make([]jsonTraceStep, 0, len(steps))
	for _, s := range steps {
		js := jsonTraceStep{Thread: s.Thread, Text: s.Text, Fault: s.Fault}
		if s.At != nil {
			js.File = s.At.Start.File
			if js.File == "" {
				js.File = f.At.Start.File
			}
			js.Line = s.At.Start.Line
			js.Col = s.At.Start.Col
		}
		out = append(out, js)
	}
	return out
}
