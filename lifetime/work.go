package lifetime

import (
	"strings"

	"github.com/holdfast-dev/holdfast/apimodel"
	"github.com/holdfast-dev/holdfast/parser"
)

// This file models what a call does to the buffers it is given: which
// values async work, a copy or a kernel reads and writes (Operand), which
// calls test a value's layout (Check), where the future of async work goes
// when it is not named (Passed), and which .contiguous() calls return
// their receiver unchanged (NoCopy).

// futureRoles returns the roles of call name on receiver recv: a pack may
// give a call other roles on a future ("get" waits on a future, borrows
// from a smart pointer).
func (b *builder) futureRoles(name string, recv parser.NodeID, roles apimodel.Role) apimodel.Role {
	if recv == parser.None {
		return roles
	}
	r, ok := b.m.FutureCall(name)
	if !ok {
		return roles
	}
	if v := b.rootVar(recv); v != NoVar && b.fn.Vars[v].Kind == Future {
		return r
	}
	return roles
}

// effects adds what call n did to the events the call emitted (from
// index mark on): flags on its Async and Materialise events, the
// buffers it reads and writes, the values whose layout it tests.
func (b *builder) effects(n parser.NodeID, mark int, name string, roles apimodel.Role, recv parser.NodeID, recvVar, target VarID) {
	async := false
	for i := mark; i < len(b.fn.Events); i++ {
		e := &b.fn.Events[i]
		if e.Node != n {
			continue
		}
		switch e.Kind {
		case Async:
			async = true
			if e.Var == NoVar && roles&apimodel.Yield != 0 && b.passedOn(n) {
				e.Flags |= Passed
			}
		case Materialise:
			if why, ok := b.noCopy(n, name, recv); ok {
				e.Flags |= NoCopy
				e.Text = why
			} else if in := b.materialInput(n, recv); in != parser.None {
				e.Text = "'" + strings.Join(strings.Fields(b.text(b.strip(in))), " ") + "'"
			}
		case Mutate:
			b.setLayout(e.Var, layout{}, 0, 0)
		}
	}
	launch := b.kind(b.f.Field(n, parser.FieldFunction)) == parser.KindCallExpression
	if async || roles&(apimodel.Write|apimodel.WriteArg|apimodel.Bind) != 0 || launch {
		b.operands(n, name, roles, async, recv, recvVar, target, launch)
	}
	if roles&apimodel.Check != 0 {
		v := recvVar
		if v == NoVar && recv != parser.None {
			v = b.chainRoot(recv)
		}
		if v == NoVar {
			if args := b.layoutArgs(n); len(args) > 0 {
				v = b.chainRoot(args[0])
			}
		}
		if v != NoVar {
			b.emit(Event{Kind: Check, Node: n, Var: v, Other: NoVar, Owner: NoVar, Call: name})
		}
	}
}

// operands emits an Operand event for every local value call n hands its
// work: the receiver chain's root and each argument's (x, &x, x.data(),
// x->buffer()). Written marks the one the call writes; Bound the ones it
// hands to a kernel that may write them.
func (b *builder) operands(n parser.NodeID, name string, roles apimodel.Role, async bool, recv parser.NodeID, recvVar, target VarID, launch bool) {
	future := NoVar
	if async && target != NoVar && b.fn.Vars[target].Kind == Future {
		future = target
	}
	if launch {
		fn := b.f.Field(n, parser.FieldFunction)
		name = stripTemplateArgs(collapse(b.text(b.f.Field(fn, parser.FieldFunction)))) + "<<<>>>"
	}
	seen := map[VarID]bool{}
	if recv != parser.None {
		v := recvVar
		if v == NoVar {
			v = b.chainRoot(recv)
		}
		if v != NoVar {
			seen[v] = true
			fl := Flags(0)
			if roles&apimodel.Write != 0 {
				fl |= Written
			}
			b.emit(Event{Kind: Operand, Node: n, At: b.at(recv), Var: v, Other: future, Owner: NoVar, Call: name, Flags: fl | Receiver})
		}
	}
	for i, a := range b.layoutArgs(n) {
		v := b.operandRoot(a)
		if v == NoVar && b.temporaryOwner(a) {
			b.emit(Event{Kind: Operand, Node: n, At: b.at(a), Var: NoVar, Other: future, Owner: NoVar, Call: name,
				Flags: Argument | Temporary, Text: strings.Join(strings.Fields(b.text(a)), " ")})
			continue
		}
		if v == NoVar || seen[v] || b.fn.Vars[v].Kind == Lambda {
			continue
		}
		seen[v] = true
		fl := Argument
		switch {
		case launch:
			fl |= Bound
		case i == 0 && (roles&apimodel.WriteArg != 0 || roles&apimodel.Write != 0 && recv == parser.None):
			fl |= Written
		case roles&apimodel.Bind != 0:
			fl |= Bound
		}
		b.emit(Event{Kind: Operand, Node: n, At: b.at(a), Var: v, Other: future, Owner: NoVar, Call: name, Flags: fl})
	}
}

// passedOn reports whether the result of call n is handed on as it is:
// returned, put in a returned initializer list, passed to another call
// (one that does not wait on it), or chained into a continuation.
func (b *builder) passedOn(n parser.NodeID) bool {
	f := b.f
	child := n
	for p := f.Nodes[n].Parent; p != parser.None; child, p = p, f.Nodes[p].Parent {
		switch f.Kind(p) {
		case parser.KindParenthesizedExpression, parser.KindCastExpression, parser.KindInitializerList:
			continue
		case parser.KindReturnStatement, parser.KindCoReturnStatement:
			return true
		case parser.KindArgumentList:
			call := f.Nodes[p].Parent
			if call == parser.None || f.Kind(call) != parser.KindCallExpression {
				return false
			}
			name, _ := b.callee(f.Field(call, parser.FieldFunction))
			return b.m.Call(name)&apimodel.Wait == 0
		case parser.KindFieldExpression:
			call := f.Nodes[p].Parent
			if f.Nodes[child].Field != parser.FieldArgument || call == parser.None || f.Kind(call) != parser.KindCallExpression {
				return false
			}
			name, _ := b.callee(f.Field(call, parser.FieldFunction))
			return b.m.Call(name)&(apimodel.Callback|apimodel.Consume) != 0
		default:
			return false
		}
	}
	return false
}

// operandRoot returns the local value an argument denotes: the root of a
// call chain (x, x.data(), x->buffer()), or what a borrowing free
// function borrows from (getMTLBufferStorage(t), &x).
func (b *builder) operandRoot(a parser.NodeID) VarID {
	if v := b.chainRoot(a); v != NoVar {
		return v
	}
	for depth := 0; depth < 8; depth++ {
		a = b.strip(a)
		if b.kind(a) != parser.KindCallExpression {
			return NoVar
		}
		name, recv := b.callee(b.f.Field(a, parser.FieldFunction))
		if recv != parser.None || b.m.Call(name)&apimodel.Borrow == 0 {
			return NoVar
		}
		args := b.layoutArgs(a)
		if len(args) == 0 {
			return NoVar
		}
		if v := b.chainRoot(args[0]); v != NoVar {
			return v
		}
		a = args[0]
	}
	return NoVar
}

// materialInput returns the expression a materialising call copies: its
// receiver, or its first argument.
func (b *builder) materialInput(n, recv parser.NodeID) parser.NodeID {
	if recv != parser.None {
		return recv
	}
	if args := b.layoutArgs(n); len(args) > 0 {
		return args[0]
	}
	return parser.None
}

// temporaryOwner reports whether argument a builds an object that owns
// memory in place: a call of a type's constructor, T(...), where
// the packs or a class of the file say T owns memory.
func (b *builder) temporaryOwner(a parser.NodeID) bool {
	a = b.strip(a)
	if b.kind(a) != parser.KindCallExpression {
		return false
	}
	fn := b.f.Field(a, parser.FieldFunction)
	if k := b.kind(fn); k != parser.KindIdentifier && k != parser.KindQualifiedIdentifier && k != parser.KindTemplateFunction {
		return false
	}
	typ := stripTemplateArgs(collapse(b.text(fn)))
	base := typ
	if i := strings.LastIndex(base, "::"); i >= 0 {
		base = base[i+2:]
	}
	if b.m.IsOwner(typ) || b.m.IsTensor(typ) || b.m.IsContainer(typ) {
		return true
	}
	c := b.classes.byName[base]
	return c != nil && c.Node != parser.None && c.Owns()
}
