// Package core is holdfast's semantic core: it executes a function's paths
// over an abstract memory and reports the faults that happen on them.
//
// Memory is a set of objects: a local's own storage (its stack slot), the
// storage a value owns (a vector's or string's buffer, a smart pointer's
// object), heap objects from new and malloc, temporaries, and what a
// pointer parameter points to. A value is a borrow of an object (a raw
// pointer, reference, iterator or view into it) and/or ownership of one.
// Borrows flow through every declaration, assignment, `auto`, copy, call
// result and return; the kind of a value comes from the operation that made
// it (`v.data()` borrows v's buffer, `std::make_unique` owns a new object),
// and a declared type only decides what a declaration makes of its
// initialiser (a `std::string` copies, a `std::string_view` borrows).
//
// Objects end: freed (`delete`, `free`, a smart pointer's reset or
// destruction), dead (their owner's scope ended), or replaced (a vector
// grew or was cleared, a string was assigned). Every path is executed
// (both arms of a branch, loops zero, one and two times, each early
// return), with a bound on the paths of one function; a use of an ended
// object on a path is a Fault. Conditions already decided on a path (a
// pointer known null, a local flag known true) prune the other arm.
//
// What library calls do is written in std.go, with the documentation it
// comes from; calls the file defines are executed through their summaries
// (which parameters they free on every path).
package core

import (
	"github.com/holdfast-dev/holdfast/apimodel"
	"github.com/holdfast-dev/holdfast/internal/budget"
	"github.com/holdfast-dev/holdfast/parser"
)

// FaultKind says what went wrong.
type FaultKind uint8

// Fault kinds.
const (
	// UseAfterFree: a heap object used after delete, free or its smart
	// pointer's reset or destruction.
	UseAfterFree FaultKind = iota
	// DoubleFree: a heap object freed twice.
	DoubleFree
	// UseAfterScope: a local, or storage a local owned, used after the
	// local's scope ended (or after it was moved from).
	UseAfterScope
	// ReturnsLocal: a pointer, reference or view into a local's memory
	// returned to the caller.
	ReturnsLocal
	// UseAfterInvalidate: container or string storage used through a
	// pointer, reference or iterator taken before the storage was
	// replaced (growth, clear, assignment).
	UseAfterInvalidate
	// UseOfTemporary: the storage of a temporary used after the full
	// expression that made it.
	UseOfTemporary
	// UseAfterMove: a smart pointer dereferenced, or its null pointer
	// returned, after it was moved from.
	UseAfterMove
	// DeviceUseAfterFree: memory that queued device work uses ended
	// (freed, out of scope, replaced) before anything waited for the
	// work. Use is the call that queued it.
	DeviceUseAfterFree
	// HostReadsPending: the host reads memory that queued device work
	// writes, before anything waited for it. End is the call that queued it.
	HostReadsPending
	// HostWritesPending: the host writes memory that queued device work
	// reads or writes, before anything waited for it.
	HostWritesPending
	// LeftStale: a method gave an owning member new memory at Use and
	// returns with a pointer member the class sets from it (Value) still
	// pointing at the old (see stale.go). Owner is the owning member; End
	// is the method's closing brace.
	LeftStale
	// ThreadOutlives: a detached thread runs a closure that uses memory
	// (a local captured by reference, what a captured pointer points to)
	// that ends while the thread may still run. Use is the detach; End
	// where the memory ended.
	ThreadOutlives
	// OverRelease: a reference-counted object released (release,
	// autorelease) by a function that holds no reference to it: it did
	// not make it with alloc, new, copy or mutableCopy, nor retain it, or
	// it gave its references up already (see counted.go). Use is the
	// release; Via the message; End the message that returned the object.
	OverRelease
	// CallbackOutlives: a closure registered to run when a future or
	// stream completes, or handed to a method of the tree that keeps it to
	// run after returning, uses memory (a local captured by reference,
	// what a captured pointer points to) that ends before anything waited
	// for it. Use is the call that registered it; Value that call's name.
	CallbackOutlives
)

var faultNames = [...]string{"use-after-free", "double-free", "use-after-scope", "returns-local",
	"use-after-invalidate", "use-of-temporary", "use-after-move", "device-use-after-free",
	"host-reads-pending", "host-writes-pending", "left-stale", "thread-outlives", "over-release", "callback-outlives"}

func (k FaultKind) String() string { return faultNames[k] }

// Fault is one fault on one path.
type Fault struct {
	Kind  FaultKind
	Use   parser.NodeID // the use (or the second free, or the return)
	End   parser.NodeID // where the memory ended; None for ReturnsLocal
	Via   string        // what ended it: "delete", "free", "}", "push_back", ...
	Value string        // the expression used, as written
	Owner string        // what owned the memory: a local's name or an expression
	// Call is the call of a closure whose body the fault happened in
	// (None: the function's own code).
	Call parser.NodeID
	// Held: Value is a container handed on while it holds a pointer into
	// the ended memory (the use is of that pointer).
	Held bool
	// Keeper: the object (as its owner is named: a local, "*p") whose
	// method or constructor kept a pointer into the ended memory, used at
	// Use ("" when none); "(range)" for the hidden iterator of a
	// range-based for loop. For a CallbackOutlives, the receiver the
	// closure was registered on or handed to, as written.
	Keeper string
	// Handed: for a CallbackOutlives, the closure was handed to a method
	// that keeps it to run later (else registered on a future or stream).
	Handed bool
	// Captured: for a CallbackOutlives, the pointer or view the closure
	// captured by value and reads the ended memory through ("": it
	// captured the local itself by reference).
	Captured string
	// Owned: for an OverRelease, the function did hold references of the
	// object, and gave them all up before this release.
	Owned bool
	// Lent: the call whose result points into the ended memory, when a
	// method of its owner lent it (0 when not known).
	Lent parser.NodeID
}

// DefaultMaxStates is the bound on the paths alive at once in one
// function's execution.
const DefaultMaxStates = 32

// Options bound an execution.
type Options struct {
	// MaxStates bounds the paths alive at once in one function
	// (DefaultMaxStates when 0);
	// past it paths that differ only in the way they went are merged,
	// then the later paths are dropped, and the result says which.
	MaxStates int
	// Summaries answers for calls; nil: only the std model.
	Summaries Summaries
	// API is what the packs say of library calls (device work, waits);
	// nil: no device.
	API *apimodel.Model
	// Members answers a class's data members' declared types (see
	// FileMembers; nil: no members are followed).
	Members func(class string) map[string]string
	// Alias answers what a type alias names (see FileAliases; nil or "":
	// not an alias holdfast knows).
	Alias func(name string) string
	// Globals are the file's namespace-scope variables by name, with
	// their declared types ("T*" for a pointer; see FileSummaries).
	Globals map[string]string
	// Meter is the file's work budget: every statement executed on a
	// path spends a unit, and once it is out the execution stops as if
	// its own bound were reached (nil: no file budget).
	Meter *budget.Meter
}

// Result is what an execution found.
type Result struct {
	Faults []Fault
	// Cut says the path bound dropped some paths.
	Cut bool
	// Merged says the path bound merged paths that differed only in the
	// way they went (the integer and truth values and the conditions
	// they knew), keeping what they agreed on: later branches were
	// followed both ways where those paths knew which way they went.
	Merged bool
	// Ran lists the lambdas whose bodies ran on some path (those called
	// where they were made); the others are executed on their own.
	Ran []parser.NodeID
}

// Execute runs function definition def of f over every path. def may be a
// lambda expression: its body then runs on its own, with its parameters
// and captures values of an unknown caller.
func Execute(f *parser.File, def parser.NodeID, opt Options) Result {
	return execute(f, def, opt).result()
}

// result is what the execution found.
func (x *exec) result() Result {
	return Result{Faults: x.faults, Cut: x.cut, Merged: x.merged, Ran: x.ran}
}

// execute runs definition def over every path, the bound defaulted.
func execute(f *parser.File, def parser.NodeID, opt Options) *exec {
	if opt.MaxStates == 0 {
		opt.MaxStates = DefaultMaxStates
	}
	x := newExec(f, def, opt)
	x.run()
	return x
}
