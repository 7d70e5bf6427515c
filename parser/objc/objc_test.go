package objc

import (
	"bytes"
	"fmt"
	"math/rand"
	"strings"
	"testing"
	"time"

	"github.com/holdfast-dev/holdfast/internal/fuzzlimit"
)

// tableCases map small Objective-C++ inputs to their exact rewrite.
var tableCases = []struct{ name, in, want string }{
	// Literals.
	{"string", `NSString* s = @"hello";`, `NSString* s =  "hello";`},
	{"array", `id a = @[@1, @2, x];`, `id a =  ( 1,  2, x);`},
	{"empty array", `id a = @[];`, `id a = (0);`},
	{"dictionary", `id d = @{@"k": v, @"k2": c ? a : b,};`, `id d =  ( "k", v,  "k2", c ? a : b );`},
	{"empty dictionary", `id d = @{};`, `id d = (0);`},
	{"boxed", `id b = @YES; id n = @NO; id v = @42; id f = @3.5; id e = @(x + 1);`,
		`id b =  YES; id n =  NO; id v =  42; id f =  3.5; id e =  (x + 1);`},
	{"selector", "SEL s = @selector(run);\nSEL t = @selector(setX:y:);",
		"SEL s =  selector(run);\nSEL t =  selector(setX_y_);"},
	{"encode", `const char* e = @encode(int);`, `const char* e =  sizeof(int);`},
	{"protocol expression", `Protocol* p = @protocol(MTLBuffer);`, `Protocol* p =  protocol(MTLBuffer);`},
	{"available", `if (@available(iOS 11.0, *)) { f(); }`, `if ( available(           )) { f(); }`},

	// Declarations.
	{"class", `@class Foo, Bar;`, `                `},
	{"protocol forward", `@protocol P;`, `            `},
	{"import", `@import Metal;`, `              `},
	{"defs", `@defs(Foo);`, `           `},
	{"property", "@property (nonatomic, copy) void (^cb)(int);\nint x;", "                                            \nint x;"},
	{"synthesize", "@synthesize a = _a, b;\n@dynamic c;", "                      \n           "},
	{"stray end", `@end`, `    `},
	{"interface",
		"@interface Foo : NSObject <P> {\n  int _x;\n}\n@property (nonatomic) int x;\n- (void)run;\n@end",
		"                               \n         \n \n                            \n            \n    "},
	{"protocol",
		"@protocol P <NSObject>\n- (void)run;\n@optional\n- (int)count;\n@end",
		"                      \n            \n         \n             \n    "},

	// Statements.
	{"autoreleasepool", "@autoreleasepool {\n  f();\n}", "                 {\n  f();\n}"},
	{"synchronized", "@synchronized(self) {\n  f();\n}", "if           (self) {\n  f();\n}"},
	{"try catch finally",
		"@try {\n  f();\n} @catch (NSException* e) {\n  g();\n} @finally {\n  h();\n}",
		" try {\n  f();\n}  catch (NSException* e) {\n  g();\n}          {\n  h();\n}"},
	{"try finally", "@try {\n  f();\n} @finally {\n  h();\n}", "     {\n  f();\n}          {\n  h();\n}"},
	{"throw", `@throw e;`, ` throw e;`},

	// Message sends.
	{"unary send", `[obj commit];`, `(obj.commit);`},
	{"keyword send", `[enc setBuffer:buf offset:0 atIndex:1];`, ` enc.setBuffer(buf,       0,        1);`},
	{"nested send", `id x = [[Foo alloc] init];`, `id x = ((Foo.alloc).init);`},
	{"send with subscript and send arguments", `id x = [[Foo alloc] initWithA:a[i] b:[self b]];`,
		`id x =  (Foo.alloc).initWithA(a[i],  (self.b));`},
	{"send with lambda argument", `[x runWith:[&](int v) { return v; } flag:YES];`,
		` x.runWith([&](int v) { return v; },     YES);`},
	{"cast of send", `float* p = (float*)[buf contents];`, `float* p = (float*)(buf.contents);`},
	{"cast of template type", `auto b = (id<MTLBuffer>)[x buffer];`, `auto b = (id<MTLBuffer>)(x.buffer);`},
	{"variadic send", `[NSString stringWithFormat:@"%d %d", a, b];`, ` NSString.stringWithFormat( "%d %d", a, b);`},
	{"ternary argument", `[x foo:c ? a : b bar:d];`, ` x.foo(c ? a : b,    d);`},
	{"send as subscript", `id y = dict[[x key]];`, `id y = dict[(x.key)];`},
	{"send after if", `if (x) [self stop];`, `if (x) (self.stop);`},
	{"send after macro line", "MACRO(x)\n[tdata print];", "MACRO(x)\n(tdata.print);"},
	{"empty keyword", `[x foo:a :b];`, ` x.foo(a, b);`},
	{"selector argument", `[self performSelector:@selector(run:) withObject:nil afterDelay:0.5];`,
		` self.performSelector( selector(run_),           nil,           0.5);`},
	{"chained sends", `return [[[MPSGraphTensorData alloc] initWithMTLBuffer:b shape:s dataType:t] autorelease];`,
		`return ( (MPSGraphTensorData.alloc).initWithMTLBuffer(b,      s,         t).autorelease);`},
	{"sends in expression", `BOOL ok = [obj isKindOfClass:[Foo class]] && ![obj isEqual:other];`,
		`BOOL ok =  obj.isKindOfClass((Foo.class)) && ! obj.isEqual(other);`},
	{"multi-line send",
		"id b = [device newBufferWithBytes:p\n                          length:n\n                         options:0];",
		"id b =  device.newBufferWithBytes(p\n                          ,      n\n                         ,       0);"},
	{"send without gap", `id x = [[Foo alloc]init];`, `id x = ((Foo.alloc).nit);`},

	// Fast enumeration.
	{"for in", `for (id<P> d in items) { [d run]; }`, `for (id<P> d :  items) { (d.run); }`},
	{"for in send", `for (id d in [self items]) {}`, `for (id d :  (self.items)) {}`},

	// Blocks.
	{"block argument", "dispatch_async(q, ^{\n  f();\n});", "dispatch_async(q,[]{\n  f();\n});"},
	{"completion handler", "[cb addCompletedHandler:^(id<MTLCommandBuffer> b) {\n  f(b);\n}];",
		" cb.addCompletedHandler([](id<MTLCommandBuffer> b){\n  f(b);\n});"},
	{"completion handler without blank", "[cb addCompletedHandler:^(id<MTLCommandBuffer> b){\n  f(b);\n}];",
		" cb.addCompletedHandler([](id<MTLCommandBuffer> b)\n{ f(b);\n});"},
	{"block argument at line end", "[q run:^{\n  f();\n}];", " q.run([]\n{ f();\n});"},
	{"call argument at line end", "foo(^{\n  f();\n});", "foo([]\n{ f();\n});"},
	{"block without room", `[q run:^{}];`, ` q.ru([]{});`},
	{"later keyword block", "[q run:x then:^{\n  f();\n}];", " q.run(x,    []{\n  f();\n});"},
	{"block with return type", "auto g = cache->Get(key, ^ Graph * () {\n  return nullptr;\n});",
		"auto g = cache->Get(key,[]         () {\n  return nullptr;\n});"},
	{"block variable", `void (^handler)(int) = ^void(int x) { use(x); };`,
		`void (*handler)(int) =[]    (int x) { use(x); };`},
	{"block returning without parameters", "int (^blk)(void) = ^int {\n  return 1;\n};",
		"int (*blk)(void) =[]    {\n  return 1;\n};"},
	{"parenthesised block", `foo(bar, (^(void* p){}));`, `foo(bar, [](void* p){} );`},

	// Qualifiers and annotations.
	{"qualifiers", "__block int count = 0;\n__weak id weakSelf = self;\nvoid* p = (__bridge void*)obj;",
		"        int count = 0;\n       id weakSelf = self;\nvoid* p = (         void*)obj;"},
	{"unsafe unretained", `__unsafe_unretained id d = nonnull_thing;`, `                    id d = nonnull_thing;`},
	{"nullability", `void f(nullable NSZone* z, NSString* _Nonnull s);`, `void f(         NSZone* z, NSString*          s);`},
	{"annotations", "class API_AVAILABLE(ios(11.0)) Impl {};\nNS_ASSUME_NONNULL_BEGIN",
		"class                          Impl {};\n                       "},

	{"enum macro", "typedef NS_ENUM(NSInteger, Mode) {\n  ModeA,\n};\nNS_OPTIONS(NSUInteger, Flags) { F1 = 1 };",
		"        enum Mode : NSInteger    {\n  ModeA,\n};\nenum Flags : NSUInteger       { F1 = 1 };"},

	// Implementations.
	{"implementation",
		"@implementation Foo {\n  int _x;\n}\n- (void)commit {\n  [_buffer commit];\n}\n" +
			"- (instancetype)initWithDevice:(id<MTLDevice>)device length:(NSUInteger)len {\n  self = [super init];\n  return self;\n}\n" +
			"+ (id)make:(int)a, ... {\n  return nil;\n}\n@end",
		"                     \n         \n \n  void commit(){\n  (_buffer.commit);\n}\n" +
			"   instancetype initWithDevice( id<MTLDevice> device,        NSUInteger len){\n  self = (super.init);\n  return self;\n}\n" +
			"   id make( int a, ...){\n  return nil;\n}\n    "},
	{"implementation headers",
		"@implementation Foo\n- (void)handler:(void (^)(int))cb\n{\n  cb(1);\n}\n- (BOOL)valid API_AVAILABLE(ios(11.0)) {\n  return YES;\n}\n" +
			"- (id)new {\n  return nil;\n}\n- (void)a:(int)x :(int)y {\n}\n@end",
		"                   \n   void handler(id            cb)\n{\n  cb(1);\n}\n   BOOL valid()                        {\n  return YES;\n}\n" +
			"  id new(){\n  return nil;\n}\n   void a( int x,  int y){\n}\n    "},
	{"method declaration and synthesize",
		"@implementation Foo (Cat)\n@synthesize x = _x;\n- (void)run;\n- (nullable NSString*)name:(NSZone* _Nullable)zone {\n  return nil;\n}\n@end",
		"                         \n                   \n            \n            NSString* name( NSZone*           zone){\n  return nil;\n}\n    "},
	{"semicolon before body", "@implementation Foo\n- (void)run:(int)n; {\n  f(n);\n}\n@end",
		"                   \n   void run( int n) {\n  f(n);\n}\n    "},
	{"typeof after qualifier", "__weak typeof(self) w = self;\n__strong __typeof(self) s = w;",
		"     decltype(self) w = self;\n         decltype(self) s = w;"},
	{"keyword method name", "@implementation Foo\n- (void)template:(int)x {\n}\n@end",
		"                   \n   void Template( int x){\n}\n    "},
}

func TestNeutraliseTable(t *testing.T) {
	for _, tc := range tableCases {
		t.Run(tc.name, func(t *testing.T) {
			got := string(Neutralise([]byte(tc.in)))
			if got != tc.want {
				t.Errorf("Neutralise(%q)\n got %q\nwant %q", tc.in, got, tc.want)
			}
		})
	}
}

// pureCPP are C++ snippets that Neutralise must return unchanged.
var pureCPP = []string{
	`#include <vector>
#define AT(x) @x [y z]
// a comment with @interface and [x foo] and ^{ }
/* block comment @"s" [a b:c] */
[[nodiscard]] int f(int* in, std::vector<int>& v, size_t n) {
  auto lam = [&](int i) { return v[i]; };
  auto lam2 = [=, this]() mutable { return n; };
  auto [a, b] = std::pair<int, int>{1, 2};
  int arr[16] = {};
  int* p = new int[(size_t)n];
  delete[] p;
  int x = in[(int)n] ^ arr[n - 1];
  x = (a) ^ (b);
  x ^= 0x1'000;
  const char* s = "[obj send:@\"x\"] ^{ }";
  const char* r = R"raw([x y] @end ")raw";
  char c = '@';
  char d = '[';
  for (auto in : v) { x += in; }
  for (int i = 0; i < 3; i++) { x += arr[i]; }
  [[maybe_unused]] int y = x ? a : b;
  return lam(0) + lam2() + arr[sizeof(int)] + (int)c + d + *s + *r;
}
`,
	`struct S {
  S operator^(const S& o) const { return o; }
  bool operator[](int i) { return i; }
};
[[gnu::always_inline]] inline int g() { return 1; }
[[using gnu: hot]] int hot();
template <typename T> auto h(T t) -> decltype(t[0]) { return t[0]; }
int k = h(std::vector<int>{1})[(int)0];
int m[2][3];
auto cb = [this, x]{ return x; };
int sub(std::vector<int>* it, int a, int b, int* q) {
  return (*it)[(int)a] + (q + a)[(size_t)b] + it->at(0);
}
`,
	`void kernel(const float* in, float* out, int n) {
  #pragma omp parallel for
  for (int i = 0; i < n; ++i) {
    out[i] = in[i] * 2.0f; // [a b] @x
  }
  std::sort(out, out + n, [](float a, float b) { return a < b; });
  auto s = u8"@[" "]" L"^{" u'@';
  printf("%s\n", "@interface Foo\n@end");
}
`,
	"line one\r\nint a[3] = {1, 2, 3}; /* unterminated @ [x y]",
	`const char* q = R"(unterminated raw @[x y]`,
}

func TestPureCPPUnchanged(t *testing.T) {
	for i, src := range pureCPP {
		got := Neutralise([]byte(src))
		if !bytes.Equal(got, []byte(src)) {
			for k := range got {
				if got[k] != src[k] {
					t.Errorf("snippet %d changed at offset %d: %q", i, k, src[max(0, k-20):min(len(src), k+20)])
					break
				}
			}
		}
	}
}

// hostileInputs stress the scanner: unbalanced brackets, unterminated
// literals and comments, binary bytes and deep nesting.
func hostileInputs() []string {
	deep := 100000
	return []string{
		"",
		"@",
		"@@@@",
		"[",
		"]]]]",
		"^",
		"^{",
		"^(",
		"@[",
		"@{",
		"@interface",
		"@implementation X\n-",
		"@implementation X\n- (",
		"@implementation X\n- (void)a:",
		"@implementation X\n- (void)a:(int)",
		"@implementation X\n- (void)x{}\n- y{}\n-(id)z:(int)a b:c{}",
		"[x foo:",
		"[x foo:]",
		"[x :]",
		"[x a:b c:]",
		"@selector(",
		"@selector(a\nb:)",
		"@available(",
		"@synchronized",
		"@try",
		"@try {",
		"\"unterminated @[x y]",
		"'",
		"R\"abc(",
		"R\"toolongdelimiterxxxxxxxxxx(x)toolongdelimiterxxxxxxxxxx\" [x y]",
		"/* [x y]",
		"// [x y] \\\n[x y]",
		"#define X \\\n [x y]\n[x y];",
		"x \\\n[a b];",
		"\x00@\x00[\x00x y]\x00",
		"\xff\xfe[\xc3\x28 \xa0\xa1]@\xe2\x82",
		"for (",
		"for (x in",
		"for (in in in)",
		"(^",
		"(^)",
		"[[[[x a] b] c]",
		"[x a:^{}]",
		"[x a:^(int q){}]",
		"[x a:(^(int q){})]",
		"^int",
		"^ int (",
		strings.Repeat("[", deep),
		strings.Repeat("[x ", deep) + strings.Repeat("y]", deep),
		strings.Repeat("(", deep) + strings.Repeat(")", deep),
		strings.Repeat("{", deep) + strings.Repeat("}", deep),
		strings.Repeat("^{", deep) + strings.Repeat("}", deep),
		strings.Repeat("@[", deep) + strings.Repeat("]", deep),
		strings.Repeat("@{a:", deep) + strings.Repeat("}", deep),
		strings.Repeat("[x a:", deep) + strings.Repeat("b]", deep),
		"@implementation X\n" + strings.Repeat("- (", deep) + strings.Repeat(")", deep) + "{}",
		strings.Repeat("@interface ", deep),
		strings.Repeat("@class ", deep),
		strings.Repeat("@protocol A, ", deep),
		"@implementation X\n" + strings.Repeat("-;", deep),
		"@implementation X\n" + strings.Repeat("- ( ; ", deep),
	}
}

// allInputs gathers every input of this file, for the property tests and
// the fuzz seed corpus.
func allInputs() []string {
	var in []string
	for _, tc := range tableCases {
		in = append(in, tc.in)
	}
	in = append(in, pureCPP...)
	in = append(in, hostileInputs()...)
	for _, s := range treeSitterSnippets {
		in = append(in, s)
	}
	in = append(in, metalSnippet)
	return in
}

func TestInvariants(t *testing.T) {
	for i, src := range allInputs() {
		out := Neutralise([]byte(src))
		checkInvariants(t, fmt.Sprintf("input %d", i), []byte(src), out)
	}
}

func TestNeutraliseDoesNotAliasInput(t *testing.T) {
	src := []byte(`[obj commit];`)
	orig := append([]byte(nil), src...)
	out := Neutralise(src)
	if !bytes.Equal(src, orig) {
		t.Fatalf("input modified: %q", src)
	}
	if len(out) > 0 && &out[0] == &src[0] {
		t.Fatalf("output aliases input")
	}
}

func TestRandomBytes(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	alphabet := []byte("@[]{}()^:;,.-+*&<>?\"'/\\\n\r\t #xyRinforfinally_0123456789\x00\xff")
	for n := 0; n < 2000; n++ {
		b := make([]byte, rng.Intn(200))
		for k := range b {
			b[k] = alphabet[rng.Intn(len(alphabet))]
		}
		checkInvariants(t, "random", b, Neutralise(b))
	}
}

// TestLinearTime guards against quadratic rescans: each input is a few MB
// of a pattern that a naive scanner would revisit for every token.
func TestLinearTime(t *testing.T) {
	if testing.Short() {
		t.Skip("slow")
	}
	const n = 200000
	inputs := map[string]string{
		"sends":          strings.Repeat("[x a:b c:d];\n", n),
		"nested":         strings.Repeat("[x a:", n) + strings.Repeat("b]", n),
		"interfaces":     strings.Repeat("@interface A\n", n),
		"classes":        strings.Repeat("@class A B C\n", n),
		"methods":        "@implementation X\n" + strings.Repeat("- (void)a:(int)x b:(int)y { f(); }\n", n),
		"broken methods": "@implementation X\n" + strings.Repeat("- (void)a:(int)x b:(int)y\n", n),
		"blocks":         strings.Repeat("f(^(int x){ g(); });\n", n),
		"subscripts":     strings.Repeat("a[i] = b[(int)j];\n", n),
		"comments":       strings.Repeat("// \\\n", n),
		"casts":          strings.Repeat("(a", n) + strings.Repeat(")[x y]", n),
		"block bodies":   strings.Repeat("^{", n) + strings.Repeat("\n", n) + strings.Repeat("}", n),
		"qualified for":  strings.Repeat("for (a in ", n) + strings.Repeat(")", n),
	}
	for name, src := range inputs {
		start := time.Now()
		out := Neutralise([]byte(src))
		if d := time.Since(start); d > 10*time.Second {
			t.Errorf("%s: %d bytes took %v", name, len(src), d)
		}
		checkInvariants(t, name, []byte(src), out)
	}
}

func FuzzNeutralise(f *testing.F) {
	for _, s := range allInputs() {
		if len(s) < 4096 {
			f.Add([]byte(s))
		}
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		fuzzlimit.Run(fuzzlimit.PerInput, func() {
			orig := append([]byte(nil), src...)
			out := Neutralise(src)
			if !bytes.Equal(src, orig) {
				t.Error("input modified")
				return
			}
			checkInvariants(t, "fuzz", src, out)
		})
	})
}

// The '@' of each boxed expression is reported by its offset; other '@'
// constructs are not boxed.
func TestNeutraliseBoxedOffsets(t *testing.T) {
	src := []byte(`id a = @(x); id b = @"s"; id c = @[@(y)]; id d = @ (z);`)
	_, boxed := NeutraliseBoxed(src)
	var want []uint32
	for i := 0; i+1 < len(src); i++ {
		if src[i] == '@' && src[i+1] == '(' {
			want = append(want, uint32(i))
		}
	}
	if len(boxed) != len(want) {
		t.Fatalf("boxed = %v, want %v", boxed, want)
	}
	for i := range want {
		if boxed[i] != want[i] {
			t.Fatalf("boxed = %v, want %v", boxed, want)
		}
	}
}
