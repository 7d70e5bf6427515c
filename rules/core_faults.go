package rules

import (
	"fmt"
	"slices"
	"strings"

	"github.com/holdfast-dev/holdfast/core"
	"github.com/holdfast-dev/holdfast/diag"
	"github.com/holdfast-dev/holdfast/lifetime"
	"github.com/holdfast-dev/holdfast/parser"
	"github.com/holdfast-dev/holdfast/summary"
)

// The semantic core (package core) executes every path of a function
// once; the rules below name the faults it finds. A fault is confirmed by
// the execution itself: it happens on a path of the function, given the
// tree's code and the documented behaviour of the calls it makes.

// coreFaults returns the faults of fn's execution, executing it once per
// pass. Lambdas are executed with the function that writes them.
func (p *Pass) coreFaults(fn *lifetime.Func) []core.Fault {
	lambda := fn.Kind == lifetime.LambdaFunc && p.File.Kind(fn.Node) == parser.KindLambdaExpression
	if !lambda && p.File.Kind(fn.Node) != parser.KindFunctionDefinition {
		return nil
	}
	if lambda && fn.Parent != nil {
		// Called where it is made: its faults are the enclosing function's,
		// on the paths that call it. Otherwise (handed on, stored) its body
		// runs on its own.
		p.coreFaults(fn.Parent)
		for a := fn.Parent; a != nil; a = a.Parent {
			if p.coreRan[a.Node][fn.Node] {
				return nil
			}
		}
	}
	p.summaries()
	if fs, ok := p.core[fn.Node]; ok {
		return fs
	}
	r := p.coreSums.Execute(fn.Node)
	p.core[fn.Node] = r.Faults
	if r.Cut || r.Merged {
		// Named with its line: overloads and lambdas share a name.
		line, _ := p.File.Position(int(p.File.Nodes[fn.Node].Start))
		name := fmt.Sprintf("%s (line %d)", p.funcName(fn), line)
		if r.Cut {
			p.coreCut = append(p.coreCut, name)
		} else {
			p.coreMerged = append(p.coreMerged, name)
		}
	}
	if len(r.Ran) > 0 {
		if p.coreRan == nil {
			p.coreRan = map[parser.NodeID]map[parser.NodeID]bool{}
		}
		ran := map[parser.NodeID]bool{}
		for _, n := range r.Ran {
			ran[n] = true
		}
		p.coreRan[fn.Node] = ran
	}
	return r.Faults
}

// reportCore reports fn's faults of the given kinds under the running
// rule, skipping lines where the rule already reported.
func (p *Pass) reportCore(fn *lifetime.Func, kinds ...core.FaultKind) {
	p.reportCoreIf(fn, func(fl core.Fault) bool { return slices.Contains(kinds, fl.Kind) })
}

// reportCoreIf reports fn's faults that keep says are the running rule's.
func (p *Pass) reportCoreIf(fn *lifetime.Func, keep func(core.Fault) bool) {
	for _, fl := range p.coreFaults(fn) {
		if !keep(fl) {
			continue
		}
		use := p.File.Nodes[fl.Use]
		span := p.Span(use.Start, use.End)
		if p.otherRuleAt(span) {
			// Another rule named this use already (a free by a function
			// of the tree is HF-B002's): one report per bug.
			continue
		}
		if p.reportedAt(span.Start.Line) {
			// The rule's own reading reported this bug already. When it
			// put the report elsewhere (where the borrow began) and names
			// this line as its use, the core's report, at the use, takes
			// its place.
			i := p.usedAt(span.Start.Line)
			if i < 0 && p.rule.Meta.CoreDecides {
				// The core decides this rule: its report of the line
				// takes the place of the rule's own reading.
				i = p.ownAt(span.Start.Line)
			}
			if i < 0 {
				continue
			}
			// Out of a copy: what Steps yielded stays as it was.
			p.findings = slices.Delete(slices.Clone(p.findings), i, i+1)
		}
		if i := p.sameDeath(fl); i >= 0 {
			// The rule's own reading told the same death of the same
			// owner from another line: the core's report takes its place.
			p.findings = slices.Delete(slices.Clone(p.findings), i, i+1)
		}
		msg, detail, fault := coreMessage(p, fl)
		if fl.Call != parser.None {
			line, _ := p.File.Position(int(p.File.Nodes[fl.Call].Start))
			msg += fmt.Sprintf(", in the closure called at line %d", line)
		}
		var witness []diag.Step
		if fl.Lent > 0 && fl.Lent != fl.Use {
			lent := p.File.Nodes[fl.Lent]
			witness = append(witness, diag.Step{Kind: diag.StepBorrow, At: p.Span(lent.Start, lent.End), Value: fl.Owner,
				Message: fmt.Sprintf("a pointer into the memory of %s is taken here", quote(fl.Owner))})
		}
		if fl.Kind == core.OverRelease && fl.End != parser.None && fl.End != fl.Use {
			end := p.File.Nodes[fl.End]
			msg := fmt.Sprintf("%s returns the object here without giving the caller a reference", quote(fl.Owner))
			if fl.Owned {
				msg = fmt.Sprintf("%s gives the caller a reference here", quote(fl.Owner))
			}
			witness = append(witness, diag.Step{Kind: diag.StepBorrow, At: p.Span(end.Start, end.End), Value: fl.Owner, Message: msg})
		} else if fl.End != parser.None && fl.Kind != core.HostReadsPending && fl.Kind != core.HostWritesPending && fl.Kind != core.LeftStale && fl.Kind != core.OverRelease {
			end := p.File.Nodes[fl.End]
			if p.File.Kind(fl.End) == parser.KindCompoundStatement {
				// A block's locals end at its closing brace.
				end.Start = end.End - 1
			}
			witness = append(witness, diag.Step{Kind: diag.StepOwnerDies, At: p.Span(end.Start, end.End),
				Value: fl.Owner, Via: fl.Via, Message: fmt.Sprintf("%s ends here (%s)", quote(fl.Owner), fl.Via)})
		}
		switch fl.Kind {
		case core.ThreadOutlives:
			witness = append([]diag.Step{{Kind: diag.StepCallback, At: span, Value: fl.Value,
				Message: fmt.Sprintf("the thread %s runs on its own from here, using %s", quote(fl.Value), quote(fl.Owner))}}, witness...)
		case core.CallbackOutlives:
			later := "runs when %s completes, using %s"
			if fl.Handed {
				later = "is kept by %s to run after this call returns, using %s"
			}
			witness = append([]diag.Step{{Kind: diag.StepCallback, At: span, Value: fl.Value,
				Message: fmt.Sprintf("the closure handed to %s here "+later, fl.Value, quote(fl.Keeper), quote(fl.Owner))}}, witness...)
		case core.DeviceUseAfterFree:
			witness = append([]diag.Step{{Kind: diag.StepAsync, At: span, Value: fl.Value,
				Message: fmt.Sprintf("%s queues device work that uses %s", quote(fl.Value), quote(fl.Owner))}}, witness...)
		case core.LeftStale:
			witness = []diag.Step{{Kind: diag.StepOwnerDies, At: span, Value: fl.Owner, Via: "new memory",
				Message: fmt.Sprintf("%s is given new memory here", quote(fl.Owner))},
				{Kind: diag.StepEscape, At: p.nodeSpan(fl.End), Value: fl.Value,
					Message: fmt.Sprintf("the method returns with %s still pointing at the old memory", quote(fl.Value))}}
		case core.ReturnsLocal:
			if _, _, ok := storedVia(fl.Via); ok {
				witness = append(witness, diag.Step{Kind: diag.StepEscape, At: span, Value: fl.Value,
					Message: fmt.Sprintf("stored here; nothing the function calls afterwards takes it back, and %s ends when it returns", quote(fl.Owner))})
				break
			}
			witness = append(witness, diag.Step{Kind: diag.StepUse, At: span, Value: fl.Value,
				Message: fmt.Sprintf("%s is used here", quote(fl.Value))})
		case core.HostReadsPending, core.HostWritesPending:
			witness = []diag.Step{{Kind: diag.StepAsync, At: p.nodeSpan(fl.End), Value: fl.Via,
				Message: fmt.Sprintf("%s queues device work on %s", quote(fl.Via), quote(fl.Owner))},
				{Kind: diag.StepUse, At: span, Value: fl.Value, Message: fmt.Sprintf("the host touches %s before anything waits for it", quote(fl.Owner))}}
		case core.OverRelease:
			what := fmt.Sprintf("%s is released here", quote(fl.Value))
			if strings.HasPrefix(fl.Via, "~") {
				what = fmt.Sprintf("%s is stored here; %s releases it", quote(fl.Value), fl.Via)
			}
			witness = append(witness, diag.Step{Kind: diag.StepFree, At: span, Value: fl.Value, Via: fl.Via, Message: what})
		default:
			if fl.Call != parser.None {
				witness = append(witness, diag.Step{Kind: diag.StepCallback, At: p.nodeSpan(fl.Call), Value: p.File.Text(fl.Call),
					Message: "the closure is called here"})
			}
			witness = append(witness, diag.Step{Kind: diag.StepUse, At: span, Value: fl.Value,
				Message: fmt.Sprintf("%s is used here", quote(fl.Value))})
		}
		if detail != "" && len(witness) > 0 {
			// The detail belongs to the note at the fault's use, else to
			// the last one.
			i := len(witness) - 1
			for j, st := range witness {
				if st.At == span {
					i = j
				}
			}
			witness[i].Message += "; " + detail
		}
		name := p.funcName(fn)
		v := &diag.Verification{Verdict: diag.Confirmed, Fault: fault, Reason: "the function's own path executes it: " + msg}
		if a, b, ok := p.twoConfigurations(fl.End, fl.Use); ok {
			// The executor reads the first branch of every conditional
			// group; a fault between two groups of different conditions
			// needs a build that compiles both, which the tree may rule
			// out (#error, exclusive options).
			v.Verdict = diag.Latent
			v.Reason = fmt.Sprintf("it happens only in a build that compiles both '%s' and '%s': %s", a, b, msg)
		}
		p.findings = append(p.findings, &diag.Finding{
			Rule: p.rule.Meta, Severity: p.rule.Meta.Severity, At: span, Message: msg,
			Function: name, Witness: witness, Anchor: fl.Owner + "\x00" + fl.Value,
			Verification: v,
		})
	}
}

// reportedAt says whether the running rule already reported on line, or
// a finding of it names line in its witness.
func (p *Pass) reportedAt(line int) bool {
	for _, f := range p.findings {
		if f.Rule != p.rule.Meta {
			continue
		}
		if f.At.Start.Line == line {
			return true
		}
		for _, st := range f.Witness {
			if st.At.Start.Line == line {
				return true
			}
		}
	}
	return false
}

// otherRuleAt says a finding of another rule than the running one is
// reported at exactly span's start.
func (p *Pass) otherRuleAt(span diag.Span) bool {
	for _, f := range p.findings {
		if f.Rule != p.rule.Meta && f.At.Start == span.Start {
			return true
		}
	}
	return false
}

// sameDeath is the index of the running rule's own-reading finding whose
// story ends fault fl's owner where fl says it ended, or -1.
func (p *Pass) sameDeath(fl core.Fault) int {
	if fl.End == parser.None || fl.End == fl.Use {
		return -1
	}
	end, _ := p.File.Position(int(p.File.Nodes[fl.End].Start))
	for i, f := range p.findings {
		if f.Rule != p.rule.Meta || f.Verification != nil {
			continue
		}
		for _, st := range f.Witness {
			if st.Kind == diag.StepOwnerDies && st.Value == fl.Owner && st.At.Start.Line == end {
				return i
			}
		}
	}
	return -1
}

// usedAt is the index of the running rule's finding that is reported on
// another line but names line as its use, or -1.
func (p *Pass) usedAt(line int) int {
	for i, f := range p.findings {
		if f.Rule != p.rule.Meta || f.At.Start.Line == line || fromCore(f) {
			continue
		}
		for _, st := range f.Witness {
			if st.Kind == diag.StepUse && st.At.Start.Line == line {
				return i
			}
		}
	}
	return -1
}

// ownAt is the index of the running rule's own-reading finding reported
// at line (not one of the core's), or -1.
func (p *Pass) ownAt(line int) int {
	for i, f := range p.findings {
		if f.Rule == p.rule.Meta && f.At.Start.Line == line && !fromCore(f) {
			return i
		}
	}
	return -1
}

// fromCore says finding f was made by the core's execution.
func fromCore(f *diag.Finding) bool {
	return f.Verification != nil && f.Verification.Verdict == diag.Confirmed && f.Verification.Fault != "" && strings.HasPrefix(f.Verification.Reason, "the function's own path")
}

func quote(s string) string { return "'" + s + "'" }

// elementRemovals are the removals that end one element (see core's removeMethods).
var elementRemovals = map[string]bool{"pop_back": true, "pop_front": true, "pop": true, "erase": true, "clear": true}

// coreMessage words a fault: a short message, the detail that goes in the
// note at the fault's use (or ""), and the device's fault kind for it.
func coreMessage(p *Pass, fl core.Fault) (msg, detail, fault string) {
	endLine := 0
	if fl.End != parser.None {
		endLine, _ = p.File.Position(int(p.File.Nodes[fl.End].Start))
		if p.File.Kind(fl.End) == parser.KindCompoundStatement {
			// A block's locals end at its closing brace.
			endLine, _ = p.File.Position(int(p.File.Nodes[fl.End].End) - 1)
		}
	}
	if fl.Kind == core.CallbackOutlives {
		dies := fmt.Sprintf("dies at line %d", endLine)
		if fl.Via != "}" {
			dies = fmt.Sprintf("ends at line %d (%s)", endLine, fl.Via)
		}
		how := fmt.Sprintf("registered with %s on %s", fl.Value, quote(fl.Keeper))
		detail := fmt.Sprintf("it runs when %s completes, and nothing waits for that first", quote(fl.Keeper))
		if fl.Handed {
			how = fmt.Sprintf("handed to %s", fl.Value)
			detail = fmt.Sprintf("%s keeps it in %s to run after returning, and nothing waits for it", fl.Value, quote(fl.Keeper))
		}
		if fl.Captured == "this" {
			return fmt.Sprintf("the callback %s captures this but holds no reference to the object", how),
				fmt.Sprintf("the object may be destroyed once this returns, and %s does not wait for %s", fl.Via, quote(fl.Keeper)), "HOST_UAF"
		}
		if fl.Captured != "" {
			return fmt.Sprintf("the lambda %s captures %s but not its owner %s, which %s", how, quote(fl.Captured), quote(fl.Owner), dies), detail, "HOST_UAF"
		}
		noun := "callback"
		if fl.Handed {
			noun = "lambda"
		}
		return fmt.Sprintf("the %s %s captures local %s by reference, which %s", noun, how, quote(fl.Owner), dies), detail, "HOST_UAF"
	}
	if fl.Keeper == "(range)" && fl.Kind == core.UseAfterInvalidate {
		return fmt.Sprintf("the range-based for loop over %s steps its iterator after %s replaced the storage of %s at line %d", quote(fl.Value), fl.Via, quote(fl.Owner), endLine), "", "HOST_UAF"
	}
	if fl.Keeper != "" && fl.Kind == core.DoubleFree {
		// An implicit copy put in a container (see core's copies.go).
		if strings.HasSuffix(fl.Via, " of the temporary") {
			return fmt.Sprintf("%s keeps a member-wise copy of the temporary %s: what %s points to is freed twice", quote(fl.Keeper), quote(fl.Value), quote(fl.Owner)),
				fmt.Sprintf("the temporary's destructor frees what %s points to at the end of this statement; destroying the element frees it again", quote(fl.Owner)), "DOUBLE_FREE"
		}
		return fmt.Sprintf("%s is destroyed here and frees %s, which %s shares through a member-wise copy", quote(fl.Value), quote(fl.Owner), quote(fl.Keeper)),
			fmt.Sprintf("the copy was put in %s at line %d: %s runs on both", quote(fl.Keeper), endLine, fl.Via), "DOUBLE_FREE"
	}
	if fl.Keeper != "" && strings.HasPrefix(fl.Value, "~") {
		// A destructor reading what its object keeps (core's
		// destructorRuns): the kept memory ended first.
		ended := fmt.Sprintf("which went out of scope at line %d", endLine)
		fix := fmt.Sprintf("end %s before %s ends", quote(fl.Keeper), quote(fl.Owner))
		switch {
		case fl.Kind == core.UseAfterFree:
			ended = fmt.Sprintf("which %s freed at line %d", fl.Via, endLine)
		case fl.Kind == core.UseAfterScope && strings.HasPrefix(fl.Via, "~"):
			// Members ending as their object does (core's endMembers).
			return fmt.Sprintf("when %s ends, %s of member %s reads the pointer it keeps to %s, destroyed before it", quote(strings.TrimPrefix(fl.Via, "~")), fl.Value, quote(fl.Keeper), quote(fl.Owner)),
				fmt.Sprintf("%s is declared after %s, and members end in the reverse order of their declarations: declare %s first", quote(fl.Owner), quote(fl.Keeper), quote(fl.Owner)), "HOST_UAF"
		case fl.Kind == core.UseAfterScope && fl.Via == "}" && fl.Use == fl.End:
			ended = "destroyed before it"
			fix = fmt.Sprintf("%s is declared after %s, and locals end in the reverse order of their declarations: declare %s first, or end %s before it", quote(fl.Owner), quote(fl.Keeper), quote(fl.Owner), quote(fl.Keeper))
		}
		return fmt.Sprintf("%s runs here for %s and reads the pointer it keeps to %s, %s", fl.Value, quote(fl.Keeper), quote(fl.Owner), ended), fix, "HOST_UAF"
	}
	if fl.Keeper != "" {
		how := fmt.Sprintf("which ended at line %d", endLine)
		switch fl.Kind {
		case core.UseOfTemporary:
			return fmt.Sprintf("%s is used here but keeps a reference to the temporary %s, which died at line %d", quote(fl.Keeper), quote(fl.Owner), endLine),
				"the temporary died at the end of its statement", "HOST_UAF"
		case core.UseAfterFree:
			how = fmt.Sprintf("which %s freed at line %d", fl.Via, endLine)
		case core.UseAfterInvalidate:
			how = fmt.Sprintf("whose storage %s replaced at line %d", fl.Via, endLine)
		}
		return fmt.Sprintf("%s keeps a pointer into the memory of %s, %s, and is used here", quote(fl.Keeper), quote(fl.Owner), how), "", "HOST_UAF"
	}
	if fl.Held && (fl.Kind == core.UseAfterFree || fl.Kind == core.UseAfterScope) {
		ended := fmt.Sprintf("which ended at line %d", endLine)
		if fl.Kind == core.UseAfterFree {
			ended = fmt.Sprintf("freed by %s at line %d", fl.Via, endLine)
		}
		return fmt.Sprintf("%s is handed on holding a pointer into the memory of %s, %s", quote(fl.Value), quote(fl.Owner), ended), "", "HOST_UAF"
	}
	switch fl.Kind {
	case core.UseAfterFree:
		return fmt.Sprintf("%s is used after the memory it points to was freed by %s at line %d", quote(fl.Value), fl.Via, endLine), "", "HOST_UAF"
	case core.DoubleFree:
		return fmt.Sprintf("%s frees memory already freed by %s at line %d", quote(fl.Value), fl.Via, endLine), "", "DOUBLE_FREE"
	case core.OverRelease:
		const policy = "only alloc, new, copy, mutableCopy (or a retain) give a reference to release"
		if strings.HasPrefix(fl.Via, "~") {
			// A member set from a message and released by the destructor.
			return fmt.Sprintf("%s is set from %s, which gives no reference, and %s releases it", quote(fl.Value), quote(fl.Owner), fl.Via),
				fmt.Sprintf("retain it when storing it: %s", policy), "DOUBLE_FREE"
		}
		if fl.Owned {
			return fmt.Sprintf("%s is given up by %s again: its references (from %s at line %d) were given up already", quote(fl.Value), fl.Via, quote(fl.Owner), endLine),
				policy, "DOUBLE_FREE"
		}
		return fmt.Sprintf("%s is given up by %s, but no reference to it is held here (%s at line %d gives none)", quote(fl.Value), fl.Via, quote(fl.Owner), endLine),
			policy, "DOUBLE_FREE"
	case core.UseAfterScope:
		return fmt.Sprintf("%s is used after %s, which owned its memory, ended at line %d", quote(fl.Value), quote(fl.Owner), endLine), "", "HOST_UAF"
	case core.ReturnsLocal:
		const dies = "a local that dies when the function returns"
		if fl.Via == "returned lambda" {
			return fmt.Sprintf("returns a lambda that captures %s by reference, %s", quote(fl.Owner), dies), "", "DANGLING_RETURN"
		}
		if how, where, ok := storedVia(fl.Via); ok {
			switch how {
			case "temp":
				return fmt.Sprintf("%s is left pointing into the temporary %s, which dies at the end of this statement", quote(fl.Value), quote(fl.Owner)), "", "DANGLING_RETURN"
			case "held":
				return fmt.Sprintf("the %s %s keeps a pointer to %s, %s", keeperWord(where), quote(fl.Value), quote(fl.Owner), dies), "", "DANGLING_RETURN"
			case "lambda":
				return fmt.Sprintf("the %s %s keeps a lambda that captures local %s by reference", keeperWord(where), quote(fl.Value), quote(fl.Owner)),
					fmt.Sprintf("%s is %s", quote(fl.Owner), dies), "DANGLING_RETURN"
			}
			who := "the caller reaches it"
			switch where {
			case "member":
				who = "the object keeps it"
			case "static", "global":
				who = "it outlives the call"
			}
			if how == "copy" {
				return fmt.Sprintf("%s is given a copy of an object whose pointer field points into %s, %s, and %s", quote(fl.Value), quote(fl.Owner), dies, who), "", "DANGLING_RETURN"
			}
			return fmt.Sprintf("%s is left pointing into %s, %s, and %s", quote(fl.Value), quote(fl.Owner), dies, who), "", "DANGLING_RETURN"
		}
		if fl.Via == "made" {
			return fmt.Sprintf("returns a reference to the temporary %s makes; it dies at the end of the return statement", quote(fl.Value)), "", "DANGLING_RETURN"
		}
		if fl.Via == "temporary" {
			return fmt.Sprintf("returns a reference to the temporary %s returns; it dies at the end of the return statement", quote(fl.Value)),
				fmt.Sprintf("%s returns by value", quote(fl.Value)), "DANGLING_RETURN"
		}
		return fmt.Sprintf("returns %s, which points into %s, %s", quote(fl.Value), quote(fl.Owner), dies), "", "DANGLING_RETURN"
	case core.UseAfterInvalidate:
		if elementRemovals[fl.Via] {
			return fmt.Sprintf("%s is used after %s removed the element it refers to from %s at line %d", quote(fl.Value), fl.Via, quote(fl.Owner), endLine), "", "HOST_UAF"
		}
		return fmt.Sprintf("%s is used after %s replaced the storage of %s at line %d", quote(fl.Value), fl.Via, quote(fl.Owner), endLine), "", "HOST_UAF"
	case core.UseOfTemporary:
		if fl.Via == "for" {
			return fmt.Sprintf("the loop iterates %s, in the temporary %s, which dies before the loop runs", quote(fl.Value), quote(fl.Owner)),
				"only the range itself lives as long as the loop (before C++23); keep the object in a local first", "HOST_UAF"
		}
		return fmt.Sprintf("%s points into the temporary %s, which died at the end of its statement at line %d", quote(fl.Value), quote(fl.Owner), endLine), "", "HOST_UAF"
	case core.DeviceUseAfterFree:
		return fmt.Sprintf("%s queues device work that uses %s, which %s before any wait", quote(fl.Value), quote(fl.Owner), endedHow(fl, endLine)), "", "DEV_UAF_FREED"
	case core.HostReadsPending:
		return fmt.Sprintf("the host reads %s while %s (line %d) may still be writing it", quote(fl.Owner), fl.Via, endLine), "", "STALE_READ"
	case core.HostWritesPending:
		return fmt.Sprintf("the host writes %s while %s (line %d) may still be using it", quote(fl.Owner), fl.Via, endLine), "", "RACE"
	case core.ThreadOutlives:
		return fmt.Sprintf("the detached thread %s uses %s, which %s while the thread may still run", quote(fl.Value), quote(fl.Owner), endedHow(fl, endLine)), "nothing waits for the thread", "HOST_UAF"

	case core.LeftStale:
		return fmt.Sprintf("%s is given new memory here, but %s still points at the old memory when the method returns", quote(fl.Owner), quote(fl.Value)),
			fmt.Sprintf("the class sets %s from the memory of %s", quote(fl.Value), quote(fl.Owner)), "HOST_UAF"
	case core.UseAfterMove:
		if fl.Via == "return" {
			return fmt.Sprintf("returns %s, a null pointer: std::move emptied the smart pointer earlier on this path", quote(fl.Value)), "", "NULL_DEREF"
		}
		return fmt.Sprintf("%s uses %s after std::move emptied it", quote(fl.Value), quote(fl.Owner)), "", "NULL_DEREF"
	}
	return fl.Kind.String(), "", "HOST_UAF"
}

// storedVia names the ReturnsLocal faults of a pointer stored where the
// caller or the object keeps it (core/escapes.go), not returned.
// storedVia reads a ReturnsLocal fault's Via as a store (core/escapes.go):
// how it was stored ("left", "held", "lambda", "temp", "copy") and what keeps it
// ("member", "static", "global"; "" for the caller).
func storedVia(via string) (how, where string, ok bool) {
	how, where, _ = strings.Cut(via, " in ")
	switch how {
	case "left", "held", "lambda", "temp", "copy":
		return how, where, true
	}
	return "", "", false
}

// storedHow is how a ReturnsLocal fault's pointer was stored (see
// storedVia), or "".
func storedHow(via string) string {
	how, _, _ := storedVia(via)
	return how
}

// keeperWord names what keeps a stored pointer (core's Fault.Keeper of a
// ReturnsLocal fault).
func keeperWord(k string) string {
	switch k {
	case "static":
		return "static"
	case "global":
		return "global variable"
	case "":
		return "caller's"
	}
	return "member"
}

// endedHow says how the memory of a fault's owner ended, after "which":
// out of scope at the closing brace, or by the call or operation named in
// Via.
func endedHow(fl core.Fault, endLine int) string {
	if fl.Via == "}" {
		return fmt.Sprintf("goes out of scope at line %d", endLine)
	}
	return fmt.Sprintf("ends at line %d (%s)", endLine, fl.Via)
}

// treeFrees answers the core from the tree's summaries: a function of
// another file that frees a parameter on every path, or returns by value.
// namespaces and names are what the file's using-directives and
// -declarations name (see summary.Call).
type treeFrees struct {
	ix                *summary.Index
	namespaces, names []string
}

// NoReturn implements core.Summaries: a function or macro of the tree
// that never returns.
func (t treeFrees) NoReturn(name string) bool { return t.ix.NoReturn(name) }

// MacroReturns implements core.Summaries: a macro of the tree whose every
// definition returns from the function it is used in.
func (t treeFrees) MacroReturns(name string) bool { return t.ix.MacroReturns(name) }
func (t treeFrees) MacroChecks(name string) int   { return t.ix.MacroChecks(name) }

// MacroReturnIf implements core.Summaries: the condition under which a
// macro of the tree returns (see summary.Exit.ReturnIf).
func (t treeFrees) MacroReturnIf(name string) string { return t.ix.MacroReturnIf(name) }

// MacroNotRun implements core.Summaries: the parameters a macro of the
// tree names only where it returns or in a lambda (see
// summary.Exit.NotRun).
func (t treeFrees) MacroNotRun(name string) []int { return t.ix.MacroNotRun(name) }

// summaries sets up, once per pass, what the core asks of calls: the
// file's own functions executed, then the tree's summaries.
func (p *Pass) summaries() *core.FileSummaries {
	if p.core != nil {
		return p.coreSums
	}
	p.core = map[parser.NodeID][]core.Fault{}
	p.coreSums = core.NewFileSummaries(p.File)
	p.coreSums.API = p.Model
	p.coreSums.Meter = p.Meter
	var tree func(string) map[string]string
	var treeAlias func(string) string
	if p.Tree != nil {
		ns, names := p.usings()
		p.coreSums.Next = treeFrees{p.Tree, ns, names}
		tree, treeAlias = p.Tree.Members, p.Tree.Alias
		if scope, ok := fileNamespace(p.File); ok {
			// A class named in the file is looked up from the namespace
			// its functions are defined in.
			tree = func(class string) map[string]string { return p.Tree.MembersIn(class, scope) }
		}
	}
	p.coreSums.Members = core.FileMembers(p.File, tree)
	p.coreSums.Alias = core.FileAliases(p.File, treeAlias)
	return p.coreSums
}

// ends says expression statement stmt is a call that never returns (see
// core.Summaries.NoReturn).
func (p *Pass) ends(stmt parser.NodeID) bool {
	f := p.File
	for c := range f.NamedChildren(stmt) {
		if f.Kind(c) != parser.KindCallExpression {
			return false
		}
		fn := f.Field(c, parser.FieldFunction)
		if k := f.Kind(fn); k != parser.KindIdentifier && k != parser.KindQualifiedIdentifier {
			return false
		}
		name := f.Text(fn)
		return summary.Documented(name) || p.summaries().NoReturn(name)
	}
	return false
}

// Unqualified implements core.Summaries: the tree's lookup of an
// unqualified call already matches no method of another class.
func (t treeFrees) Unqualified(name string, nargs int, scope string) core.Call {
	return t.Call(name, nargs, scope)
}

func (t treeFrees) Call(name string, nargs int, scope string) core.Call {
	call := summary.Call{Name: name, Nargs: nargs, Scope: scope, Namespaces: t.namespaces, Names: t.names, Scoped: true}
	if f := t.ix.LookupCall(call); f != nil {
		c := core.Call{Frees: f.Frees, FreesDeref: f.FreesDeref, FreesFields: f.FreesFields, StoresIn: f.StoresIn, Holds: f.Holds, Fields: f.Fields, ByValue: f.ByValue, Storage: f.Storage, RetParam: f.RetParam, Type: f.Type, Derefs: f.Reaches, Grows: f.Grows,
			Refers: f.Refers, RefersPtr: f.RefersPtr, ReferType: f.ReferType, ReferDeref: f.ReferDeref,
			Bound: f.Bound, RefersView: f.RefersView, Reassigns: f.Reassigns, Known: true, Defined: true, Keeps: f.Keeps}
		for _, q := range f.Queues {
			c.Queues = append(c.Queues, core.Queued{Reads: q.Reads, Writes: q.Writes, Queue: q.Queue, What: q.What, PinnedOnly: q.PinnedOnly})
		}
		return c
	}
	// Defined nowhere the scan reads: a declaration still says what
	// the call returns.
	if r, ok := t.ix.Returns(summary.Call{Name: name, Nargs: nargs}); ok {
		return core.Call{ByValue: r.ByValue, Storage: r.Storage, RetParam: r.RetParam, Type: r.Type,
			Bound: r.Bound, RefersPtr: r.RefersPtr, RefersView: r.RefersView, Reassigns: r.Reassigns, Known: true}
	}
	return core.Call{}
}

func (p *Pass) nodeSpan(n parser.NodeID) diag.Span {
	nd := p.File.Nodes[n]
	return p.Span(nd.Start, nd.End)
}

// twoConfigurations says nodes a and b lie in two conditional groups
// (#if, #ifdef, #elif) of different conditions, neither inside the
// other, and gives the conditions as written.
func (p *Pass) twoConfigurations(a, b parser.NodeID) (string, string, bool) {
	if a == parser.None || b == parser.None {
		return "", "", false
	}
	return TwoConfigurations(p.File, int(p.File.Nodes[a].Start), int(p.File.Nodes[b].Start))
}

// TwoConfigurations says the bytes at offsets a and b of f lie in two
// conditional groups (#if, #ifdef, #elif) of different conditions,
// neither inside the other, and gives the conditions as written.
func TwoConfigurations(f *parser.File, a, b int) (string, string, bool) {
	ga, gb := configGroup(f, a), configGroup(f, b)
	if ga == parser.None || gb == parser.None || ga == gb {
		return "", "", false
	}
	inside := func(x, y parser.NodeID) bool {
		return f.Nodes[x].Start >= f.Nodes[y].Start && f.Nodes[x].End <= f.Nodes[y].End
	}
	if inside(ga, gb) || inside(gb, ga) {
		return "", "", false
	}
	ca, cb := configCondition(f, ga), configCondition(f, gb)
	if ca == cb {
		return "", "", false
	}
	return ca, cb, true
}

// configGroup is the innermost conditional group of f holding the byte
// at offset, or None.
func configGroup(f *parser.File, offset int) parser.NodeID {
	best := parser.None
	for i := range f.Nodes {
		switch f.Nodes[i].Kind {
		case parser.KindPreprocIf, parser.KindPreprocIfdef, parser.KindPreprocElif:
		default:
			continue
		}
		if int(f.Nodes[i].Start) <= offset && offset < int(f.Nodes[i].End) {
			best = parser.NodeID(i) // a later group holding it is inside the earlier
		}
	}
	return best
}

// configCondition is the condition of group g as written: "#ifdef X",
// "#if defined(X) && Y".
func configCondition(f *parser.File, g parser.NodeID) string {
	c := f.Field(g, parser.FieldCondition)
	if c == parser.None {
		c = f.Field(g, parser.FieldName)
	}
	text := strings.Join(strings.Fields(f.Text(c)), " ")
	if f.Kind(g) == parser.KindPreprocIfdef {
		word := "#ifdef "
		if strings.HasPrefix(strings.TrimSpace(f.Text(g)), "#ifndef") {
			word = "#ifndef "
		}
		return word + text
	}
	return "#if " + text
}

// InTwoConfigurations demotes a confirmed finding whose use and a step
// that ends the memory lie in conditional groups of different
// conditions to latent: it happens only in a build that compiles both
// (see TwoConfigurations).
func InTwoConfigurations(f *parser.File, fd *diag.Finding) {
	v := fd.Verification
	if f == nil || v == nil || v.Verdict != diag.Confirmed {
		return
	}
	for _, st := range fd.Witness {
		if st.Kind != diag.StepOwnerDies && st.Kind != diag.StepFree {
			continue
		}
		if a, b, ok := TwoConfigurations(f, st.At.Start.Offset, fd.At.Start.Offset); ok {
			v.Verdict = diag.Latent
			v.Reason = fmt.Sprintf("it happens only in a build that compiles both '%s' and '%s': %s", a, b, v.Reason)
			return
		}
	}
}

// fileNamespace is the one namespace every function f defines is
// defined in (see parser.File.Namespace), when there is one.
func fileNamespace(f *parser.File) (string, bool) {
	ns, seen := "", false
	for i := range f.Nodes {
		if f.Nodes[i].Kind != parser.KindFunctionDefinition {
			continue
		}
		n, _ := f.Namespace(parser.NodeID(i))
		if seen && n != ns {
			return "", false
		}
		ns, seen = n, true
	}
	return ns, seen
}
