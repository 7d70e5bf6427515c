package report

import (
	"cmp"
	"fmt"
	"io"
	"net/url"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/holdfast-dev/holdfast/diag"
)

// SARIF constants.
const (
	sarifSchema  = "https://json.schemastore.org/sarif-2.1.0.json"
	sarifVersion = "2.1.0"
	// srcRoot is the uriBaseId every artifact location is relative to.
	srcRoot = "%SRCROOT%"
	// fingerprintKey names holdfast's own partial fingerprint.
	fingerprintKey = "holdfastFingerprint/v1"
	// MaxSARIFResults is the most results GitHub code scanning accepts in
	// one run, and the default cap of Options.MaxSARIFResults.
	MaxSARIFResults = 25000
	// maxLocations caps relatedLocations and thread flow locations per
	// result, the most code scanning accepts.
	maxLocations = 1000
)

// The types below are the part of SARIF 2.1.0 that holdfast writes.
//
// They stand in for github.com/owenrumney/go-sarif/v3's v210/sarif package:
// that package imports github.com/xeipuuv/gojsonschema, which has no go.sum
// entry in this module, so it does not build here without changing go.mod
// and go.sum. Its constructors also fill every non-omitempty field with a
// default ("rank": -1, "index": -1, "byteOffset": -1 and a dozen empty
// arrays per result), which makes the log several times larger than what
// is written here. Field names and JSON keys follow the SARIF spec (and
// that package) one to one.

type sarifLog struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool               sarifTool                        `json:"tool"`
	Invocations        []sarifInvocation                `json:"invocations"`
	AutomationDetails  *sarifAutomationDetails          `json:"automationDetails,omitempty"`
	OriginalURIBaseIDs map[string]sarifArtifactLocation `json:"originalUriBaseIds,omitempty"`
	ColumnKind         string                           `json:"columnKind"`
	Results            []sarifResult                    `json:"results"`
}

type sarifTool struct {
	Driver sarifDriver `json:"driver"`
}

type sarifDriver struct {
	Name            string                     `json:"name"`
	Version         string                     `json:"version,omitempty"`
	SemanticVersion string                     `json:"semanticVersion,omitempty"`
	InformationURI  string                     `json:"informationUri,omitempty"`
	Rules           []sarifReportingDescriptor `json:"rules"`
}

type sarifReportingDescriptor struct {
	ID                   string                      `json:"id"`
	Name                 string                      `json:"name,omitempty"`
	ShortDescription     sarifMultiformatMessage     `json:"shortDescription"`
	FullDescription      sarifMultiformatMessage     `json:"fullDescription"`
	Help                 sarifMultiformatMessage     `json:"help"`
	HelpURI              string                      `json:"helpUri,omitempty"`
	DefaultConfiguration sarifReportingConfiguration `json:"defaultConfiguration"`
	Properties           sarifRuleProperties         `json:"properties"`
}

type sarifMultiformatMessage struct {
	Text     string `json:"text"`
	Markdown string `json:"markdown,omitempty"`
}

type sarifReportingConfiguration struct {
	Level string `json:"level"`
}

// sarifRuleProperties is a rule's property bag, in the keys GitHub code
// scanning reads.
type sarifRuleProperties struct {
	Tags             []string `json:"tags"`
	Precision        string   `json:"precision,omitempty"`
	ProblemSeverity  string   `json:"problem.severity"`
	SecuritySeverity string   `json:"security-severity,omitempty"`
}

type sarifInvocation struct {
	ExecutionSuccessful        bool                `json:"executionSuccessful"`
	ToolExecutionNotifications []sarifNotification `json:"toolExecutionNotifications,omitempty"`
}

type sarifNotification struct {
	Level     string          `json:"level"`
	Message   sarifMessage    `json:"message"`
	Locations []sarifLocation `json:"locations,omitempty"`
}

type sarifAutomationDetails struct {
	ID string `json:"id"`
}

type sarifMessage struct {
	Text string `json:"text"`
}

type sarifArtifactLocation struct {
	URI       string `json:"uri"`
	URIBaseID string `json:"uriBaseId,omitempty"`
}

type sarifLocation struct {
	ID               int                    `json:"id,omitempty"`
	PhysicalLocation *sarifPhysicalLocation `json:"physicalLocation,omitempty"`
	LogicalLocations []sarifLogicalLocation `json:"logicalLocations,omitempty"`
	Message          *sarifMessage          `json:"message,omitempty"`
}

type sarifPhysicalLocation struct {
	ArtifactLocation sarifArtifactLocation `json:"artifactLocation"`
	Region           *sarifRegion          `json:"region,omitempty"`
	ContextRegion    *sarifRegion          `json:"contextRegion,omitempty"`
}

type sarifRegion struct {
	StartLine   int                   `json:"startLine"`
	StartColumn int                   `json:"startColumn,omitempty"`
	EndLine     int                   `json:"endLine,omitempty"`
	EndColumn   int                   `json:"endColumn,omitempty"`
	Snippet     *sarifArtifactContent `json:"snippet,omitempty"`
}

type sarifArtifactContent struct {
	Text string `json:"text"`
}

type sarifLogicalLocation struct {
	Name               string `json:"name,omitempty"`
	FullyQualifiedName string `json:"fullyQualifiedName,omitempty"`
	Kind               string `json:"kind,omitempty"`
}

type sarifResult struct {
	RuleID              string             `json:"ruleId"`
	RuleIndex           int                `json:"ruleIndex"`
	Level               string             `json:"level"`
	Message             sarifMessage       `json:"message"`
	Locations           []sarifLocation    `json:"locations"`
	PartialFingerprints map[string]string  `json:"partialFingerprints"`
	RelatedLocations    []sarifLocation    `json:"relatedLocations,omitempty"`
	CodeFlows           []sarifCodeFlow    `json:"codeFlows,omitempty"`
	Suppressions        []sarifSuppression `json:"suppressions,omitempty"`
	Properties          *sarifResultProps  `json:"properties,omitempty"`
}

type sarifCodeFlow struct {
	ThreadFlows []sarifThreadFlow `json:"threadFlows"`
}

type sarifThreadFlow struct {
	ID        string                    `json:"id,omitempty"`
	Message   *sarifMessage             `json:"message,omitempty"`
	Locations []sarifThreadFlowLocation `json:"locations"`
}

type sarifThreadFlowLocation struct {
	Location   sarifLocation `json:"location"`
	Importance string        `json:"importance,omitempty"`
}

type sarifSuppression struct {
	Kind          string `json:"kind"`
	Justification string `json:"justification,omitempty"`
}

// sarifResultProps is a result's property bag.
type sarifResultProps struct {
	Verification       string `json:"verification"`
	VerificationFault  string `json:"verificationFault,omitempty"`
	VerificationReason string `json:"verificationReason,omitempty"`
}

// SARIF prints findings as a SARIF 2.1.0 log with one run, in the shape
// GitHub code scanning reads:
//
//   - tool.driver names holdfast and describes every rule (Options.Rules,
//     plus any rule a finding names that Rules lacks), in ID order; results
//     point at them with ruleId and ruleIndex;
//   - artifact URIs are relative to %SRCROOT%, which originalUriBaseIds
//     maps to the file:// URI of Options.Root;
//   - columns are UTF-16 code units (run.columnKind), converted from byte
//     columns with the source text when Options.Source has it;
//   - partialFingerprints["holdfastFingerprint/v1"] is Finding.Fingerprint,
//     which does not depend on positions;
//   - witness steps are relatedLocations and the first threadFlow of the
//     result's codeFlow; the replay trace, when there is one, is the second;
//   - properties.verification is the verdict of a verified finding;
//   - suppressed findings stay, with an inSource suppression;
//   - notices and any cut of results beyond Options.MaxSARIFResults are
//     toolExecutionNotifications of invocations[0].
//
// Not-reproduced findings appear only with Options.ShowAll, at level note.
func SARIF(w io.Writer, fs []*diag.Finding, opt Options) error {
	sel, err := selectFindings(fs, opt, true)
	if err != nil {
		return err
	}
	run := sarifRun{
		Tool: sarifTool{Driver: sarifDriver{
			Name:            toolName,
			Version:         opt.ToolVersion,
			SemanticVersion: semanticVersion(opt.ToolVersion),
			InformationURI:  informationURI(opt),
		}},
		ColumnKind: "utf16CodeUnits",
		Results:    []sarifResult{},
	}
	if opt.AutomationID != "" {
		run.AutomationDetails = &sarifAutomationDetails{ID: opt.AutomationID}
	}
	if opt.Root != "" {
		root, err := rootURI(opt.Root)
		if err != nil {
			return err
		}
		run.OriginalURIBaseIDs = map[string]sarifArtifactLocation{srcRoot: {URI: root}}
	}

	rules, index := ruleSet(opt.Rules, sel.shown)
	run.Tool.Driver.Rules = make([]sarifReportingDescriptor, 0, len(rules))
	for _, r := range rules {
		run.Tool.Driver.Rules = append(run.Tool.Driver.Rules, descriptor(r, opt.DocsURL))
	}

	limit := opt.MaxSARIFResults
	if limit <= 0 {
		limit = MaxSARIFResults
	}
	kept, dropped := cut(sel.shown, limit)
	b := &sarifBuilder{src: newSources(opt.Source)}
	for _, f := range kept {
		run.Results = append(run.Results, b.result(f, index[f.Rule.ID]))
	}

	inv := sarifInvocation{ExecutionSuccessful: true}
	for _, n := range notices(opt.Notices) {
		sn := sarifNotification{Level: n.Level, Message: sarifMessage{Text: sentence(n.Message)}}
		if n.File != "" {
			pl := &sarifPhysicalLocation{ArtifactLocation: artifact(n.File)}
			if n.Line > 0 {
				pl.Region = &sarifRegion{StartLine: n.Line}
			}
			sn.Locations = []sarifLocation{{PhysicalLocation: pl}}
		}
		inv.ToolExecutionNotifications = append(inv.ToolExecutionNotifications, sn)
	}
	if dropped > 0 {
		inv.ToolExecutionNotifications = append(inv.ToolExecutionNotifications, sarifNotification{
			Level: "warning",
			Message: sarifMessage{Text: fmt.Sprintf(
				"%d of %d results were dropped: GitHub code scanning accepts at most %d results per run, so only the %d most severe are kept.",
				dropped, len(sel.shown), limit, limit)},
		})
	}
	run.Invocations = []sarifInvocation{inv}

	log := sarifLog{Schema: sarifSchema, Version: sarifVersion, Runs: []sarifRun{run}}
	return encodeJSON(w, log)
}

// rootURI is the file:// URI of an absolute OS path, ending with '/'.
func rootURI(root string) (string, error) {
	if !filepath.IsAbs(root) {
		return "", fmt.Errorf("scan root %q is not an absolute path", root)
	}
	p := filepath.ToSlash(root)
	if !strings.HasPrefix(p, "/") {
		p = "/" + p // a Windows drive: C:/src becomes /C:/src
	}
	if !strings.HasSuffix(p, "/") {
		p += "/"
	}
	u := url.URL{Scheme: "file", Path: p}
	return u.String(), nil
}

// artifact is the location of a file relative to %SRCROOT%, as a URI
// reference: percent-encoded, and never mistakable for a scheme. A file
// outside the scan root (its path is absolute) gets an absolute file URI
// and no base.
func artifact(file string) sarifArtifactLocation {
	if strings.HasPrefix(file, "/") {
		u := url.URL{Scheme: "file", Path: file}
		return sarifArtifactLocation{URI: u.String()}
	}
	u := url.URL{Path: file}
	return sarifArtifactLocation{URI: u.String(), URIBaseID: srcRoot}
}

// ruleSet returns the rules to describe, sorted by ID without duplicates,
// and each rule's index among them by ID.
func ruleSet(given []*diag.Rule, fs []*diag.Finding) ([]*diag.Rule, map[string]int) {
	var rules []*diag.Rule
	seen := map[string]bool{}
	add := func(r *diag.Rule) {
		if r != nil && !seen[r.ID] {
			seen[r.ID] = true
			rules = append(rules, r)
		}
	}
	for _, r := range given {
		add(r)
	}
	for _, f := range fs {
		add(f.Rule)
	}
	slices.SortStableFunc(rules, func(a, b *diag.Rule) int { return cmp.Compare(a.ID, b.ID) })
	index := make(map[string]int, len(rules))
	for i, r := range rules {
		index[r.ID] = i
	}
	return rules, index
}

// sarifLevel maps a severity onto SARIF's level.
func sarifLevel(s diag.Severity) string {
	switch s {
	case diag.Error:
		return "error"
	case diag.Note:
		return "note"
	}
	return "warning"
}

// problemSeverity maps a severity onto GitHub's problem.severity.
func problemSeverity(s diag.Severity) string {
	switch s {
	case diag.Error:
		return "error"
	case diag.Note:
		return "recommendation"
	}
	return "warning"
}

// descriptor is a rule's SARIF reportingDescriptor. A rule with a CWE is
// tagged "security" and its CWEs ("external/cwe/cwe-416", as code scanning
// reads them) and carries a security-severity; the others are tagged
// "correctness". helpUri is the rule's page, docs/rules/<ID>.md under docs
// (Options.DocsURL); there is none when docs is empty.
func descriptor(r *diag.Rule, docs string) sarifReportingDescriptor {
	sev := r.Severity
	if sev < diag.Note || sev > diag.Error {
		sev = diag.Warning
	}
	summary := cmp.Or(r.Summary, r.Name, r.ID)
	full := cmp.Or(strings.TrimSpace(r.Help), summary)
	props := sarifRuleProperties{Precision: r.Precision, ProblemSeverity: problemSeverity(sev)}
	if r.Security() {
		props.Tags = append(props.Tags, "security")
		for _, c := range r.CWE {
			props.Tags = append(props.Tags, fmt.Sprintf("external/cwe/cwe-%d", c))
		}
		props.SecuritySeverity = r.SecuritySeverity()
	} else {
		props.Tags = append(props.Tags, "correctness")
	}
	for _, t := range r.Tags {
		if !slices.Contains(props.Tags, t) {
			props.Tags = append(props.Tags, t)
		}
	}
	d := sarifReportingDescriptor{
		ID:                   r.ID,
		Name:                 r.Name,
		ShortDescription:     sarifMultiformatMessage{Text: sentence(summary)},
		FullDescription:      sarifMultiformatMessage{Text: sentence(full)},
		Help:                 help(r, summary, full),
		DefaultConfiguration: sarifReportingConfiguration{Level: sarifLevel(sev)},
		Properties:           props,
	}
	if r.ID != "" {
		d.HelpURI = docsPage(docs, "docs/rules/"+url.PathEscape(r.ID)+".md")
	}
	return d
}

// help is a rule's help in plain text and Markdown: what it finds, an
// example of bad and good code, and the fix.
func help(r *diag.Rule, summary, full string) sarifMultiformatMessage {
	var t, m strings.Builder
	t.WriteString(r.ID + ": " + sentence(summary) + "\n\n" + sentence(full) + "\n")
	m.WriteString("**" + r.ID + "**: " + sentence(summary) + "\n\n" + sentence(full) + "\n")
	if bad := strings.TrimRight(r.Example.Bad, "\n"); bad != "" {
		t.WriteString("\nBad:\n\n" + indent(bad) + "\n")
		m.WriteString("\n#### Bad\n\n```cpp\n" + bad + "\n```\n")
	}
	if good := strings.TrimRight(r.Example.Good, "\n"); good != "" {
		t.WriteString("\nGood:\n\n" + indent(good) + "\n")
		m.WriteString("\n#### Good\n\n```cpp\n" + good + "\n```\n")
	}
	if fix := strings.TrimSpace(r.Fix); fix != "" {
		t.WriteString("\nFix: " + sentence(fix) + "\n")
		m.WriteString("\n#### Fix\n\n" + sentence(fix) + "\n")
	}
	return sarifMultiformatMessage{Text: t.String(), Markdown: m.String()}
}

func indent(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		if l != "" {
			lines[i] = "    " + l
		}
	}
	return strings.Join(lines, "\n")
}

// sentence ends s with a period unless it already ends a sentence, as
// SARIF asks of every message.
func sentence(s string) string {
	s = strings.TrimSpace(s)
	if s == "" || strings.HasSuffix(s, ".") || strings.HasSuffix(s, "!") || strings.HasSuffix(s, "?") {
		return s
	}
	return s + "."
}

// cut keeps at most limit findings: unsuppressed before suppressed, then
// the most severe, then the first in sorted order. The kept ones stay in
// their order. It returns them with how many it dropped.
func cut(fs []*diag.Finding, limit int) ([]*diag.Finding, int) {
	if len(fs) <= limit {
		return fs, 0
	}
	order := make([]int, len(fs))
	for i := range order {
		order[i] = i
	}
	rank := func(f *diag.Finding) int {
		r := int(severity(f))
		if notReproduced(f) {
			r = int(diag.Note)
		}
		if f.Suppressed != "" {
			r -= 10
		}
		return r
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(rank(fs[b]), rank(fs[a])) })
	order = order[:limit]
	slices.Sort(order)
	kept := make([]*diag.Finding, 0, limit)
	for _, i := range order {
		kept = append(kept, fs[i])
	}
	return kept, len(fs) - limit
}

// sarifBuilder turns findings into results, reading each source file once.
type sarifBuilder struct {
	src *sources
}

// region is span's SARIF region in UTF-16 columns, or nil when span has no
// line. With snippet set, it carries the span's text.
func (b *sarifBuilder) region(file string, span diag.Span, snippet bool) *sarifRegion {
	s, e := span.Start, span.End
	if s.Line < 1 {
		return nil
	}
	r := &sarifRegion{StartLine: s.Line}
	if s.Col >= 1 {
		r.StartColumn = b.src.utf16Col(file, s.Line, s.Col)
	}
	if e.Line > s.Line || (e.Line == s.Line && e.Col >= s.Col && s.Col >= 1) {
		r.EndLine = e.Line
		if e.Col >= 1 && r.StartColumn >= 1 {
			r.EndColumn = b.src.utf16Col(file, e.Line, e.Col)
		}
	}
	if snippet && r.StartColumn >= 1 && r.EndColumn >= 1 {
		if text, ok := b.src.text(file, s.Line, s.Col, e.Line, e.Col); ok && len(text) <= maxSARIFSnippet {
			r.Snippet = &sarifArtifactContent{Text: text}
		}
	}
	return r
}

// maxSARIFSnippet is the longest snippet or context region SARIF carries,
// in bytes. A longer one (a line of minified code) is left out rather than
// cut, since a snippet claims to be the region's exact text.
const maxSARIFSnippet = 4096

// contextRegion is the whole lines of span with their text, when the
// source has them.
func (b *sarifBuilder) contextRegion(file string, span diag.Span) *sarifRegion {
	s, e := span.Start.Line, max(span.End.Line, span.Start.Line)
	text, ok := b.src.lines(file, s, e)
	if s < 1 || !ok || len(text) > maxSARIFSnippet {
		return nil
	}
	return &sarifRegion{StartLine: s, EndLine: e, Snippet: &sarifArtifactContent{Text: text}}
}

func (b *sarifBuilder) location(file string, span diag.Span, msg string) sarifLocation {
	if span.Start.File != "" {
		file = span.Start.File
	}
	l := sarifLocation{PhysicalLocation: &sarifPhysicalLocation{
		ArtifactLocation: artifact(file),
		Region:           b.region(file, span, false),
	}}
	if msg != "" {
		l.Message = &sarifMessage{Text: sentence(msg)}
	}
	return l
}

func (b *sarifBuilder) result(f *diag.Finding, ruleIndex int) sarifResult {
	file := f.At.Start.File
	sev := severity(f)
	if notReproduced(f) {
		sev = diag.Note
	}
	primary := sarifLocation{PhysicalLocation: &sarifPhysicalLocation{
		ArtifactLocation: artifact(file),
		Region:           b.region(file, f.At, true),
		ContextRegion:    b.contextRegion(file, f.At),
	}}
	if f.Function != "" {
		name := f.Function
		if i := strings.LastIndex(name, "::"); i >= 0 {
			name = name[i+2:]
		}
		primary.LogicalLocations = []sarifLogicalLocation{{Name: name, FullyQualifiedName: f.Function, Kind: "function"}}
	}
	res := sarifResult{
		RuleID:              f.Rule.ID,
		RuleIndex:           ruleIndex,
		Level:               sarifLevel(sev),
		Message:             sarifMessage{Text: resultMessage(f)},
		Locations:           []sarifLocation{primary},
		PartialFingerprints: map[string]string{fingerprintKey: f.Fingerprint()},
	}

	witness := make([]sarifThreadFlowLocation, 0, len(f.Witness))
	for i, s := range f.Witness {
		msg := stepMessage(s)
		if i < maxLocations {
			l := b.location(file, s.At, msg)
			l.ID = i + 1
			res.RelatedLocations = append(res.RelatedLocations, l)
			witness = append(witness, sarifThreadFlowLocation{Location: b.location(file, s.At, msg)})
		}
	}
	if len(witness) > 0 {
		flows := []sarifThreadFlow{{
			ID:        "witness",
			Message:   &sarifMessage{Text: "The lifetime story: where the owner lives and dies, and where its memory is used."},
			Locations: witness,
		}}
		if v := f.Verification; v != nil && len(v.Trace) > 0 {
			flows = append(flows, b.traceFlow(f, v))
		}
		res.CodeFlows = []sarifCodeFlow{{ThreadFlows: flows}}
	} else if v := f.Verification; v != nil && len(v.Trace) > 0 {
		res.CodeFlows = []sarifCodeFlow{{ThreadFlows: []sarifThreadFlow{b.traceFlow(f, v)}}}
	}

	if f.Suppressed != "" {
		res.Suppressions = []sarifSuppression{{Kind: "inSource", Justification: f.Suppressed}}
	}
	if v := f.Verification; v != nil {
		res.Properties = &sarifResultProps{
			Verification:       string(v.Verdict),
			VerificationFault:  v.Fault,
			VerificationReason: v.Reason,
		}
	}
	return res
}

// traceFlow is the replay on the simulated device as a threadFlow. Steps
// name their thread in the message; a step without a source position has
// the finding's location, with the step's own message.
func (b *sarifBuilder) traceFlow(f *diag.Finding, v *diag.Verification) sarifThreadFlow {
	head := "Replay on the simulated device: " + verdictText(v.Verdict)
	if v.Fault != "" {
		head += " (" + v.Fault + ")"
	}
	tf := sarifThreadFlow{ID: "replay", Message: &sarifMessage{Text: sentence(head)}}
	for i, s := range v.Trace {
		if i >= maxLocations {
			break
		}
		msg := "[" + s.Thread + "] " + s.Text
		if s.Fault != "" {
			msg = sentence(msg) + " Fault: " + s.Fault
		}
		// A step with no source position of its own (the device's own
		// work: the next allocation, a kernel running) is placed at the
		// finding, so code scanning can show every step of the flow.
		at := f.At
		if s.At != nil {
			at = *s.At
		}
		l := b.location(f.At.Start.File, at, msg)
		tl := sarifThreadFlowLocation{Location: l}
		if s.Fault != "" {
			tl.Importance = "essential"
		}
		tf.Locations = append(tf.Locations, tl)
	}
	return tf
}

// resultMessage is the finding's message as a sentence, followed by what
// the simulated device said, so code scanning's alert shows the verdict.
func resultMessage(f *diag.Finding) string {
	msg := sentence(f.Message)
	v := f.Verification
	if v == nil {
		return msg
	}
	var s string
	switch v.Verdict {
	case diag.Confirmed:
		s = "Confirmed on the simulated device"
	case diag.Latent:
		s = "Latent on the simulated device: it faults only if code holdfast cannot see does not prevent it"
	case diag.NotReproduced:
		s = "Not reproduced on the simulated device"
	case diag.NotModelled:
		s = "Not modelled by the simulated device"
	default:
		s = "Simulated device verdict: " + strconv.Quote(string(v.Verdict))
	}
	if v.Fault != "" {
		s += " (" + v.Fault + ")"
	}
	if v.Reason != "" {
		s += ": " + strings.TrimSpace(v.Reason)
	}
	return msg + " " + sentence(s)
}

// semanticVersion is v when it is a semantic version (it starts with a
// digit: "0.1.0", "0.0.0-20261201122253-d26192a1b2c3"), and "" otherwise
// ("devel"), which leaves SARIF's semanticVersion out.
func semanticVersion(v string) string {
	if v == "" || v[0] < '0' || v[0] > '9' {
		return ""
	}
	return v
}
