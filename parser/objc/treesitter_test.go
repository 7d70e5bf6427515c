package objc

import (
	"strings"
	"testing"

	sitter "github.com/tree-sitter/go-tree-sitter"
)

// treeSitterSnippets are Objective-C++ fragments that the C++ grammar
// reads with errors before neutralising.
var treeSitterSnippets = map[string]string{
	"literals": `void f() {
  NSString* s = @"x";
  NSArray* a = @[@1, @2];
  NSDictionary* d = @{@"k": @YES};
  id n = @(42);
}
`,
	"interface": `@interface Foo : NSObject
@property (nonatomic, strong) id<MTLBuffer> buffer;
- (void)run:(int)n;
@end
int g();
`,
	"sends": `void f(id<MTLCommandQueue> queue, id<MTLBuffer> buf) {
  id<MTLCommandBuffer> cb = [queue commandBuffer];
  id<MTLBlitCommandEncoder> blit = [cb blitCommandEncoder];
  [blit copyFromBuffer:buf sourceOffset:0 toBuffer:buf destinationOffset:16 size:16];
  [blit endEncoding];
  [cb commit];
}
`,
	"blocks": `void f(dispatch_queue_t q, int* p) {
  __block int n = 0;
  dispatch_async(q, ^{
    n += p[0];
  });
  void (^done)(int) = ^(int v) { n = v; };
  done(1);
}
`,
	"statements": `void f(id lock) {
  @autoreleasepool {
    @synchronized(lock) {
      @try {
        g();
      } @catch (NSException* e) {
        @throw;
      } @finally {
        h();
      }
    }
  }
}
`,
	"apple idioms": `typedef NS_ENUM(NSInteger, Mode) {
  ModeFast,
  ModeSafe,
};

class API_AVAILABLE(ios(11.0), macos(10.13)) Impl {
 public:
  void run();
};

@implementation Impl2 (Extras)
- (void)schedule:(dispatch_queue_t)queue; {
  __weak typeof(self) weakSelf = self;
  dispatch_async(queue, ^{
    [weakSelf tick];
  });
}
@end
`,
	"fast enumeration": `void f(NSArray* items) {
  for (id<P> item in items) {
    if ([item respondsToSelector:@selector(run:)]) {
      [item run:1];
    }
  }
}
`,
}

// metalSnippet is a realistic Metal compute file: after neutralising it
// must parse without a single error.
const metalSnippet = `#import <Metal/Metal.h>
#include <vector>

@class Pipeline;

@interface Runner : NSObject
@property (nonatomic, strong) id<MTLDevice> device;
- (void)encodeWithBuffer:(id<MTLBuffer>)buffer count:(NSUInteger)count;
@end

static std::vector<float> scratch(size_t n) {
  std::vector<float> v(n);
  auto fill = [&](size_t i) { v[i] = 0.0f; };
  for (size_t i = 0; i < n; ++i) fill(i);
  return v;
}

@implementation Runner {
  id<MTLCommandQueue> _queue;
  id<MTLComputePipelineState> _pso;
}

- (instancetype)initWithDevice:(id<MTLDevice>)device {
  self = [super init];
  if (self) {
    _device = device;
    _queue = [device newCommandQueue];
  }
  return self;
}

- (void)encodeWithBuffer:(id<MTLBuffer>)buffer count:(NSUInteger)count {
  @autoreleasepool {
    id<MTLCommandBuffer> cb = [_queue commandBuffer];
    id<MTLComputeCommandEncoder> enc = [cb computeCommandEncoder];
    [enc setComputePipelineState:_pso];
    [enc setBuffer:buffer offset:0 atIndex:0];
    [enc setBytes:&count length:sizeof(count) atIndex:1];
    MTLSize grid = MTLSizeMake(count, 1, 1);
    [enc dispatchThreads:grid threadsPerThreadgroup:MTLSizeMake(64, 1, 1)];
    [enc endEncoding];
    float* data = (float*)[buffer contents];
    __block float first = data[0];
    [cb addCompletedHandler:^(id<MTLCommandBuffer> done) {
      NSLog(@"status %d first %f", (int)[done status], first);
    }];
    [cb commit];
    [cb waitUntilCompleted];
  }
}

@end
`

// parseCPP parses src with the C++ grammar; the caller closes the tree.
func parseCPP(t *testing.T, src []byte) *sitter.Tree {
	t.Helper()
	p := newCPPParser(t)
	defer p.Close()
	tree := p.Parse(src, nil)
	if tree == nil {
		t.Fatalf("parse returned no tree")
	}
	return tree
}

func TestNeutralisedParsesWithFewerErrors(t *testing.T) {
	p := newCPPParser(t)
	defer p.Close()
	for name, src := range treeSitterSnippets {
		before := countErrors(t, p, []byte(src))
		after := countErrors(t, p, Neutralise([]byte(src)))
		if after >= before {
			t.Errorf("%s: %d error nodes before, %d after", name, before, after)
		}
		if after != 0 {
			t.Errorf("%s: %d error nodes left", name, after)
		}
	}
}

func TestMetalSnippetParsesCleanly(t *testing.T) {
	p := newCPPParser(t)
	defer p.Close()
	src := []byte(metalSnippet)
	out := Neutralise(src)
	if before := countErrors(t, p, src); before == 0 {
		t.Fatalf("raw snippet parses cleanly; the test proves nothing")
	}
	if after := countErrors(t, p, out); after != 0 {
		t.Fatalf("neutralised snippet has %d error nodes:\n%s", after, out)
	}
}

// TestMethodBodyInFunctionDefinition checks that the statements of a
// method body sit inside a function_definition named after the first
// selector part, at their original offsets.
func TestMethodBodyInFunctionDefinition(t *testing.T) {
	src := []byte(metalSnippet)
	out := Neutralise(src)
	tree := parseCPP(t, out)
	defer tree.Close()
	for _, c := range []struct{ stmt, fn string }{
		{"[enc setBuffer:buffer offset:0 atIndex:0];", "encodeWithBuffer"},
		{"MTLSize grid = MTLSizeMake(count, 1, 1);", "encodeWithBuffer"},
		{"NSLog(", "encodeWithBuffer"},
		{"_queue = [device newCommandQueue];", "initWithDevice"},
	} {
		at := strings.Index(metalSnippet, c.stmt)
		if at < 0 {
			t.Fatalf("statement %q not in snippet", c.stmt)
		}
		n := tree.RootNode().NamedDescendantForByteRange(uint(at), uint(at+1))
		var fn *sitter.Node
		for x := n; x != nil; x = x.Parent() {
			if x.Kind() == "function_definition" {
				fn = x
				break
			}
		}
		if fn == nil {
			t.Errorf("%q is not inside a function_definition", c.stmt)
			continue
		}
		body := fn.ChildByFieldName("body")
		if body == nil || body.StartByte() > uint(at) || body.EndByte() < uint(at+len(c.stmt)) {
			t.Errorf("%q is not inside the body of its function_definition", c.stmt)
		}
		decl := fn.ChildByFieldName("declarator")
		for decl != nil && decl.Kind() == "function_declarator" || decl != nil && decl.Kind() == "pointer_declarator" {
			decl = decl.ChildByFieldName("declarator")
		}
		if decl == nil || decl.Utf8Text(out) != c.fn {
			got := "<none>"
			if decl != nil {
				got = decl.Utf8Text(out)
			}
			t.Errorf("%q: enclosing function is %s, want %s", c.stmt, got, c.fn)
		}
	}
	// Sends become calls at the original offsets of their receivers.
	at := strings.Index(metalSnippet, "[enc setBuffer:")
	n := tree.RootNode().NamedDescendantForByteRange(uint(at+1), uint(at+4))
	for n != nil && n.Kind() != "call_expression" {
		n = n.Parent()
	}
	if n == nil {
		t.Fatalf("[enc setBuffer:…] is not a call_expression")
	}
	if got := n.ChildByFieldName("function").Utf8Text(out); got != "enc.setBuffer" {
		t.Errorf("call function is %q, want enc.setBuffer", got)
	}
}
