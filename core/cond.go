package core

import (
	"math"
	"strconv"
	"strings"

	"github.com/holdfast-dev/holdfast/parser"
)

// constraint is a fact a branch decided about an integer name on a path:
// name op k, or, when sym is set, name == sym or name != sym: sym is a
// constant whose value holdfast does not know (CL_SUCCESS of a header
// outside the tree) or, written "$b", the value local b holds. Equal
// names are equal values whatever their value is, so a branch on one
// decides the same branch later, and a copy of a local carries what the
// path knows of it.
type constraint struct {
	name string
	op   string // == != < <= > >=
	k    int64
	sym  string
}

func (c constraint) negate() constraint {
	neg := map[string]string{"==": "!=", "!=": "==", "<": ">=", "<=": ">", ">": "<=", ">=": "<"}
	c.op = neg[c.op]
	return c
}

// flip turns k op name into name op' k.
func flip(op string) string {
	switch op {
	case "<":
		return ">"
	case "<=":
		return ">="
	case ">":
		return "<"
	case ">=":
		return "<="
	}
	return op
}

// feasible says whether some integer satisfies every constraint on name.
func feasible(cons []constraint, name string) bool {
	lo, hi := int64(math.MinInt64), int64(math.MaxInt64)
	ne := map[int64]bool{}
	for _, c := range cons {
		if c.name != name || c.sym != "" {
			continue
		}
		switch c.op {
		case "==":
			lo, hi = max(lo, c.k), min(hi, c.k)
		case "!=":
			ne[c.k] = true
		case "<":
			if c.k == math.MinInt64 {
				return false
			}
			hi = min(hi, c.k-1)
		case "<=":
			hi = min(hi, c.k)
		case ">":
			if c.k == math.MaxInt64 {
				return false
			}
			lo = max(lo, c.k+1)
		case ">=":
			lo = max(lo, c.k)
		}
	}
	for lo <= hi && ne[lo] {
		lo++
	}
	for lo <= hi && ne[hi] {
		hi--
	}
	return lo <= hi
}

// decide says what c is under cons: 1 surely true, 2 surely false, 0 open.
func decide(cons []constraint, c constraint) int8 {
	if c.sym != "" {
		return decideSym(cons, c)
	}
	if !feasible(append(cons[:len(cons):len(cons)], c), c.name) {
		return 2
	}
	if !feasible(append(cons[:len(cons):len(cons)], c.negate()), c.name) {
		return 1
	}
	return 0
}

// decideSym decides name == sym or name != sym (c.op is one of them):
// by a fact on the same pair, either way round when sym names a local.
func decideSym(cons []constraint, c constraint) int8 {
	for _, d := range cons {
		if d.sym == "" || !(d.name == c.name && d.sym == c.sym || "$"+d.name == c.sym && d.sym == "$"+c.name) {
			continue
		}
		if d.op == c.op {
			return 1
		}
		return 2
	}
	return 0
}

// copyFacts gives local to what the path knows of local from (to = from
// made it a copy), and that the two are equal.
func (s *state) copyFacts(to, from string) {
	if to == from {
		return
	}
	for _, c := range s.cons {
		if c.name == from && c.sym != "$"+to {
			c.name = to
			s.cons = append(s.cons, c)
		}
	}
	s.cons = append(s.cons, constraint{name: to, op: "==", sym: "$" + from})
}

// learnAssigned: local name was just given e's value v (name = e, or its
// declaration T name = e). A copy of another local carries what the path
// knows of that local; a constant whose value holdfast does not know
// (status = ST_OK) is what name equals now.
func (x *exec) learnAssigned(s *state, name string, e parser.NodeID, v value) {
	if v.known {
		return
	}
	e = x.unparen(e)
	if x.kind(e) == parser.KindIdentifier && v.from >= 0 && int(v.from) < len(s.locals) {
		if src := s.locals[v.from]; !src.ref && src.alias == 0 && !src.member {
			s.copyFacts(name, src.name)
		}
		return
	}
	if sym := x.symbol(s, e); sym != "" && !strings.HasPrefix(sym, "$") && v.pt < 0 && v.owns < 0 && !v.null {
		s.cons = append(s.cons, constraint{name: name, op: "==", sym: sym})
	}
}

// forget drops what the path knew about name (it was assigned), and about
// what is read through it (name.size(), name->n).
func (s *state) forget(name string) {
	out := s.cons[:0]
	for _, c := range s.cons {
		if c.name != name && c.name != "*"+name && !strings.HasPrefix(c.name, name+".") && !strings.HasPrefix(c.name, name+"->") && c.sym != "$"+name && c.sym != name {
			out = append(out, c)
		}
	}
	s.cons = out
}

// forgetPointee drops what the path knew of *name.
func (s *state) forgetPointee(name string) {
	if len(s.cons) == 0 {
		return
	}
	out := s.cons[:0]
	for _, c := range s.cons {
		if c.name != "*"+name {
			out = append(out, c)
		}
	}
	s.cons = out
}

// shift moves what the path knew about name by d (name += d), and drops
// what it knew of what is read through it.
func (s *state) shift(name string, d int64) {
	out := s.cons[:0]
	for _, c := range s.cons {
		switch {
		case c.name == name && c.sym != "", c.sym == "$"+name:
			continue
		case c.name == name:
			if (d > 0 && c.k > math.MaxInt64-d) || (d < 0 && c.k < math.MinInt64-d) {
				continue
			}
			c.k += d
		case c.name == "*"+name || strings.HasPrefix(c.name, name+".") || strings.HasPrefix(c.name, name+"->"):
			continue
		}
		out = append(out, c)
	}
	s.cons = out
}

// factKey names what a comparison can learn a fact about: a name, a
// field of a name (x.n, x->n), what a name points to (*p), or a call
// without arguments on a name (v.size()); "" for anything else.
func (x *exec) factKey(n parser.NodeID) string {
	switch x.kind(n) {
	case parser.KindIdentifier:
		return x.text(n)
	case parser.KindParenthesizedExpression:
		if c := x.unparen(n); c != n {
			return x.factKey(c)
		}
	case parser.KindPointerExpression:
		if a := x.f.Field(n, parser.FieldArgument); strings.HasPrefix(x.text(n), "*") && x.kind(a) == parser.KindIdentifier {
			return "*" + x.text(a)
		}
	case parser.KindFieldExpression:
		// p->n, s.a.b, p->next->n: a chain of fields from a name.
		a := x.f.Field(n, parser.FieldArgument)
		for x.kind(a) == parser.KindFieldExpression {
			a = x.f.Field(a, parser.FieldArgument)
		}
		switch x.kind(a) {
		case parser.KindIdentifier:
			return calleeName(x.text(n))
		case parser.KindThis:
			// this->m is the member m, as the bare name reads it.
			return strings.TrimPrefix(strings.TrimPrefix(calleeName(x.text(n)), "this->"), "(*this).")
		}
	case parser.KindCallExpression:
		fn := x.f.Field(n, parser.FieldFunction)
		args := x.f.Field(n, parser.FieldArguments)
		if x.kind(fn) == parser.KindFieldExpression && x.kind(x.f.Field(fn, parser.FieldArgument)) == parser.KindIdentifier &&
			x.f.FirstChild(args) != parser.None && !x.hasNamedChild(args) {
			return calleeName(x.text(n))
		}
	}
	return ""
}

func (x *exec) hasNamedChild(n parser.NodeID) bool {
	for range x.f.NamedChildren(n) {
		return true
	}
	return false
}

// branch is a condition's outcome on one path: surely true (1), surely
// false (2) or open (0), with the facts each arm learns.
type branch struct {
	t       int8
	yes, no []constraint
	// yesKept, noKept: objects a call was taken to free that the arm
	// knows it did not (the call reported a failure).
	yesKept, noKept []int32
	// yesDropped, noDropped: calls taken to queue device work that the
	// arm knows queued nothing (the call reported a failure).
	yesDropped, noDropped []int32
}

// negate is the outcome of the opposite condition.
func (b branch) negate() branch {
	if b.t != 0 {
		b.t = 3 - b.t
	}
	b.yes, b.no = b.no, b.yes
	b.yesKept, b.noKept = b.noKept, b.yesKept
	b.yesDropped, b.noDropped = b.noDropped, b.yesDropped
	return b
}

// compare reads l op r where one side is an integer name and the other a
// known number.
func (x *exec) compare(s *state, n parser.NodeID) (branch, bool) {
	f := x.f
	op := x.text(f.Field(n, parser.FieldOperator))
	switch op {
	case "==", "!=", "<", "<=", ">", ">=":
	default:
		return branch{}, false
	}
	l, r := f.Field(n, parser.FieldLeft), f.Field(n, parser.FieldRight)
	lv, rv := x.eval(s, l), x.eval(s, r)
	if b, ok := failedCall(op, lv, rv, x.text(l), x.text(r)); ok {
		// The status itself is a value the path learns of: a second
		// test of it is decided by the first.
		if c, ok := x.symbolic(s, op, lv, rv, l, r); ok {
			b.t = decide(s.cons, c)
			b.yes, b.no = []constraint{c}, []constraint{c.negate()}
		}
		return b, true
	}
	if eq, ok := samePointer(s, lv, rv); ok && (op == "==" || op == "!=") {
		if eq == (op == "==") {
			return branch{t: 1}, true
		}
		return branch{t: 2}, true
	}
	if lv.known && rv.known {
		if cmp(lv.num, op, rv.num) {
			return branch{t: 1}, true
		}
		return branch{t: 2}, true
	}
	c, ok := x.symbolic(s, op, lv, rv, l, r)
	if !ok {
		// Both sides were executed: the comparison is open, and it must
		// not be executed again (a call in it would run twice).
		return branch{}, true
	}
	return branch{t: decide(s.cons, c), yes: []constraint{c}, no: []constraint{c.negate()}}, true
}

// symbolic is the fact l op r states, with lv and rv their values: a name
// against a known number, or, for == and !=, a name against a constant
// holdfast does not know the value of or against another local.
func (x *exec) symbolic(s *state, op string, lv, rv value, l, r parser.NodeID) (constraint, bool) {
	switch {
	case rv.known && x.factKey(l) != "":
		return constraint{name: x.factKey(l), op: op, k: rv.num}, true
	case lv.known && x.factKey(r) != "":
		return constraint{name: x.factKey(r), op: flip(op), k: lv.num}, true
	case op != "==" && op != "!=" || lv.known || rv.known:
		return constraint{}, false
	}
	if s.lookup(x.text(x.unparen(l))) < 0 && s.lookup(x.text(x.unparen(r))) >= 0 {
		// K == b: the local is the name.
		l, r = r, l
	}
	if key, sym := x.factKey(l), x.symbol(s, r); key != "" && sym != "" && sym != "$"+key {
		return constraint{name: key, op: op, sym: sym}, true
	}
	return constraint{}, false
}

// symbol names what n is as the other side of a fact (see constraint):
// "$b" for a local b that is its own object (not a reference, nor a
// member other methods may set), the name of a constant holdfast has no
// value for (an identifier that is neither a local nor a member, a
// qualified name), or "" when n is neither.
func (x *exec) symbol(s *state, n parser.NodeID) string {
	n = x.unparen(n)
	t := x.text(n)
	switch x.kind(n) {
	case parser.KindIdentifier:
		switch t {
		case "NULL", "true", "false":
			return ""
		}
		if i := s.lookup(t); i >= 0 {
			if l := s.locals[i]; l.ref || l.alias > 0 || l.member || l.deref > 0 {
				return ""
			}
			return "$" + t
		}
		if x.isMember(t, n) {
			return ""
		}
		return t
	case parser.KindQualifiedIdentifier:
		return strings.Join(strings.Fields(t), "")
	}
	return ""
}

func cmp(a int64, op string, b int64) bool {
	switch op {
	case "==":
		return a == b
	case "!=":
		return a != b
	case "<":
		return a < b
	case "<=":
		return a <= b
	case ">":
		return a > b
	}
	return a >= b
}

// number reads an integer literal.
func number(text string) (int64, bool) {
	t := strings.TrimRight(strings.ToLower(text), "ul")
	v, err := strconv.ParseInt(t, 0, 64)
	return v, err == nil
}

// arith folds an operation on known numbers.
func arith(a int64, op string, b int64) (int64, bool) {
	switch op {
	case "+":
		return a + b, true
	case "-":
		return a - b, true
	case "*":
		return a * b, true
	case "/":
		if b != 0 {
			return a / b, true
		}
	case "%":
		if b != 0 {
			return a % b, true
		}
	case "<<":
		if b >= 0 && b < 63 {
			return a << b, true
		}
	case ">>":
		if b >= 0 && b < 63 {
			return a >> b, true
		}
	case "&":
		return a & b, true
	case "|":
		return a | b, true
	case "^":
		return a ^ b, true
	}
	return 0, false
}

// successCodes are the status values the APIs the packs describe return
// on success (CUDA, HIP and OpenCL runtime and driver APIs).
var successCodes = map[string]bool{"cudaSuccess": true, "hipSuccess": true, "CUDA_SUCCESS": true,
	"CL_SUCCESS": true, "0": true}

// failedCall reads a comparison of the status a freeing or queueing call
// returned (err == cudaErrorInvalidValue, err != cudaSuccess): on the arm
// where the call failed, it freed nothing and queued nothing (a call that
// reports an error leaves its arguments as they were: CUDA's runtime API
// returns an error "if the call failed" and OpenCL's clEnqueue* return
// CL_SUCCESS only "if the function is executed successfully").
func failedCall(op string, lv, rv value, l, r string) (branch, bool) {
	if op != "==" && op != "!=" {
		return branch{}, false
	}
	v, other := lv, r
	if v.status == 0 && v.queued == 0 {
		v, other = rv, l
	}
	if v.status == 0 && v.queued == 0 {
		return branch{}, false
	}
	success := successCodes[strings.Join(strings.Fields(other), "")]
	var kept, dropped []int32
	if v.status > 0 {
		kept = []int32{v.status - 1}
	}
	if v.queued > 0 {
		dropped = []int32{v.queued - 1}
	}
	// The arm where the comparison holds fails when it compares against
	// an error (==) or against success (!=).
	if (op == "==") != success {
		return branch{yesKept: kept, yesDropped: dropped}, true
	}
	return branch{noKept: kept, noDropped: dropped}, true
}

// samePointer says whether pointers a and b are equal, when the path
// knows: two pointers to one object that no arithmetic walked over are
// equal; a pointer to memory this path made (a local, a fresh
// allocation no call was handed to keep) is not equal to a pointer to
// another whole object ([expr.eq]: pointers to distinct complete objects
// compare unequal). Parts, walked-over arrays and two objects the caller
// handed in (which may be one) are not known.
func samePointer(s *state, a, b value) (eq, ok bool) {
	if a.kind != tPointer || b.kind != tPointer || a.pt < 0 || b.pt < 0 || int(a.pt) >= len(s.objs) || int(b.pt) >= len(s.objs) {
		return false, false
	}
	oa, ob := &s.objs[a.pt], &s.objs[b.pt]
	if oa.stepped || ob.stepped {
		return false, false
	}
	if a.pt == b.pt {
		return true, true
	}
	if oa.parent != 0 || ob.parent != 0 {
		return false, false
	}
	own := func(o *object) bool { return (o.kind == oHeap || o.kind == oStack) && !o.kept && o.state == live }
	if own(oa) || own(ob) {
		return false, true
	}
	return false, false
}
