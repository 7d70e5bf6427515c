// Package diag holds the data that travels between holdfast's stages: rule
// metadata, findings with their witness, and the verification verdict.
// It has no behaviour beyond ordering and fingerprinting, so every stage can
// depend on it without depending on another stage.
package diag

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"slices"
	"strconv"
)

// Severity is a finding's level, ordered note < warning < error.
type Severity int

// Severities, in increasing order.
const (
	Note Severity = iota + 1
	Warning
	Error
)

func (s Severity) String() string {
	switch s {
	case Note:
		return "note"
	case Warning:
		return "warning"
	case Error:
		return "error"
	}
	return "severity(" + strconv.Itoa(int(s)) + ")"
}

// ParseSeverity reads "note", "warning" or "error".
func ParseSeverity(s string) (Severity, bool) {
	switch s {
	case "note":
		return Note, true
	case "warning":
		return Warning, true
	case "error":
		return Error, true
	}
	return 0, false
}

// Example is a bad/good pair shown by `holdfast explain`, the docs and SARIF.
type Example struct {
	Bad  string
	Good string
}

// Rule is a rule's metadata. One value drives `holdfast rules`,
// `holdfast explain`, docs/rules and the SARIF rule descriptors.
type Rule struct {
	ID        string   // stable, e.g. "HF-B001"
	Name      string   // kebab-case, e.g. "raw-pointer-escapes-owner"
	Class     string   // bug class letter from RULES.md, e.g. "B"
	Severity  Severity // default severity
	Precision string   // SARIF precision: "very-high", "high", "medium", "low"
	Summary   string   // one line, lower case, no trailing period
	// Help answers, in order: what it does, why it is bad, known problems.
	Help    string
	Example Example
	Fix     string // what to write instead
	// Hint is Fix cut to a few words, for the hint line under a finding
	// in the text format; Fix stays the full advice of the docs.
	Hint string
	Tags []string
	// CWE lists the Common Weakness Enumeration IDs of the bug the rule
	// finds (416 use after free, 825 expired pointer dereference, 362
	// race). A rule with a CWE is a security rule; one without finds
	// correctness bugs (lost writes, deadlocks, lost errors).
	CWE []int
	// Former lists names the rule had before: they still name it
	// wherever a name is accepted, so old suppressions and
	// configurations keep working.
	Former []string
	// CoreDecides: the semantic core's execution of the function decides
	// the rule's findings. A finding of the rule's own reading that the
	// core did not make is at most latent: the reading rests on what the
	// code does not show (an accessor's or a destructor's body, a type's
	// behaviour), and its replay shows only that reading.
	CoreDecides bool
}

// Security reports whether the rule finds a security bug: it has a CWE.
func (r *Rule) Security() bool {
	return len(r.CWE) > 0
}

// SecuritySeverity is GitHub code scanning's security-severity of a
// security rule, by its default severity: high (8.0) for an error, low
// (3.0) for a note, medium (5.5) otherwise; "" for a rule without a CWE.
func (r *Rule) SecuritySeverity() string {
	if !r.Security() {
		return ""
	}
	switch r.Severity {
	case Error:
		return "8.0"
	case Note:
		return "3.0"
	}
	return "5.5"
}

// Named reports whether s names the rule: its ID, its name or a former
// name, as written (suppressions also accept the ID in any case).
func (r *Rule) Named(s string) bool {
	return s != "" && (s == r.ID || s == r.Name || slices.Contains(r.Former, s))
}

// Pos is a position in a scanned file. Offsets are bytes; Line and Col are
// 1-based, Col counted in bytes.
type Pos struct {
	File   string // path relative to the scan root, slash-separated
	Offset int
	Line   int
	Col    int
}

// Span is a half-open byte range with the positions of both ends.
type Span struct {
	Start Pos
	End   Pos
}

// StepKind says what a witness step is about.
type StepKind string

// Witness step kinds. They mirror the lifetime model's events that a
// simulated replay can interpret.
const (
	StepDeclare   StepKind = "declare"    // an owner is declared
	StepBorrow    StepKind = "borrow"     // a raw pointer or reference is taken from an owner
	StepStore     StepKind = "store"      // a value is stored into a container or member
	StepAsync     StepKind = "async"      // async device work starts on a buffer
	StepCallback  StepKind = "callback"   // a continuation is registered
	StepWait      StepKind = "wait"       // the host blocks until work is done
	StepBlock     StepKind = "block"      // the host blocks on something unrelated (rendezvous)
	StepOwnerDies StepKind = "owner-dies" // the last owner goes out of scope or is reset
	StepMove      StepKind = "move"       // a value is moved into a consumer
	StepUse       StepKind = "use"        // a borrowed pointer or handle is used
	StepMutate    StepKind = "mutate"     // in-place mutation
	StepMaterial  StepKind = "materialise"
	StepFree      StepKind = "free"
	StepEscape    StepKind = "escape" // a future or pointer leaves the function
	StepWrite     StepKind = "write"  // the device writes a buffer
	StepDeclHold  StepKind = "hold"   // a hold container is declared
	// StepMayWait: code holdfast cannot see (an unknown call, a host
	// rendezvous the callback also touches) is handed the future, event,
	// stream or shared object named by Value after the work started, and
	// may wait for the work there.
	StepMayWait StepKind = "may-wait"
	// StepMayHold: code holdfast cannot see is handed the owner named by
	// Value (a reference-counted copy of it), and may keep it alive.
	StepMayHold StepKind = "may-hold"
)

// Step is one event of a finding's witness, in program order.
type Step struct {
	Kind    StepKind
	At      Span
	Value   string // the value the step is about, e.g. "device_buffer"
	Other   string // the second value (owner of a borrow, container of a store)
	Via     string // the call or construct that makes the step, e.g. "AwaitBuffer", "push_back", "}"
	Message string // a short, lower-case note shown under the finding
	// Assumed marks a step that happens only if code holdfast cannot see
	// does it (a caller dropping the object). A replay that needs an
	// assumed step to fault is latent, never confirmed.
	Assumed bool
}

// Unknown reports whether the step stands for code holdfast cannot see.
func (s Step) Unknown() bool {
	return s.Kind == StepMayWait || s.Kind == StepMayHold || s.Assumed
}

// Verdict is the outcome of replaying a finding on the simulated device.
type Verdict string

// Verdicts. Confirmed: the function's own path faults on the device
// whatever the code holdfast cannot see does. Latent: it faults only if that
// code does not help (does not wait, does not keep the owner alive) or does
// what the finding assumes (drops the object). NotReproduced: the path is
// clean. NotModelled: the path has what the device cannot execute.
const (
	Confirmed     Verdict = "confirmed"
	Latent        Verdict = "latent"
	NotReproduced Verdict = "not-reproduced"
	NotModelled   Verdict = "not-modelled"
)

// Verdicts returns every verdict, in the order the docs list them. The
// slice is new on each call.
func Verdicts() []Verdict {
	return []Verdict{Confirmed, Latent, NotReproduced, NotModelled}
}

// Shown reports whether a finding with verdict v is shown by default (and
// counts towards the exit status): only confirmed findings, and findings
// that were not replayed at all (v == ""), are. The rest appear with --all.
func (v Verdict) Shown() bool {
	return v == Confirmed || v == ""
}

// TraceStep is one step of a replay on the simulated device.
type TraceStep struct {
	Thread string // "host", "stream:compute", "callback", ...
	Text   string
	At     *Span // the source position the step replays, if any
	Fault  string
}

// Verification is what the simulated device said about a finding.
type Verification struct {
	Verdict Verdict
	Fault   string // the fault kind of the run as written, if any
	Reason  string // one line: why this verdict
	Trace   []TraceStep
	Fixed   []TraceStep // the run with the rule's fix applied
}

// Finding is one report of one rule.
type Finding struct {
	Rule     *Rule
	Severity Severity
	At       Span
	Message  string
	Function string // enclosing function, qualified where known
	Witness  []Step
	// Anchor is what identifies the finding independent of line numbers:
	// typically the owner and pointer names. It feeds the fingerprint.
	Anchor       string
	Verification *Verification
	Suppressed   string // reason, when an in-source suppression matched
}

// Fingerprint is stable when unrelated lines move: it hashes the rule, the
// file, the enclosing function and the anchor (the names the finding is
// about), never positions or the message, which quotes line numbers. A
// finding without an anchor falls back to its message.
func (f *Finding) Fingerprint() string {
	h := sha256.New()
	anchor := f.Anchor
	if anchor == "" {
		anchor = f.Message
	}
	for _, s := range []string{f.Rule.ID, f.At.Start.File, f.Function, anchor} {
		h.Write([]byte(s))
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil))[:32]
}

// Sort orders findings by file, offset, rule and message, then drops exact
// duplicates, so every output is deterministic.
func Sort(fs []*Finding) []*Finding {
	slices.SortStableFunc(fs, func(a, b *Finding) int {
		return cmp.Or(
			cmp.Compare(a.At.Start.File, b.At.Start.File),
			cmp.Compare(a.At.Start.Offset, b.At.Start.Offset),
			cmp.Compare(a.Rule.ID, b.Rule.ID),
			cmp.Compare(a.Message, b.Message),
		)
	})
	return slices.CompactFunc(fs, func(a, b *Finding) bool {
		return a.Rule.ID == b.Rule.ID && a.At == b.At && a.Message == b.Message
	})
}
