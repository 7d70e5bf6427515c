package summary

import (
	"maps"
	"slices"
	"strconv"
	"strings"
	"unicode"
)

// documented are calls documented never to return (cppreference:
// std::abort, std::exit, std::quick_exit, std::_Exit, std::terminate,
// std::unreachable, std::longjmp, std::rethrow_exception,
// std::throw_with_nested; C11 7.13.2.1: longjmp does not return; POSIX
// siglongjmp and _longjmp; GCC's __builtin_unreachable and
// __builtin_trap; POSIX pthread_exit: "cannot return to its caller";
// C11 7.26.5.5 thrd_exit, declared _Noreturn; the BSD and glibc err(3)
// family: "The err(), verr(), errc(), verrc(), errx(), and verrx()
// functions do not return"; the LSB's __assert_fail, which assert calls:
// "does not return").
var documented = map[string]bool{"abort": true, "std::abort": true, "exit": true, "std::exit": true,
	"_exit": true, "_Exit": true, "std::_Exit": true, "quick_exit": true, "std::quick_exit": true,
	"std::terminate": true, "terminate": true, "__builtin_unreachable": true, "__builtin_trap": true,
	"std::unreachable": true, "longjmp": true, "std::longjmp": true, "siglongjmp": true, "_longjmp": true,
	"__builtin_longjmp": true, "std::rethrow_exception": true, "rethrow_exception": true,
	"std::throw_with_nested": true, "pthread_exit": true, "thrd_exit": true,
	"err": true, "verr": true, "errc": true, "verrc": true, "errx": true, "verrx": true,
	"__assert_fail": true}

// Documented says name is a call documented never to return.
func Documented(name string) bool { return documented[name] }

// NoReturns decides which names never return when called, from what
// functions and macros say of returning (Exit). A name is decided by:
//
//   - its macros, when it has any (a function-like macro hides the
//     function of its name): every definition of the macro never returns;
//   - else a declaration that never returns ([[noreturn]], or an
//     attribute macro that expands to one), or every definition never
//     returning (each ends in a call that never returns, and no return
//     statement comes before).
//
// A name with no Exit at all is answered by Outside. Cycles (a function
// ending in a call of itself) are taken as returning.
type NoReturns struct {
	// Exits lists what the functions and macros of a name say.
	Exits func(name string) []Exit
	// Defs counts the definitions of a name, Exit or not: a definition
	// that says nothing returns.
	Defs func(name string) int
	// Known says a name is documented never to return (std::abort).
	Known func(name string) bool
	// Outside answers for a name with no Exit (nil: it returns).
	Outside func(name string) bool
	memo    map[string]int8
}

const (
	nrBusy int8 = iota + 1
	nrYes
	nrNo
)

// Is says a call of name never returns.
func (r *NoReturns) Is(name string) bool {
	if r.Known != nil && r.Known(name) {
		return true
	}
	name = lastName(name)
	if r.memo == nil {
		r.memo = map[string]int8{}
	}
	switch r.memo[name] {
	case nrBusy, nrNo:
		return false
	case nrYes:
		return true
	}
	r.memo[name] = nrBusy
	yes := r.decide(name)
	if yes {
		r.memo[name] = nrYes
	} else {
		r.memo[name] = nrNo
	}
	return yes
}

func (r *NoReturns) decide(name string) bool {
	es := r.Exits(name)
	if len(es) == 0 {
		return r.Outside != nil && r.Outside(name)
	}
	macros, defs, defsYes := 0, 0, 0
	for _, e := range es {
		if e.Macro {
			macros++
		}
	}
	if macros > 0 {
		for _, e := range es {
			if e.Macro && !r.entry(e) {
				return false
			}
		}
		return true
	}
	for _, e := range es {
		switch {
		case !e.Def && r.entry(e):
			return true
		case e.Def:
			defs++
			if r.entry(e) {
				defsYes++
			}
		}
	}
	return defs > 0 && defsYes == defs && defs >= r.Defs(name)
}

// entry says one Exit never returns.
func (r *NoReturns) entry(e Exit) bool {
	if e.Check > 0 {
		// A check goes on where its condition holds.
		return false
	}
	if e.NoReturn {
		return true
	}
	for _, v := range e.Via {
		if name, args, ok := splitCallVia(v); ok {
			if r.Is(name) || r.endsInArg(name, args) {
				return true
			}
			continue
		}
		if r.Is(v) {
			return true
		}
	}
	return false
}

// endsInArg says a call of macro name with args never returns because
// every definition of the macro ends in a call of one of its parameters
// (see ParamVia) and the argument there never returns.
func (r *NoReturns) endsInArg(name string, args []string) bool {
	es := r.Exits(lastName(name))
	if len(es) == 0 {
		return false
	}
	for _, e := range es {
		if !e.Macro {
			return false
		}
		ends := e.NoReturn
		for _, v := range e.Via {
			if k, ok := paramOf(v); ok && k < len(args) && args[k] != "" && r.Is(args[k]) {
				ends = true
			}
		}
		if !ends {
			return false
		}
	}
	return true
}

// Checks is the parameter (index + 1) that a call of macro name checks:
// every definition of the macro ends the path where that parameter's
// condition is false, in a call that never returns, and goes on where it
// holds (see Exit.Check). 0 when it is no such macro.
func (r *NoReturns) Checks(name string) int {
	es := r.Exits(lastName(name))
	if len(es) == 0 {
		return 0
	}
	k := es[0].Check
	for _, e := range es {
		if !e.Macro || e.Check == 0 || e.Check != k {
			return 0
		}
		fails := e
		fails.Check = 0
		if !r.entry(fails) {
			return 0
		}
	}
	return k
}

// checkingMacros decides every name of exits that is a checking macro
// (see NoReturns.Checks).
func checkingMacros(exits map[string][]Exit, defs func(string) int) map[string]int {
	r := &NoReturns{Exits: func(name string) []Exit { return exits[name] }, Defs: defs, Known: Documented}
	out := map[string]int{}
	for _, name := range slices.Sorted(maps.Keys(exits)) {
		if k := r.Checks(name); k > 0 {
			out[name] = k
		}
	}
	return out
}

// MacroChecks is the parameter (index + 1) a checking macro of the tree
// checks (see NoReturns.Checks), or 0.
func (ix *Index) MacroChecks(name string) int {
	if ix == nil {
		return 0
	}
	return ix.checks[name]
}

// ParamVia is the Via entry of a macro whose expansion ends in a call of
// its parameter k: "#k".
func ParamVia(k int) string { return "#" + strconv.Itoa(k) }

// paramOf reads a ParamVia entry.
func paramOf(v string) (int, bool) {
	if !strings.HasPrefix(v, "#") {
		return 0, false
	}
	k, err := strconv.Atoi(v[1:])
	return k, err == nil && k >= 0
}

// CallVia is the Via entry of an expansion that ends in a call of name
// with arguments args, each a name or "" (anything else): "name(a,,b)".
// When name is a macro ending in a call of its parameter, the argument
// there decides (see endsInArg).
func CallVia(name string, args []string) string {
	return name + "(" + strings.Join(args, ",") + ")"
}

// splitCallVia reads a CallVia entry.
func splitCallVia(v string) (name string, args []string, ok bool) {
	i := strings.IndexByte(v, '(')
	if i <= 0 || !strings.HasSuffix(v, ")") {
		return "", nil, false
	}
	return v[:i], strings.Split(v[i+1:len(v)-1], ","), true
}

// noReturnNames decides every name of exits (see NoReturns), with defs
// counting a name's definitions; only the names that never return are
// kept.
func noReturnNames(exits map[string][]Exit, defs func(string) int) map[string]bool {
	r := &NoReturns{Exits: func(name string) []Exit { return exits[name] }, Defs: defs, Known: Documented}
	out := map[string]bool{}
	for _, name := range slices.Sorted(maps.Keys(exits)) {
		if r.Is(name) {
			out[name] = true
		}
	}
	return out
}

// NoReturn says a call of name (compared by its last component) never
// returns, as the tree's functions and macros say (see NoReturns); the
// calls documented never to return are the caller's to know.
func (ix *Index) NoReturn(name string) bool {
	return ix != nil && ix.noReturn[lastName(name)]
}

// returningMacros lists the names of exits whose every entry is a macro
// that returns from the function it is used in (see Exit.Returns), or
// that is an alias of one, or forwards to one (#define FAIL FAIL_IMPL,
// #define FAIL(...) FAIL_IMPL(__VA_ARGS__, 0)), through a few such steps.
func returningMacros(exits map[string][]Exit) map[string]bool {
	var returns func(name string, depth int) bool
	returns = func(name string, depth int) bool {
		es := exits[name]
		all := len(es) > 0
		for _, e := range es {
			all = all && e.Macro && (e.Returns || depth > 0 && len(e.Via) == 1 && returns(MacroVia(e.Via[0], name), depth-1))
		}
		return all
	}
	out := map[string]bool{}
	for name := range exits {
		if returns(name, 4) {
			out[name] = true
		}
	}
	return out
}

// MacroVia is the macro a Via entry of macro self names: OTHER (#define
// SELF OTHER) or the one its expansion ends in a call of (#define
// SELF(...) OTHER(__VA_ARGS__)); "" for a parameter, self, or anything
// else.
func MacroVia(via, self string) string {
	if i := strings.IndexByte(via, '('); i > 0 {
		via = via[:i]
	}
	if via == self || via == "" {
		return ""
	}
	for _, r := range via {
		if r != '_' && !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			return ""
		}
	}
	return via
}

// MacroReturns says name is a macro of the tree whose every definition
// returns from the function it is used in (see Exit.Returns).
func (ix *Index) MacroReturns(name string) bool {
	return ix != nil && ix.returns[name]
}

// conditionalReturns maps the names of exits whose every entry is a macro
// returning where one condition holds, the same in each, to that
// condition (see Exit.ReturnIf).
func conditionalReturns(exits map[string][]Exit) map[string]string {
	out := map[string]string{}
	for name, es := range exits {
		if c := sameReturnIf(es); c != "" {
			out[name] = c
		}
	}
	return out
}

// sameReturnIf is the condition every entry of es, each a macro, returns
// under, or "".
func sameReturnIf(es []Exit) string {
	c := ""
	for i, e := range es {
		if !e.Macro || e.ReturnIf == "" || i > 0 && e.ReturnIf != c {
			return ""
		}
		c = e.ReturnIf
	}
	return c
}

// MacroReturnIf is the condition under which a macro of the tree returns
// from the function it is used in (see Exit.ReturnIf), or "".
func (ix *Index) MacroReturnIf(name string) string {
	if ix == nil {
		return ""
	}
	return ix.returnIfs[name]
}

// notRunMacros maps the names of exits whose every entry is a macro
// naming some parameters only where it returns or in a lambda to the
// parameters every entry so names (see Exit.NotRun).
func notRunMacros(exits map[string][]Exit) map[string][]int {
	out := map[string][]int{}
	for name, es := range exits {
		if ps := CommonNotRun(es); len(ps) > 0 {
			out[name] = ps
		}
	}
	return out
}

// CommonNotRun is the parameters every entry of es, each a macro, names
// only where it returns or in a lambda (see Exit.NotRun).
func CommonNotRun(es []Exit) []int {
	var ps []int
	for i, e := range es {
		if !e.Macro || len(e.NotRun) == 0 {
			return nil
		}
		if i == 0 {
			ps = slices.Clone(e.NotRun)
			continue
		}
		ps = slices.DeleteFunc(ps, func(k int) bool { return !slices.Contains(e.NotRun, k) })
	}
	return ps
}

// MacroNotRun is the parameters a macro of the tree names only where
// it returns or in a lambda (see Exit.NotRun), or nil.
func (ix *Index) MacroNotRun(name string) []int {
	if ix == nil {
		return nil
	}
	return ix.notRun[name]
}
