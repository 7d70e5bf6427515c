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
