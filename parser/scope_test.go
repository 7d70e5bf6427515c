package parser

import (
	"slices"
	"strings"
	"testing"
)

// TestScope checks the namespace of each function definition, the scope
// its body looks names up from, and what the file's using lines name.
func TestScope(t *testing.T) {
	f := parse(t, `
using namespace ::a::b;
using c::d::g;
namespace a {
namespace b { void f1() {} }
inline namespace v1 { void f2() {} }
namespace { void f3() {} }
void B::m() {}
void x::Y<z::W>::m2() { auto l = [] {}; }
}
namespace p::q { void f4() {} }
void ::r::f5() {}
void f6() {}
struct S { using T = int; using Base::h; };
`)
	want := map[string]struct {
		ns    string
		local bool
		scope string
	}{
		"f1": {"a::b", false, "a::b"},
		"f2": {"a", false, "a"},
		"f3": {"a", true, "a"},
		"m":  {"a", false, "a::B"},
		"m2": {"a", false, "a::x::Y"},
		"f4": {"p::q", false, "p::q"},
		"f5": {"", false, "r"},
		"f6": {"", false, ""},
	}
	seen := 0
	for i := range f.Nodes {
		n := NodeID(i)
		if f.Kind(n) != KindFunctionDefinition {
			continue
		}
		text := f.Text(n)
		name := text[:strings.IndexByte(text, '(')]
		name = name[strings.LastIndexAny(name, " :")+1:]
		w, ok := want[name]
		if !ok {
			t.Fatalf("unexpected function %q", name)
		}
		seen++
		ns, local := f.Namespace(n)
		if ns != w.ns || local != w.local || f.Scope(n) != w.scope {
			t.Errorf("%s: namespace %q local %v scope %q, want %q %v %q", name, ns, local, f.Scope(n), w.ns, w.local, w.scope)
		}
		if name == "m2" {
			// A lambda looks names up from the function around it.
			for m := n; m < f.End(n); m++ {
				if f.Kind(m) == KindLambdaExpression && f.Scope(m) != w.scope {
					t.Errorf("lambda in m2: scope %q, want %q", f.Scope(m), w.scope)
				}
			}
		}
	}
	if seen != len(want) {
		t.Errorf("saw %d functions, want %d", seen, len(want))
	}
	namespaces, names := f.Usings()
	if !slices.Equal(namespaces, []string{"a::b"}) || !slices.Equal(names, []string{"c::d::g", "Base::h"}) {
		t.Errorf("usings: %q %q", namespaces, names)
	}
}

// TestStorageMacro checks which macros a file defines only as storage
// classes.
func TestStorageMacro(t *testing.T) {
	f := parse(t, `
#if A
#define TLS thread_local
#else
#  define TLS static
#endif
#define MIXED static
#define MIXED inline
#define TWO static thread_local
#define FN(x) static
#define EMPTY
#ifdef TLS
#endif
`)
	for name, want := range map[string]bool{"TLS": true, "MIXED": false, "TWO": true, "FN": false, "EMPTY": false, "OTHER": false} {
		if got := f.StorageMacro(name); got != want {
			t.Errorf("StorageMacro(%s) = %v, want %v", name, got, want)
		}
	}
}

// TestMemo: a value is computed once per file and key, and the same
// value is given to every later caller.
func TestMemo(t *testing.T) {
	f := &File{}
	runs := 0
	compute := func() any {
		runs++
		return map[string]int{"n": runs}
	}
	a := f.Memo("k", compute).(map[string]int)
	b := f.Memo("k", compute).(map[string]int)
	if runs != 1 || a["n"] != 1 || b["n"] != 1 {
		t.Errorf("computed %d times, values %v and %v; want once, the same", runs, a, b)
	}
	if c := f.Memo("other", compute).(map[string]int); runs != 2 || c["n"] != 2 {
		t.Errorf("another key computed %d times in all, value %v; want its own value", runs, c)
	}
	// A computation that asks for another key gets it.
	nested := f.Memo("outer", func() any { return f.Memo("k", compute) }).(map[string]int)
	if runs != 2 || nested["n"] != 1 {
		t.Errorf("nested: computed %d times in all, value %v; want k's value, no new computation", runs, nested)
	}
}

// TestMayNameReference: the aliases that name a reference, or may once
// instantiated.
func TestMayNameReference(t *testing.T) {
	f := parse(t, `struct Big {};
template <typename T> struct X { using type = T; };
template <typename T> using dep_t = typename X<T>::type;
template <typename T> using id_t = T;
template <typename T> using ptr_t = T*;
template <typename T> using vec_t = X<T>;
using cref = const Big&;
typedef const Big& tref;
using value = Big;
typedef Big tvalue;
`)
	for name, want := range map[string]bool{"dep_t": true, "id_t": true, "cref": true, "tref": true,
		"ptr_t": false, "vec_t": false, "value": false, "tvalue": false} {
		if got := f.MayNameReference(name); got != want {
			t.Errorf("MayNameReference(%q) = %v, want %v", name, got, want)
		}
	}
}
