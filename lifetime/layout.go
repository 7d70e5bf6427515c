package lifetime

import (
	"strconv"
	"strings"

	"github.com/holdfast-dev/holdfast/apimodel"
	"github.com/holdfast-dev/holdfast/parser"
)

// This file is a small layout analysis over local tensor values: whether a
// value is provably contiguous, provably not, or unknown, through the
// calls the API model describes (contiguous, view, chunk, transpose,
// factories...), subscripts and local variables. It feeds one fact into
// the model: a .contiguous() whose receiver is provably contiguous returns
// that same tensor, so its Materialise event carries NoCopy and says why.

// layoutState is what is known about a tensor's layout.
type layoutState uint8

const (
	layoutUnknown layoutState = iota
	layoutContig
	layoutStrided
)

// layout is the layout of a tensor value, or of each element of a list of
// tensors (chunk, split).
type layout struct {
	state layoutState
	rank  int  // 0 when unknown
	list  bool // a list of tensors, each with this layout
	why   string
}

// layoutFact is what a variable's last assignment said, valid while the
// scope it was made in is still open. Inside the assigned expression
// itself (x = x.contiguous()) the fact before it, prev, holds.
type layoutFact struct {
	layout
	scope      ScopeID
	start, end uint32
	prev       *layoutFact
}

// layoutOf returns the layout of expression n, reading the facts known
// about local variables at this point of the function.
func (b *builder) layoutOf(n parser.NodeID) layout {
	return b.layoutAt(n, 0)
}

func (b *builder) layoutAt(n parser.NodeID, depth int) layout {
	if depth > 64 {
		return layout{}
	}
	n = b.strip(n)
	switch b.kind(n) {
	case parser.KindIdentifier:
		v := b.lookup(b.text(n), n)
		if v == NoVar || b.layouts == nil {
			return layout{}
		}
		fact := b.layouts[v]
		at := b.at(n)
		for fact != nil && fact.start <= at && at < fact.end {
			fact = fact.prev
		}
		if fact == nil || !b.fn.Encloses(fact.scope, b.scope) {
			return layout{}
		}
		return fact.layout
	case parser.KindSubscriptExpression:
		base := b.layoutAt(b.f.Field(n, parser.FieldArgument), depth+1)
		switch {
		case base.list:
			base.list = false
			if base.why != "" {
				base.why = "one of " + base.why
			}
			return base
		case base.state == layoutContig:
			// t[i] selects along dim 0.
			rank := 0
			if base.rank > 1 {
				rank = base.rank - 1
			}
			return layout{state: layoutContig, rank: rank, why: "a row (dim 0) of " + base.why}
		}
		return layout{}
	case parser.KindCallExpression:
		return b.callLayout(n, depth)
	}
	return layout{}
}

// callLayout returns the layout of a call's result.
func (b *builder) callLayout(n parser.NodeID, depth int) layout {
	name, recv := b.callee(b.f.Field(n, parser.FieldFunction))
	args := b.layoutArgs(n)
	if b.m.Call(name)&apimodel.Move != 0 && len(args) > 0 {
		return b.layoutAt(args[0], depth+1)
	}
	op, ok := b.m.Layout(name)
	if !ok {
		return layout{}
	}
	short := name
	if i := strings.LastIndex(short, "::"); i >= 0 {
		short = short[i+2:]
	}
	input := layout{}
	switch {
	case recv != parser.None:
		input = b.layoutAt(recv, depth+1)
	case op.Result != apimodel.LayoutContiguous && len(args) > 0:
		input = b.layoutAt(args[0], depth+1)
		args = args[1:]
	}
	result := op.Result
	if f, ok := b.memoryFormat(args); ok {
		result = f
	}
	out := layout{}
	switch result {
	case apimodel.LayoutStrided:
		return layout{state: layoutStrided}
	case apimodel.LayoutContiguous:
		out.state = layoutContig
		if short == "contiguous" {
			out.why = "the result of .contiguous()"
		} else {
			out.why = "a new tensor from " + short + "()"
		}
	case apimodel.LayoutKeep:
		if input.state != layoutContig || input.list {
			return layout{}
		}
		out.state = layoutContig
		if op.Dim != nil {
			d := 0
			if *op.Dim < len(args) {
				var ok bool
				if d, ok = intLiteral(b, args[*op.Dim]); !ok {
					return layout{}
				}
			}
			if d < 0 && input.rank > 0 {
				d += input.rank
			}
			if d != 0 {
				return layout{}
			}
			if op.Step != nil && *op.Step < len(args) {
				if s, ok := intLiteral(b, args[*op.Step]); !ok || s != 1 {
					return layout{}
				}
			}
			out.rank = input.rank
			out.why = "a " + short + "() along dim 0 of " + input.why
		} else {
			out.why = "a " + short + "() of " + input.why
		}
	}
	switch {
	case op.Sizes != nil:
		out.rank = b.sizesRank(args, *op.Sizes)
	case op.Rank > 0:
		out.rank = op.Rank
	case op.Rank < 0 && input.rank > 1:
		out.rank = input.rank - 1
	case op.Rank < 0 || op.Dim == nil:
		out.rank = 0
	}
	if out.rank == 1 && result == apimodel.LayoutKeep && op.Dim == nil {
		out.why = "a 1-D " + short + "() of " + input.why
	}
	out.list = op.List
	if out.list && op.Dim != nil {
		out.why = "the " + short + "() pieces along dim 0 of " + input.why
		if input.rank == 1 {
			out.why = "the " + short + "() pieces of " + input.why
		}
	}
	return out
}

// layoutArgs returns a call's arguments, comments left out.
func (b *builder) layoutArgs(n parser.NodeID) []parser.NodeID {
	var out []parser.NodeID
	for a := range b.f.NamedChildren(b.f.Field(n, parser.FieldArguments)) {
		if b.kind(a) != parser.KindComment {
			out = append(out, a)
		}
	}
	return out
}

// memoryFormat finds a memory format named among the arguments
// (at::MemoryFormat::ChannelsLast, t.suggest_memory_format()) and returns
// what it makes of the result.
func (b *builder) memoryFormat(args []parser.NodeID) (string, bool) {
	for _, a := range args {
		end := b.f.End(a)
		for i := a; i < end; i++ {
			switch b.f.Nodes[i].Kind {
			case parser.KindIdentifier, parser.KindFieldIdentifier:
				if f, ok := b.m.MemoryFormat(b.f.Text(i)); ok {
					return f, true
				}
			}
		}
	}
	return "", false
}

// sizesRank returns the rank a size argument gives: the length of an
// initializer list, or the number of arguments from i on when they are
// all integer literals or simple names; 0 when unknown.
func (b *builder) sizesRank(args []parser.NodeID, i int) int {
	if i >= len(args) {
		return 0
	}
	if b.kind(args[i]) == parser.KindInitializerList {
		n := 0
		for c := range b.f.NamedChildren(args[i]) {
			if b.kind(c) != parser.KindComment {
				n++
			}
		}
		return n
	}
	for _, a := range args[i:] {
		if _, ok := intLiteral(b, a); !ok {
			return 0
		}
	}
	return len(args) - i
}

// intLiteral reads an integer literal, signed or not.
func intLiteral(b *builder, n parser.NodeID) (int, bool) {
	n = b.strip(n)
	t := strings.ReplaceAll(collapse(b.text(n)), " ", "")
	switch b.kind(n) {
	case parser.KindNumberLiteral, parser.KindUnaryExpression:
	default:
		return 0, false
	}
	t = strings.TrimRight(t, "lLuU")
	v, err := strconv.Atoi(t)
	return v, err == nil
}

// initFacts records what initialiser value says of v before it is
// modelled: its layout, and whether it comes from a call or a
// constructor.
func (b *builder) initFacts(v VarID, value parser.NodeID) {
	if v == NoVar {
		return
	}
	switch b.kind(b.strip(value)) {
	case parser.KindCallExpression, parser.KindArgumentList, parser.KindInitializerList, parser.KindNewExpression:
		b.fn.Vars[v].FromCall = true
	default:
		b.fn.Vars[v].FromCall = false
	}
	nd := b.f.Nodes[value]
	b.setLayout(v, b.layoutOf(value), nd.Start, nd.End)
}

// noteElemLayout records, for the variable of a range-for over a list of
// tensors, the layout of one element.
func (b *builder) noteElemLayout(v VarID, rng parser.NodeID) {
	if v == NoVar {
		return
	}
	l := b.layoutOf(rng)
	if !l.list {
		b.setLayout(v, layout{}, 0, 0)
		return
	}
	l.list = false
	l.why = "one of " + l.why
	b.setLayout(v, l, 0, 0)
}

// setLayout records l as v's layout from here on; between start and end
// (the expression being assigned) the previous fact still holds.
func (b *builder) setLayout(v VarID, l layout, start, end uint32) {
	if v == NoVar || l.state == layoutUnknown && (b.layouts == nil || b.layouts[v] == nil) {
		return
	}
	if b.layouts == nil {
		b.layouts = map[VarID]*layoutFact{}
	}
	prev := b.layouts[v]
	if prev != nil {
		prev.prev = nil // one step back is all an assignment can see
	}
	b.layouts[v] = &layoutFact{layout: l, scope: b.scope, start: start, end: end, prev: prev}
}

// noCopy reports whether call n, a materialising call whose layout result
// is contiguous, runs on a receiver (or first argument) that is provably
// contiguous already, and why.
func (b *builder) noCopy(n parser.NodeID, name string, recv parser.NodeID) (string, bool) {
	op, ok := b.m.Layout(name)
	if !ok || op.Result != apimodel.LayoutContiguous {
		return "", false
	}
	in := recv
	args := b.layoutArgs(n)
	if in == parser.None {
		if len(args) == 0 {
			return "", false
		}
		in, args = args[0], args[1:]
	}
	if f, ok := b.memoryFormat(args); ok && f != apimodel.LayoutContiguous {
		return "", false
	}
	l := b.layoutOf(in)
	if l.state != layoutContig || l.list {
		return "", false
	}
	return "'" + strings.Join(strings.Fields(b.text(b.strip(in))), " ") + "' is " + l.why, true
}
