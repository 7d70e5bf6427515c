package parser

import (
	"errors"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	sitter "github.com/tree-sitter/go-tree-sitter"
)

func parse(t *testing.T, src string) *File {
	t.Helper()
	return parseAs(t, "x.cc", src)
}

// parseAs parses src as the file name, whose extension picks the language.
func parseAs(t *testing.T, name, src string) *File {
	t.Helper()
	p, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	f, err := p.Parse(name, filepath.Ext(name), []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// TestFlattenMatchesBinding walks the same tree through the binding's own
// cursor and checks the flat table node by node, which also checks that
// the Tree layout the flattener relies on still holds.
func TestFlattenMatchesBinding(t *testing.T) {
	src := []byte("int f(std::vector<int>& v) { for (auto& x : v) { g(x.data(), &x); } return v.size(); }\nstruct S { int a; };\n")
	p := sitter.NewParser()
	defer p.Close()
	g := cppGrammar()
	if err := p.SetLanguage(g.lang); err != nil {
		t.Fatal(err)
	}
	tree := p.Parse(src, nil)
	defer tree.Close()
	raw, err := flatten(tree)
	if err != nil {
		t.Fatal(err)
	}
	c := tree.Walk()
	defer c.Close()
	i := 0
	var visit func()
	visit = func() {
		n := c.Node()
		if i >= len(raw) {
			t.Fatalf("flat table has %d nodes, binding has more", len(raw))
		}
		r := raw[i]
		if uint(r.Start) != n.StartByte() || uint(r.End) != n.EndByte() || r.Sym != n.KindId() || r.Field != c.FieldId() {
			t.Fatalf("node %d: flat %+v, binding %s [%d,%d) field %d", i, r, n.Kind(), n.StartByte(), n.EndByte(), c.FieldId())
		}
		i++
		if c.GotoFirstChild() {
			for {
				visit()
				if !c.GotoNextSibling() {
					break
				}
			}
			c.GotoParent()
		}
	}
	visit()
	if i != len(raw) {
		t.Fatalf("binding has %d nodes, flat table %d", i, len(raw))
	}
}

func TestKindsExistInGrammar(t *testing.T) {
	g := cppGrammar()
	for k, name := range kindNames {
		if name == "" || Kind(k) == KindError || Kind(k) == KindMacroBlock {
			continue // holdfast's own kinds
		}
		if g.lang.IdForNodeKind(name, true) == 0 && g.lang.IdForNodeKind(name, false) == 0 {
			t.Errorf("kind %q is not in the C++ grammar", name)
		}
	}
	for _, name := range fieldNames {
		if name != "" && g.lang.FieldIdForName(name) == 0 {
			t.Errorf("field %q is not in the C++ grammar", name)
		}
	}
}

func TestNavigation(t *testing.T) {
	f := parse(t, "void f() { a.b(c); }")
	call := None
	for i := range f.Nodes {
		if f.Nodes[i].Kind == KindCallExpression {
			call = NodeID(i)
		}
	}
	if call == None {
		t.Fatal("no call_expression")
	}
	if got := f.Text(f.Field(call, FieldFunction)); got != "a.b" {
		t.Errorf("function field = %q", got)
	}
	if got := f.Text(f.Field(call, FieldArguments)); got != "(c)" {
		t.Errorf("arguments field = %q", got)
	}
	if f.Ancestor(call, KindFunctionDefinition) == None {
		t.Error("call has no function_definition ancestor")
	}
	end := f.End(call)
	for i := call + 1; i < end; i++ {
		if f.Ancestor(i, KindCallExpression) != call {
			t.Errorf("node %d inside [call, End) is not under the call", i)
		}
	}
	var sb strings.Builder
	if err := f.Dump(&sb, true); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(sb.String(), "function: field_expression") {
		t.Errorf("dump lacks the call's function field:\n%s", sb.String())
	}
}

func TestPosition(t *testing.T) {
	f := &File{Src: []byte("ab\ncd\r\nef\rg")}
	for _, tc := range []struct{ off, line, col int }{{0, 1, 1}, {1, 1, 2}, {3, 2, 1}, {7, 3, 1}, {10, 4, 1}} {
		if l, c := f.Position(tc.off); l != tc.line || c != tc.col {
			t.Errorf("Position(%d) = %d:%d, want %d:%d", tc.off, l, c, tc.line, tc.col)
		}
	}
}

func TestDeepNestingDoesNotRecurse(t *testing.T) {
	const depth = 100000
	src := "void f() {" + strings.Repeat("{", depth) + strings.Repeat("}", depth) + "}"
	f := parse(t, src)
	if len(f.Nodes) < depth {
		t.Fatalf("only %d nodes for %d nested blocks", len(f.Nodes), depth)
	}
}

func TestRewriteDeclMacros(t *testing.T) {
	listed := map[string]bool{"TT_ASSIGN_OR_RETURN": true, "ASSIGN_OR_RETURN": true, "TF_ASSIGN_OR_RETURN": true}
	for _, tc := range []struct{ in, want string }{
		// Listed macros.
		{"TT_ASSIGN_OR_RETURN(DeviceBufferRef b, GetBaseBuffer(t));", "                    DeviceBufferRef b= GetBaseBuffer(t) ;"},
		{"TF_ASSIGN_OR_RETURN(auto x, f(a, b), _ << \"m,\");", "                    auto x= f(a, b)            ;"},
		{"ASSIGN_OR_RETURN(std::pair<int, int> p, g());", "                 std::pair<int, int> p= g() ;"},
		{"ASSIGN_OR_RETURN(x, f());", "                 x= f() ;"},
		{"ASSIGN_OR_RETURN(x, f()", "ASSIGN_OR_RETURN(x, f()"},
		{"ASSIGN_OR_RETURN;", "ASSIGN_OR_RETURN;"},
		// Unlisted macros whose first argument declares a name.
		{"ASSERT_OK_AND_ASSIGN(auto stream, executor->CreateStream());", "                     auto stream= executor->CreateStream() ;"},
		{"TF_ASSERT_OK_AND_ASSIGN(std::unique_ptr<Buffer> b, client->Create(x));", "                        std::unique_ptr<Buffer> b= client->Create(x) ;"},
		{"MY_PROJECT_ASSIGN_OR_RETURN(Foo* f, Get());", "                            Foo* f= Get() ;"},
		{"{ X_OR_RETURN(const auto& [a, b], Pair()); }", "{             const auto& [a, b]= Pair() ; }"},
		{"x; GET_OR(absl::StatusOr<int> v, F(), \"why\");", "x;        absl::StatusOr<int> v= F()        ;"},
		{"case 1: A_B(unsigned long n, Count());", "case 1:     unsigned long n= Count() ;"},
		{"A_B(::ns::T<int>::U&& u, G());", "    ::ns::T<int>::U&& u= G() ;"},
		{"A_B(Foo &f, G());", "    Foo &f= G() ;"},
		// Not declarations.
		{"IREE_RETURN_IF_ERROR(f(x));", "IREE_RETURN_IF_ERROR(f(x));"},
		{"CHECK_EQ(a, b);", "CHECK_EQ(a, b);"},
		{"EXPECT_EQ(x.size(), 3);", "EXPECT_EQ(x.size(), 3);"},
		{"FOO_BAR(int, x);", "FOO_BAR(int, x);"},
		{"CHECK_EQ(a * b, c);", "CHECK_EQ(a * b, c);"},
		{"DCHECK_EQ(x & mask, 0);", "DCHECK_EQ(x & mask, 0);"},
		{"CHECK_LT(a < b, c);", "CHECK_LT(a < b, c);"},
		{"CHECK_LT(a<t->n, \"m\");", "CHECK_LT(a<t->n, \"m\");"},
		{"CHECK_LT(a <t>n, \"m\");", "CHECK_LT(a <t>n, \"m\");"},
		{"DEFINE_OP(Tensor a, Tensor b);", "DEFINE_OP(Tensor a, Tensor b);"},
		{"EXPECT_EQ(out [i], 7);", "EXPECT_EQ(out [i], 7);"},
		{"EXPECT_EQ(out[i], 7);", "EXPECT_EQ(out[i], 7);"},
		{"FOR_EACH(auto& x, v) { g(x); }", "FOR_EACH(auto& x, v) { g(x); }"},
		{"y = WRAP_IT(Foo f, g());", "y = WRAP_IT(Foo f, g());"},
		{"s::A_B(Foo f, g());", "s::A_B(Foo f, g());"},
		{"A_B(return x, g());", "A_B(return x, g());"},
		{"Assign_Or(auto x, g());", "Assign_Or(auto x, g());"},
		{"A_B(Foo f, );", "A_B(Foo f, );"},
		{"// A_B(Foo f, g());", "// A_B(Foo f, g());"},
		{"s = \"A_B(Foo f, g());\";", "s = \"A_B(Foo f, g());\";"},
		{"#define M A_B(Foo f, g());", "#define M A_B(Foo f, g());"},
	} {
		got := string(rewriteDeclMacros([]byte(tc.in), listed))
		if got != tc.want {
			t.Errorf("rewrite(%q)\n got %q\nwant %q", tc.in, got, tc.want)
		}
		if len(got) != len(tc.in) {
			t.Errorf("rewrite(%q) changed the length", tc.in)
		}
	}
}

func TestNeutraliseCUDA(t *testing.T) {
	for _, tc := range []struct {
		in, want string
		launches bool
	}{
		{"__global__ void k(float* __restrict__ x) {}", "           void k(float*              x) {}", true},
		{"__global__ void __launch_bounds__(256, 2) k() {}", "           void                           k() {}", true},
		{"k<float><<<g, b, 0, s>>>(x, n);", "k<float>(  g, b, 0, s)  (x, n);", true},
		{"k<<<g, b>>>(x);", "k<<<g, b>>>(x);", false},
		{"int my__device__x; a <<< b;", "int my__device__x; a <<< b;", true},
		// <<< and >>> with no argument list after them: not a launch.
		{"auto s = \"<<< x >>>\" ", "auto s = \"<<< x >>>\" ", true},
		{"__shared__ float s[256]; __constant__ int c;", "static     float s[256]; static       int c;", true},
		{"extern __shared__ __align__(sizeof(float)) unsigned char s[];", "extern static                              unsigned char s[];", false},
		{"struct __align__(16) V { float x; }; int my__align__(3);", "struct               V { float x; }; int my__align__(3);", false},
	} {
		got := string(neutraliseCUDA([]byte(tc.in), tc.launches))
		if got != tc.want {
			t.Errorf("neutraliseCUDA(%q)\n got %q\nwant %q", tc.in, got, tc.want)
		}
	}
	src := "template <typename T>\n__global__ void __launch_bounds__(256) kern(const T* __restrict__ x, T* y) {\n  __shared__ float s[256];\n  y[0] = x[0];\n}\nvoid launch(float* x, float* y, cudaStream_t stream) {\n  kern<float><<<1, 256, 0, stream>>>(x, y);\n}\n"
	p, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	f, err := p.Parse("k.cu", ".cu", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if f.Errors != 0 {
		var sb strings.Builder
		_ = f.Dump(&sb, true)
		t.Errorf("CUDA source still has %d parse errors:\n%s", f.Errors, sb.String())
	}
	// HIP and CUDA code compiled from a .cpp file launches kernels too.
	hip := "void launch(int* d) {\n  dummy<<<1, 1, 0, nullptr>>>(d);\n  use(d);\n}\n"
	if f, err = p.Parse("t.cpp", ".cpp", []byte(hip)); err != nil || f.Errors != 0 {
		var sb strings.Builder
		if f != nil {
			_ = f.Dump(&sb, true)
		}
		t.Errorf("a launch in a .cpp file: %v, parse errors:\n%s", err, sb.String())
	}
}

func TestTimeout(t *testing.T) {
	p, err := New(Options{Timeout: 20 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	big := strings.Repeat("void f() { int x = a(b(c(d))) + g<h<i>>(j); }\n", 200000)
	_, err = p.Parse("big.cc", ".cc", []byte(big))
	if !errors.Is(err, ErrTimeout) {
		t.Fatalf("err = %v, want ErrTimeout", err)
	}
	// The parser is usable again afterwards.
	f, err := p.Parse("small.cc", ".cc", []byte("int x;"))
	if err != nil || f.Errors != 0 {
		t.Fatalf("after a timeout: %v, %v", f, err)
	}
}

// TestParseFlatMatchesBinding parses the rules' testdata both through the
// binding's Parse and through parseFlat and requires identical tables.
func TestParseFlatMatchesBinding(t *testing.T) {
	paths, _ := filepath.Glob("../rules/testdata/*/*")
	if len(paths) == 0 {
		t.Skip("no testdata")
	}
	g := cppGrammar()
	p := sitter.NewParser()
	defer p.Close()
	if err := p.SetLanguage(g.lang); err != nil {
		t.Fatal(err)
	}
	for _, path := range paths {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		tree := p.Parse(src, nil)
		want, err := flatten(tree)
		tree.Close()
		if err != nil {
			t.Fatal(err)
		}
		got, ok, err := parseFlat(p, src, nil)
		if !ok || err != nil {
			t.Fatalf("%s: parseFlat: ok=%v err=%v", path, ok, err)
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s: parseFlat differs from the binding's parse", path)
		}
	}
}

func TestBlankDeadBranches(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"a;\n#if 0\nb;\n#endif\nc;\n", "a;\n     \n  \n      \nc;\n"},
		{"#if false // off\nb;\n#else\nc;\n#endif\n", "                \n  \n     \nc;\n      \n"},
		{"#if (0)\n#if X\nb;\n#else\nd;\n#endif\n#else\nc;\n#endif\n", "       \n     \n  \n     \n  \n      \n     \nc;\n      \n"},
		{"#if 0\nb;\n#elif X\nc;\n#else\nd;\n#endif\n", "     \n  \n#if   X\nc;\n#else\nd;\n#endif\n"},
		{"#if 0\nb;\n#elifdef X\nc;\n#endif\n", "     \n  \n#ifdef   X\nc;\n#endif\n"},
		{"#if X\nb;\n#elif 0\nc;\n#else\nd;\n#endif\n", "#if X\nb;\n       \n  \n#else\nd;\n#endif\n"},
		{"#if 1\nb;\n#else\nc;\n#endif\n", "#if 1\nb;\n     \n  \n#endif\n"},
		{"#if 0\r\nb;\r\n#endif\r\n", "     \r\n  \r\n      \r\n"},
		{"#if 0 \\\n  || 1\nb;\n#endif\n", "#if 0 \\\n  || 1\nb;\n#endif\n"},
		{"#ifdef X\nb;\n#else\nc;\n#endif\n", "#ifdef X\nb;\n#else\nc;\n#endif\n"},
		{"#if 0\nb;\n", "#if 0\nb;\n"},
		{"x = a #if 0\n", "x = a #if 0\n"},
		// A directive inside a comment or a (raw) string is text.
		{"/*\n#if 0\n*/\nb;\n#endif\n", "/*\n#if 0\n*/\nb;\n#endif\n"},
		{"const char* s = R\"x(\n#if 0\n)x\";\nb;\n#endif\n", "const char* s = R\"x(\n#if 0\n)x\";\nb;\n#endif\n"},
		{"// c \\\n#if 0\nb;\n#endif\n", "// c \\\n#if 0\nb;\n#endif\n"},
		{"int n = 1'000;\n#if 0\nb;\n#endif\n", "int n = 1'000;\n     \n  \n      \n"},
	} {
		dirs, chains := conditionals([]byte(tc.in))
		got := string(blankDeadBranches([]byte(tc.in), dirs, chains))
		if got != tc.want {
			t.Errorf("blankDeadBranches(%q)\n got %q\nwant %q", tc.in, got, tc.want)
		}
	}
	// The #else branch of #if 0 is code; the #if 0 branch is not.
	f := parse(t, "void f() {\n#if 0\n  int dead = (;\n#else\n  int live = 1;\n#endif\n}\n")
	if f.Errors != 0 {
		t.Errorf("%d parse errors", f.Errors)
	}
	var names []string
	for i := range f.Nodes {
		if f.Nodes[i].Kind == KindIdentifier {
			names = append(names, f.Text(NodeID(i)))
		}
	}
	if !slices.Contains(names, "live") || slices.Contains(names, "dead") {
		t.Errorf("identifiers %q, want live and not dead", names)
	}
}

func TestJoinElseGroups(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		// A group that continues an if statement loses its directives.
		{"if (a) {}\n#ifndef X\nelse if (b) {}\n#endif\n", "if (a) {}\n         \nelse if (b) {}\n      \n"},
		{"}\n#ifdef Y // on\n  /* arm */ else {}\n#endif\n", "}\n              \n  /* arm */ else {}\n      \n"},
		// Another first word, or a group with an #else, stays.
		{"#ifndef X\nelsewhere();\n#endif\n", "#ifndef X\nelsewhere();\n#endif\n"},
		{"#ifdef X\nelse {}\n#else\nelse {}\n#endif\n", "#ifdef X\nelse {}\n#else\nelse {}\n#endif\n"},
		{"#if X\nint a;\n#endif\n", "#if X\nint a;\n#endif\n"},
	} {
		dirs, chains := conditionals([]byte(tc.in))
		got := string(joinElseGroups([]byte(tc.in), dirs, chains))
		if got != tc.want {
			t.Errorf("joinElseGroups(%q)\n got %q\nwant %q", tc.in, got, tc.want)
		}
	}
	// The arm is read as the if statement's.
	f := parse(t, "void f(int a) {\n  if (a) {\n  }\n#ifndef X\n  else if (a > 1) {\n  }\n#endif\n}\n")
	n := 0
	for i := range f.Nodes {
		if f.Nodes[i].Kind == KindIfStatement {
			n++
		}
	}
	if f.Errors != 0 || n != 2 {
		t.Errorf("%d parse errors, %d if statements; want 0 and 2", f.Errors, n)
	}
}

func TestSplitConditionalKeepsFirstBranch(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		want      []string // identifiers the parse must hold
	}{
		{"brace split between branches", `void f(Buffer* b) {
#ifdef USE_CUDA
  if (b->on_device()) {
#else
  if (b->valid()) {
#endif
    Use(b);
  }
}
void g() { Other(); }
`, []string{"on_device", "Use", "Other"}},
		{"else split from its if", `int f(int x) {
#if defined(A)
  if (x) {
    return 1;
  } else
#endif
  {
    return Use(x);
  }
}
`, []string{"Use"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := New(Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer p.Close()
			before, tree, err := p.parse("x.cc", ".cc", []byte(tc.src), nil)
			if err != nil {
				t.Fatal(err)
			}
			deleteTree(tree)
			f, err := p.Parse("x.cc", ".cc", []byte(tc.src))
			if err != nil {
				t.Fatal(err)
			}
			if before.Errors == 0 || f.Errors >= before.Errors {
				t.Fatalf("errors: %d as written, %d read; want fewer read", before.Errors, f.Errors)
			}
			if len(f.Src) != len(tc.src) {
				t.Fatal("source length changed")
			}
			// The reparse reuses the first tree; it must equal a fresh parse.
			fresh, tree, err := p.parse("x.cc", ".cc", f.Src, nil)
			if err != nil {
				t.Fatal(err)
			}
			deleteTree(tree)
			if !slices.Equal(fresh.Nodes, f.Nodes) {
				t.Error("the incremental reparse differs from a fresh parse of the same text")
			}
			var ids []string
			for i := range f.Nodes {
				if k := f.Nodes[i].Kind; k == KindIdentifier || k == KindFieldIdentifier {
					ids = append(ids, f.Text(NodeID(i)))
				}
			}
			for _, w := range tc.want {
				if !slices.Contains(ids, w) {
					t.Errorf("no %s in %q", w, ids)
				}
			}
			// Offsets are exact: Use( is where the source has it.
			off := strings.Index(tc.src, "Use(")
			for i := range f.Nodes {
				if f.Text(NodeID(i)) == "Use" && int(f.Nodes[i].Start) != off {
					t.Errorf("Use at %d, source has it at %d", f.Nodes[i].Start, off)
				}
			}
		})
	}
	// A conditional outside the erroneous function is left alone.
	src := "#ifdef X\nint a;\n#else\nint b;\n#endif\nvoid f() { g(; }\n"
	f := parse(t, src)
	if !strings.Contains(string(f.Src), "int b;") {
		t.Errorf("an unrelated #else branch was blanked:\n%s", f.Src)
	}
}

func TestRewriteBraceCaptures(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"f([seq{op.id}](int a) { g(seq); });", "f([seq=op.id ](int a) { g(seq); });"},
		{"auto l = [this, n{std::move(x)}, &y]() {};", "auto l = [this, n=std::move(x) , &y]() {};"},
		{"auto l = [a = T{1}, b{2}] mutable {};", "auto l = [a = T{1}, b=2 ] mutable {};"},
		// subscripts and initialisers are left alone
		{"x = v[i{1}];", "x = v[i{1}];"},
		{"int a[] = {1, 2};", "int a[] = {1, 2};"},
		{"y = m[k];", "y = m[k];"},
		{"s = \"[a{b}](\";", "s = \"[a{b}](\";"},
	} {
		if got := string(rewriteBraceCaptures([]byte(tc.in))); got != tc.want {
			t.Errorf("rewriteBraceCaptures(%q) = %q, want %q", tc.in, got, tc.want)
		}
		if len(tc.in) != len(tc.want) {
			t.Fatalf("test case changes the length: %q", tc.in)
		}
	}
}

// TestAttributeMacros: unknown attribute, calling-convention, loop-prefix
// and format macros on the lines of parse errors are read as what they
// expand to, without moving a byte; the parse then has fewer errors and
// the function's code is there. Code that parses is left as written.
func TestAttributeMacros(t *testing.T) {
	for _, tc := range []struct{ name, src string }{
		{"export and calling convention", "LIB_EXPORT void LIB_CALL Export(int* p) {\n  Use(p);\n}\n"},
		{"loop prefix on its own line", "int Sum(int n) {\n  int s = 0;\n  PRAGMA_LOOP_UNROLL\n  for (int i = 0; i < n; i++) {\n    Use(i);\n  }\n  return s;\n}\n"},
		{"format macro pasted to strings", "void Log(unsigned long x) {\n  Print(\"got %\" PRIu64 \" items\", x);\n  Use(x);\n}\n"},
		{"restrict parameter", "void Copy(char* LIB_RESTRICT dest, int n) {\n  Use(dest);\n}\n"},
		{"trailing attribute", "void Lock(Mutex* m) NO_THREAD_SAFETY_ANALYSIS {\n  Use(m);\n}\n"},
		{"nullability qualifier", "bool Check(const Op& op, std::string* absl_nonnull error) {\n  Use(error);\n  return true;\n}\n"},
		{"attribute after a lambda's parameters", "void Run(Iter& it) {\n  kernel(it, [=](int a, int b)\n      __no_sanitize__ -> int { return a + b; });\n  Use(it);\n}\n"},
		{"attribute after a lambda's captures", "void Run(Iter& it, int* w) {\n  kernel(it, [w] DEVICE_LAMBDA (int a) { return *w * a; });\n  Use(it);\n}\n"},
		{"attribute before a lambda parameter", "void Run(int n) {\n  parallel(0, n, [&](int lo, MAYBE_UNUSED int hi) { lo++; });\n  Use(n);\n}\n"},
		{"attribute after a range-for name", "void Run(int n) {\n  for (const auto i MAYBE_UNUSED : range(n)) {\n    step();\n  }\n  Use(n);\n}\n"},
		{"export macro in a class head", "class LIB_EXPORT Gadget {\n  int Size() const { return Use(0); }\n};\n"},
		{"conditional lines in a class head", "template <class T>\nclass LIB_SENDABLE\n#ifndef HIDE_PROTOCOLS\n#ifdef WITH_PROTOCOLS\nCONFORMS_TO(proto.FutureOps)\n#endif\n#endif\n    Future {\n public:\n  Future(const Future<T>& o) : state(o.state) {}\n  ~Future() { Use(state); }\n private:\n  T* state;\n};\n"},
		{"export macro in a struct head with a base", "struct LIB_EXPORT Part : Base {\n  void Run(int n) { Use(n); }\n};\n"},
		{"a new array of pointers", "void Grow(int n) {\n  int** s = new int*[n];\n  s[0] = new std::vector<int> *[n + 1];\n  Use(s);\n}\n"},
		{"statement macros around a body", "Obj* Size(Obj* self, Obj* args) {\n  HANDLE_ERRORS\n  static Parser parser({\n    \"size(int dim)\",\n  });\n  if (self->view()) {\n    return Use(self);\n  }\n  return parser.parse(self, args);\n  END_HANDLE_ERRORS\n}\n"},
		{"alignment macro before a local array", "template <typename T>\nT Load(T x) {\n  __at_align__ int16_t tmp[size()];\n  Use(tmp);\n  return x;\n}\n"},
		{"launch bounds above a kernel", "template <typename T>\nLAUNCH_BOUNDS_2(MAX_THREADS, MIN_BLOCKS)\n__global__ void Apply(T* a, int n) {\n  Use(a);\n}\n"},
		{"attribute before a specifier, its error lines later", "struct Cell {\n  ON_DEVICE inline Cell(const Shape& s, float w) : shape(s), weight(w)\n  {\n    count = 0;\n    for (int i = 0; i < count; i++)\n    {\n      for (int j = 0; j < i; j++)\n      {\n        vals[i] += vals[j];\n      }\n    }\n  }\n  int count;\n  float vals[4];\n  const Shape& shape;\n  float weight;\n};\nbool Near(const Cell& a, const Cell& b) {\n  if (a.count && b.count) {\n    return false;\n  }\n  Use(a);\n  return true;\n}\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := New(Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer p.Close()
			before, tree, err := p.parse("x.cc", ".cc", []byte(tc.src), nil)
			if err != nil {
				t.Fatal(err)
			}
			deleteTree(tree)
			f, err := p.Parse("x.cc", ".cc", []byte(tc.src))
			if err != nil {
				t.Fatal(err)
			}
			if before.Errors == 0 || f.Errors != 0 {
				t.Fatalf("errors: %d as written, %d read; want none read", before.Errors, f.Errors)
			}
			if len(f.Src) != len(tc.src) {
				t.Fatal("source length changed")
			}
			fresh, tree, err := p.parse("x.cc", ".cc", f.Src, nil)
			if err != nil {
				t.Fatal(err)
			}
			deleteTree(tree)
			if !slices.Equal(fresh.Nodes, f.Nodes) {
				t.Error("the incremental reparse differs from a fresh parse of the same text")
			}
			off := strings.Index(tc.src, "Use(")
			found := false
			for i := range f.Nodes {
				if f.Nodes[i].Kind == KindIdentifier && f.Text(NodeID(i)) == "Use" {
					found = int(f.Nodes[i].Start) == off && f.Ancestor(NodeID(i), KindFunctionDefinition) != None
				}
			}
			if !found {
				t.Errorf("no call of Use inside a function definition at offset %d:\n%s", off, f.Src)
			}
		})
	}
	// Inside a body, a macro before a declaration may be a storage class
	// (#define SHARED __shared__): it is not blanked.
	storage := "void Kernel(float* out) {\n  {\n    SHARED_MEM float tile[64];\n    out[0] = tile[0];\n  }\n}\n"
	if f := parse(t, storage); !strings.Contains(string(f.Src), "SHARED_MEM float tile") {
		t.Errorf("a storage macro in a body was blanked:\n%s", f.Src)
	}
	// A name alone on its line inside an expression or before a
	// semicolon is no statement macro, even in a file with errors.
	expr := "int Mask(int a) {\n  int m = a |\n    FLAG_READ\n    | FLAG_WRITE;\n  return\n    DEFAULT_MASK;\n}\nvoid Broken( {\n"
	if f := parse(t, expr); !strings.Contains(string(f.Src), "FLAG_READ") || !strings.Contains(string(f.Src), "DEFAULT_MASK") {
		t.Errorf("a name in an expression was blanked:\n%s", f.Src)
	}
	// Code without errors is read as written, macros and all.
	src := "int x = MAX_SIZE;\nFoo BAR_BAZ(1);\nvoid f() { Log(\"a\" \"b\"); }\n"
	if f := parse(t, src); string(f.Src) != src {
		t.Errorf("code that parses was rewritten:\n%s", f.Src)
	}
}

// TestMisreadStatements: a statement that error recovery read as a
// function definition (if (a && b) { ... } of type "if") is an error, not
// a function.
func TestMisreadStatements(t *testing.T) {
	src := "struct Cell\n" +
		"    {\n" +
		"    ON_DEVICE Cell(const Shape& sh, float w) : shape(sh), weight(w)\n" +
		"        {\n" +
		"        count = 0;\n" +
		"        for (int i = 0; i < count; i++)\n" +
		"            {\n" +
		"            for (int j = 0; j < i; j++)\n" +
		"                {\n" +
		"                vals[i] += vals[j];\n" +
		"                }\n" +
		"            }\n" +
		"        sign[0] = (vals[0] < 0) ? -1 : 1;\n" +
		"        }\n" +
		"    // cached values\n" +
		"    int count;\n" +
		"    bool solid;\n" +
		"    float vals[4];\n" +
		"    int sign[4];\n" +
		"    const Shape& shape;\n" +
		"    float weight;\n" +
		"    };\n" +
		"\n" +
		"inline bool Near(const Pt<real>& off, const Cell& p, const Cell& q)\n" +
		"    {\n" +
		"    Pt<real> y(off);\n" +
		"    if (p.solid && q.solid)\n" +
		"        {\n" +
		"        if (p.count == q.count)\n" +
		"            return false;\n" +
		"        return true;\n" +
		"        }\n" +
		"    return false;\n" +
		"    }\n" +
		"\n"
	f := parse(t, src)
	for i := range f.Nodes {
		if f.Nodes[i].Kind == KindFunctionDefinition && statementWords[f.Text(f.Field(NodeID(i), FieldType))] {
			t.Fatalf("a function definition of type %q", f.Text(f.Field(NodeID(i), FieldType)))
		}
	}
	misread := false
	for i := range f.Nodes {
		if f.Nodes[i].Kind == KindError && f.Text(f.Field(NodeID(i), FieldType)) == "if" {
			misread = true
		}
	}
	if !misread {
		t.Error("the statement read as a function is not marked an error (or the shape no longer misreads)")
	}
}

// TestMacroBlocks: a statement macro applied to a block inside a function
// (read by the grammar as a nested definition) is a macro block, in both
// shapes the grammar gives it; a GCC nested function (a return type and a
// function declarator) and a definition at file scope made by a macro
// (TEST_F(a, b) { ... }) stay definitions.
func TestMacroBlocks(t *testing.T) {
	src := `TEST_F(Fixture, Name) {
  list_for_each(it, head) {
    use(it);
  }
  INIT_ONCE(&guard) {
    setup();
  }
  int add(int a) { return a + 1; }
}
`
	f := parseAs(t, "m.c", src)
	got := map[int]Kind{}
	for i := range f.Nodes {
		if k := f.Nodes[i].Kind; k == KindMacroBlock || k == KindFunctionDefinition {
			line, _ := f.Position(int(f.Nodes[i].Start))
			got[line] = k
		}
	}
	want := map[int]Kind{1: KindFunctionDefinition, 2: KindMacroBlock, 5: KindMacroBlock, 8: KindFunctionDefinition}
	for line, k := range want {
		if got[line] != k {
			t.Errorf("line %d: %v, want %v", line, got[line], k)
		}
	}
	if names := []string{MacroName(f, blockAt(f, 2)), MacroName(f, blockAt(f, 5))}; names[0] != "list_for_each" || names[1] != "INIT_ONCE" {
		t.Errorf("macro names %q, want list_for_each and INIT_ONCE", names)
	}
}

func blockAt(f *File, line int) NodeID {
	for i := range f.Nodes {
		if l, _ := f.Position(int(f.Nodes[i].Start)); l == line && f.Nodes[i].Kind == KindMacroBlock {
			return NodeID(i)
		}
	}
	return None
}

// TestMacroStatements: a statement macro whose arguments are no
// parameter list (an address) reads as a call statement lacking its
// semicolon; the block after it, or an indented statement on the next
// line, is its body. A call with its semicolon, or followed by a
// statement at its own indentation, has none.
func TestMacroStatements(t *testing.T) {
	src := `void f(struct ctx* c) {
  list_for_each_safe(&c->used, e, tmp, link) {
    drop(e);
  }
  list_for_each_safe(&c->hot, e, tmp, link)
    drop(e);
  flush(&c->used);
  {
    drop(e);
  }
  TRACE(&c->used)
  drop(e);
}
`
	f := parseAs(t, "m.c", src)
	got := map[int]int{}
	for i := range f.Nodes {
		if body := MacroStatementBody(f, NodeID(i)); body != None {
			line, _ := f.Position(int(f.Nodes[i].Start))
			got[line], _ = f.Position(int(f.Nodes[body].Start))
			if name := MacroName(f, NodeID(i)); name != "list_for_each_safe" {
				t.Errorf("line %d: macro name %q", line, name)
			}
		}
	}
	if want := map[int]int{2: 2, 5: 6}; !maps.Equal(got, want) {
		t.Errorf("statement macros (line: body line) %v, want %v", got, want)
	}
}

// TestBenignMissing: the grammar inserts MISSING nodes into two shapes of
// well-formed code, a braced default (T x = {}) and a statement macro
// with no semicolon at the end of its line; those are not errors. The
// same missing type or semicolon in code that is broken still is.
func TestBenignMissing(t *testing.T) {
	p, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	for _, c := range []struct {
		src    string
		errors bool
	}{
		{"struct S {}; S make(int n, S s = {});\n", false},
		{"void f(int t) {\n  switch (t) {\n    FOR_EACH_TYPE(CASE)\n    default: break;\n  }\n}\n", false},
		{"void f() {\n  DECLARE_ALL(x) // all of them\n  g();\n}\n", false},
		{"void f() { g() h(); }\n", true},
		{"void f() { int x = ; }\n", true},
	} {
		f, err := p.Parse("a.cc", ".cc", []byte(c.src))
		if err != nil {
			t.Fatal(err)
		}
		if got := f.Errors > 0; got != c.errors {
			var sb strings.Builder
			_ = f.Dump(&sb, false)
			t.Errorf("%q: %d errors, want errors %v\n%s", c.src, f.Errors, c.errors, sb.String())
		}
	}
}

// TestObjectiveCInOtherFiles: a .cc file a build compiles as
// Objective-C++ (it holds an @implementation) is read as one; a C++
// file whose comment names @interface is left as written.
func TestObjectiveCInOtherFiles(t *testing.T) {
	p, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	objc := "@implementation Graph\n- (BOOL)send:(int)n error:(NSError**)error {\n  bool ok = Send(n);\n  return ok;\n}\n@end\n"
	f, err := p.Parse("graph.cc", ".cc", []byte(objc))
	if err != nil || f.Errors != 0 {
		var sb strings.Builder
		if f != nil {
			_ = f.Dump(&sb, true)
		}
		t.Errorf("Objective-C in a .cc file: %v, parse errors:\n%s", err, sb.String())
	}
	cpp := "// Implements the @interface of the IDL.\nint f(int a) { return a; }\n"
	if f, err = p.Parse("f.cc", ".cc", []byte(cpp)); err != nil || string(f.Src) != cpp {
		t.Errorf("a C++ file was rewritten: %v, %q", err, f.Src)
	}
}

// TestGuardMacros: NAME { statements }; at the start of a statement is a
// scope-guard macro whose block is a lambda's body; keywords, braced
// lists and a name the file defines as no lambda are left as written.
func TestGuardMacros(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		lambdas   int
	}{
		{"one line", "void f(char* p) {\n  defer { free(p); };\n  use(p);\n}\n", 1},
		{"two statements", "void f(char* p, FILE* fp) {\n  SCOPE_EXIT { fclose(fp); free(p); };\n  use(p);\n}\n", 1},
		{"defined guard", "#define ON_EXIT auto g_ = Guard() + [&]()\nvoid f(char* p) {\n  ON_EXIT { free(p); };\n  use(p);\n}\n", 1},
		{"defined otherwise", "#define BLOCK_BEGIN do\nvoid f(char* p) {\n  BLOCK_BEGIN { free(p); };\n  use(p);\n}\n", 0},
		{"keyword", "void f(char* p) {\n  do { free(p); } while (0);\n  use(p);\n}\n", 0},
		{"braced list", "void f(char* p) {\n  Pair { p, 1 };\n  use(p);\n}\n", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := parseAs(t, "g.cc", tc.src)
			n := 0
			for i := range f.Nodes {
				if f.Nodes[i].Kind == KindLambdaExpression {
					n++
				}
			}
			if n != tc.lambdas {
				t.Errorf("%d lambdas, want %d", n, tc.lambdas)
			}
			if tc.lambdas > 0 && f.Errors != 0 {
				t.Errorf("%d errors, want none", f.Errors)
			}
		})
	}
}
