// Package verify replays a finding's own witness on the simulated device
// (package device) and turns what the device says into a verdict.
//
// The witness (diag.Step values in program order) is translated step by step
// into a device.Scenario by a builder for the finding's bug class
// (RULES.md A–H): owners become buffers that the runtime frees when their
// last reference dies, async steps become raw, untracked stream operations
// that set a future, waits become awaits, stores into containers keep
// references, and so on. Sizes and the adversarial foreign allocation that
// re-serves a freed chunk come from the model, never from names.
//
// The scenario is run twice:
//
//   - as written, under the witness schedule (host first, victims last);
//   - with the rule's fix applied (hold kept, owner extended past the last
//     use, copy written back, free deferred, wait moved before the
//     mutation), under the bounded exhaustive exploration, the witness
//     schedule and the eager schedule.
//
// The verdict is Confirmed only when the run as written raises a fault that
// confirms on its own (DEV_UAF_FREED alone is latent) and the fixed run
// raises none; NotReproduced when the run as written is clean (say the
// future is awaited before its owner dies, or the owner is kept in an outer
// container); NotModelled when the witness has a step kind or a shape the
// builder does not model, or when the fixed variant still faults so that the
// fault cannot be pinned on the finding. The rule's text never decides:
// only the runs do.
//
// Limits: the builders replay one owner and one async operation per witness
// the way docs/device-model.md §8 describes them; interprocedural effects
// that are not in the witness are not seen. A class-G witness of a framework tensor
// released on the callback thread (a free step whose Via says "callback
// thread") replays class G's release on the callback thread
// (docs/device-model.md §8): the callback takes the interpreter lock
// to release the capture while a Python thread holds the lock and awaits
// later work queued behind the callback, a DEADLOCK; a wait on the future
// before the host's own reference dies makes the callback's copy not the
// last one and the run clean.
package verify

import (
	"fmt"
	"slices"
	"strings"

	"github.com/holdfast-dev/holdfast/device"
	"github.com/holdfast-dev/holdfast/diag"
)

// Mutation is the semantics of an in-place mutation (class H).
type Mutation int

// Mutation semantics.
const (
	// SwapThenReuse: the op writes a new buffer and swaps the data
	// pointer, so the old buffer loses its owner, is freed and re-served
	// (torch_tpu OverwriteDataPtr). The default.
	SwapThenReuse Mutation = iota
	// InPlace: the op writes the same buffer the async work uses.
	InPlace
)

// Options tunes a replay.
type Options struct {
	// StateCap bounds the exploration of the fixed run; 0 means
	// device.DefaultCap.
	StateCap int
	// Allocator is used where the finding does not imply one: "bfc",
	// "caching", "stream-ordered" or "metal-pool"; "" picks per class.
	Allocator string
	// Mutation picks the semantics of a class-H mutation whose call does
	// not say (an explicit data-pointer swap always swaps).
	Mutation Mutation
	// BufferSize is the size of each modelled buffer; 0 means 1 MiB.
	BufferSize int64
}

func (o Options) withDefaults() Options {
	if o.StateCap <= 0 {
		o.StateCap = device.DefaultCap
	}
	if o.BufferSize <= 0 {
		o.BufferSize = 1 << 20
	}
	return o
}

func allocator(name string, def device.Allocator) (device.Allocator, bool) {
	switch name {
	case "":
		return def, true
	case "bfc":
		return device.BFC(), true
	case "caching":
		return device.Caching(), true
	case "stream-ordered":
		return device.StreamOrdered(), true
	case "metal-pool":
		return device.MetalPool(), true
	}
	return device.Allocator{}, false
}

func known(k diag.StepKind) bool {
	switch k {
	case diag.StepDeclare, diag.StepBorrow, diag.StepStore, diag.StepAsync, diag.StepCallback,
		diag.StepWait, diag.StepBlock, diag.StepOwnerDies, diag.StepMove, diag.StepUse,
		diag.StepMutate, diag.StepMaterial, diag.StepFree, diag.StepEscape, diag.StepWrite,
		diag.StepDeclHold:
		return true
	}
	return false
}

// Verify replays f's witness and returns the verdict with both traces.
//
// A witness whose steps stand for code holdfast cannot see (diag.Step.
// Unknown) is replayed twice: with that code helping (a may-wait step
// waits, a may-hold step keeps its owner alive, an assumed owner death does
// not happen) and without it. A fault in the first run is Confirmed: it
// happens whatever that code does. A fault only in the second is Latent.
func Verify(f *diag.Finding, opt Options) *diag.Verification {
	opt = opt.withDefaults()
	if f == nil || f.Rule == nil {
		return notModelled("the finding has no rule")
	}
	if f.Verification != nil {
		// Found by executing the function's paths (package core): the
		// execution is the verification.
		return f.Verification
	}
	if len(f.Witness) == 0 {
		return notModelled("the finding has no witness to replay")
	}
	v := verifyWitness(f, opt)
	if f.Rule.CoreDecides && v.Verdict == diag.Confirmed {
		// The function's own execution did not make this fault: the
		// rule's reading of names and types did, and the replay
		// follows that reading.
		v.Verdict = diag.Latent
		v.Reason = "not made by executing the function's paths: it rests on the rule's reading of names and declared types (what a call returns, keeps or frees, when a callback runs), which its replay follows: " + v.Reason
	}
	return v
}

// verifyWitness replays f's witness (see Verify).
func verifyWitness(f *diag.Finding, opt Options) *diag.Verification {
	if !slices.ContainsFunc(f.Witness, diag.Step.Unknown) {
		return replay(f.Rule, f.Witness, opt)
	}
	helped, spared := resolve(f.Witness, true)
	var v *diag.Verification
	if len(spared) > 0 && !slices.ContainsFunc(helped, func(st diag.Step) bool { return st.Kind == diag.StepOwnerDies }) {
		// Nothing dies on the helped path: there is nothing to replay.
		v = &diag.Verification{Verdict: diag.NotReproduced,
			Reason: "the replay is clean when " + strings.Join(spared, ", ") + " is kept alive by the code holdfast cannot see"}
	} else {
		v = replay(f.Rule, helped, opt)
	}
	if v.Verdict == diag.Confirmed {
		v.Reason += "; it faults whatever the code holdfast cannot see does (" + unseen(f.Witness) + ")"
		return v
	}
	alone, _ := resolve(f.Witness, false)
	u := replay(f.Rule, alone, opt)
	if u.Verdict != diag.Confirmed {
		if v.Verdict == diag.NotReproduced {
			return v
		}
		return u
	}
	u.Verdict = diag.Latent
	u.Reason = "it faults only if the code holdfast cannot see does not prevent it (" + unseen(f.Witness) + "); without that help " + u.Reason
	return u
}

// resolve reads the unknown steps of w in the program's favour (helped) or
// as doing nothing. Helped: a may-wait step is a wait, a may-hold step
// keeps its owner alive (its later deaths are dropped), an assumed step
// does not happen. Not helped: may-wait and may-hold steps are dropped and
// assumed steps happen. spared names the owners whose death was dropped.
func resolve(w []diag.Step, helped bool) (out []diag.Step, spared []string) {
	kept := map[string]bool{}
	for _, st := range w {
		switch {
		case st.Kind == diag.StepMayWait:
			if helped {
				st.Kind = diag.StepWait
				out = append(out, st)
			}
		case st.Kind == diag.StepMayHold:
			if helped {
				kept[st.Value] = true
			}
		case helped && st.Assumed:
			if st.Kind == diag.StepOwnerDies {
				spared = append(spared, "'"+st.Value+"'")
			}
		case helped && st.Kind == diag.StepOwnerDies && kept[st.Value]:
			spared = append(spared, "'"+st.Value+"'")
		default:
			out = append(out, st)
		}
	}
	return out, spared
}

// unseen describes the unknown steps of w for a verdict's reason.
func unseen(w []diag.Step) string {
	var parts []string
	for _, st := range w {
		switch {
		case st.Kind == diag.StepMayWait:
			parts = append(parts, fmt.Sprintf("line %d may wait for '%s'", st.At.Start.Line, st.Value))
		case st.Kind == diag.StepMayHold:
			parts = append(parts, fmt.Sprintf("line %d may keep '%s' alive", st.At.Start.Line, st.Value))
		case st.Assumed && st.Kind == diag.StepOwnerDies:
			parts = append(parts, fmt.Sprintf("line %d assumes '%s' is destroyed and frees its memory", st.At.Start.Line, st.Value))
		case st.Assumed:
			parts = append(parts, fmt.Sprintf("line %d assumes %s %s", st.At.Start.Line, st.Via, st.Kind))
		}
	}
	return strings.Join(parts, "; ")
}

// replay runs witness w of a finding of rule r as written and with the
// rule's fix, and gives the verdict.
func replay(r *diag.Rule, w []diag.Step, opt Options) *diag.Verification {
	f := &diag.Finding{Rule: r, Witness: w}
	for i, st := range f.Witness {
		if !known(st.Kind) {
			return notModelled(fmt.Sprintf("witness step %d has kind %q, which the simulator does not model", i+1, st.Kind))
		}
	}
	build, ok := builderFor(f.Rule.Class)
	if !ok {
		return notModelled(fmt.Sprintf("bug class %q has no replay", f.Rule.Class))
	}
	bug, err := build(f.Witness, opt, false)
	if err != nil {
		return notModelled(err.Error())
	}
	if e := bug.s.Err(); e != nil {
		return notModelled("the scenario could not be built: " + e.Error())
	}
	run := bug.s.Run(device.Witness)
	v := &diag.Verification{Trace: convert(run, f.Witness)}
	fault := run.FirstConfirming()
	if fault == nil {
		v.Verdict = diag.NotReproduced
		v.Reason = "the replay as written is clean under the witness schedule"
		if lat := run.First(); lat != nil {
			v.Fault = string(lat.Kind)
			v.Reason = "the replay as written only raises the latent " + string(lat.Kind) + ": " + lat.Detail
		} else if bug.cleanWhy != "" {
			v.Reason += ": " + bug.cleanWhy
		}
		return v
	}
	v.Fault = string(fault.Kind)
	fixed, err := build(f.Witness, opt, true)
	if err != nil {
		v.Verdict = diag.NotModelled
		v.Reason = "the fix cannot be modelled: " + err.Error()
		return v
	}
	rs := fixed.s.Check(opt.StateCap)
	explore := rs[0]
	for _, r := range rs {
		if r.Schedule == "explore" {
			explore = r
		}
	}
	for _, r := range rs {
		if ff := r.First(); ff != nil {
			v.Fixed = convert(r, f.Witness)
			v.Verdict = diag.NotModelled
			v.Reason = fmt.Sprintf("the run as written raises %s, but the fixed run (%s) still raises %s under the %s schedule, so the fault is not this finding's",
				fault.Kind, fixed.fix, ff.Kind, r.Schedule)
			return v
		}
	}
	v.Fixed = convert(fixed.s.Run(device.Witness), f.Witness)
	v.Verdict = diag.Confirmed
	capNote := fmt.Sprintf("%d explored states", explore.States)
	if explore.CapHit {
		capNote = fmt.Sprintf("the first %d states (the exploration cap)", explore.States)
	}
	v.Reason = fmt.Sprintf("the replay raises %s: %s; with the fix (%s) the run is clean in %s, the witness and the eager schedule",
		fault.Kind, fault.Detail, fixed.fix, capNote)
	return v
}

func notModelled(reason string) *diag.Verification {
	return &diag.Verification{Verdict: diag.NotModelled, Reason: reason}
}

// convert maps a device trace onto diag trace steps; steps made from a
// witness step point at its span.
func convert(r *device.Result, w []diag.Step) []diag.TraceStep {
	var out []diag.TraceStep
	for _, e := range r.Trace {
		if e.Fault == "" && strings.HasPrefix(e.Text, "define ") {
			continue // the device-side definition of an allocation
		}
		ts := diag.TraceStep{Thread: e.Thread, Text: e.Text, Fault: string(e.Fault)}
		if e.Tag >= 1 && e.Tag <= len(w) && w[e.Tag-1].At.Start.File != "" {
			at := w[e.Tag-1].At
			ts.At = &at
		}
		out = append(out, ts)
	}
	return out
}
