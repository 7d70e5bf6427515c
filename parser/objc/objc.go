// Package objc makes Objective-C++ sources readable by a C++ parser.
//
// Holdfast parses .mm files with tree-sitter's C++ grammar. Neutralise
// rewrites the Objective-C constructs of such a file, in place and at the
// same length, into text the C++ grammar accepts, so that the C++ around
// them, and the C++ inside Objective-C method bodies and blocks, is parsed
// and analysed like any other C++. Every byte outside an Objective-C
// construct keeps its value and offset, and every line break stays where it
// was, so line and column positions found in the rewritten text are exact
// for the original.
//
// # Approach
//
// The source is split into tokens in one pass that skips comments, string,
// character and raw-string literals and preprocessor lines, so an '@' or
// '[' inside them is never rewritten. Brackets are paired with an explicit
// stack, tolerating unbalanced input. A second pass walks the tokens once
// and rewrites each construct from the bytes it owns (its keywords,
// punctuation and the whitespace between them), never from the bytes of the
// C++ expressions it contains:
//
//   - Declarations that carry no code (@interface … @end, @protocol … @end,
//     @class, @property, @synthesize, @dynamic, @import, access keywords,
//     @end) are blanked to spaces.
//   - Literals keep their C++ core: @"s" becomes "s", @42 and @YES lose the
//     '@', @(e) becomes (e), @[a, b] becomes (a, b), @{k: v} becomes (k, v);
//     empty collections become (0). @selector(a:b:) becomes selector(a_b_),
//     @encode(T) becomes sizeof(T), @protocol(P) becomes protocol(P) and
//     @available(…) becomes available() with its arguments blanked.
//   - Statements: @try/@catch/@throw become try/catch/throw (an @try with no
//     @catch loses its keyword), @finally and @autoreleasepool are blanked so
//     their block remains a compound statement, and @synchronized(x) { … }
//     becomes if(x) { … }: its body stays analysable but the C++ view sees it
//     as conditional.
//   - In @implementation, the class header and its ivar block are blanked and
//     each method "- (R)a:(T)x b:(U)y { … }" gets a C++ header laid out over
//     the same bytes, "R a(T x, U y) { … }", with the return type, the name
//     and the parameters kept at or near their offsets. The function is named
//     after the first selector part. A missing or block-typed type becomes
//     id. Attributes after the selector, and a ';' before the body, are
//     dropped.
//   - Message sends become member calls on the receiver:
//     "[enc setBuffer:b offset:0]" becomes " enc.setBuffer(b,       0)". The
//     space before the first selector part becomes '.', its ':' becomes '(',
//     later "part:" become ',' and spaces and ']' becomes ')'. A unary send
//     "[obj commit]" has one byte too few for "obj.commit()", so it becomes
//     the parenthesised member access "(obj.commit)": the grammar reads it
//     as an expression in any position (statement, operand, receiver of an
//     outer send), the member name stays visible, and it reads exactly like
//     the dot syntax "obj.commit" that Objective-C allows for the same call.
//     With no blank between receiver and selector ("[[X alloc]init]") the
//     selector's first letter gives way to the '.'.
//   - Blocks become lambdas: "^(T x) { … }" becomes "[](T x) { … }". The
//     extra byte for "[]" is, in order of preference, a blank just before or
//     after the caret, the blank between ")" and "{" (the parameter list
//     moves one byte right), the first blank after the "{" (the brace moves
//     onto it, onto the next line's indentation when "{" ends its line), the
//     grouping parentheses of "(^(T x){ … })", and as a last resort the last
//     letter of the selector part just before the caret. A return type
//     written after the caret is dropped. The caret of a block pointer
//     declarator "(^name)" becomes '*'.
//   - Ownership and nullability qualifiers (__weak, __block, __bridge,
//     _Nonnull, nullable, …) and Apple SDK annotation macros
//     (API_AVAILABLE(…), NS_ASSUME_NONNULL_BEGIN, NS_DESIGNATED_INITIALIZER,
//     …), which C++ cannot read without the SDK headers, are blanked, and
//     "typedef NS_ENUM(T, Name) {" becomes "enum Name : T {"; a GNU
//     typeof right after such a qualifier ("__weak typeof(self) w") becomes
//     decltype. Fast enumeration "for (T x in c)" becomes the range-based
//     "for (T x :  c)".
//
// Message sends are told apart from subscripts, lambdas, attributes and
// array declarators by their shape: inside the brackets, an expression is
// directly followed by a selector word, with no operator in between, which
// C++ never allows; and the bracket must stand where an expression starts:
// not after an operand (a subscript), except after a cast "(T*)" or a
// condition "if (c)", or at the start of a line after a macro call written
// without ';'. When a construct does not have this shape, or its bytes leave
// no room for a rewrite, its bytes are left alone.
//
// # Limits
//
// The rewrite is syntactic and keeps positions, not meaning. A receiver
// with an operator of lower precedence than '.' ("[(id)x foo]", "[*p foo]")
// becomes a member access on its last operand. Unary sends are member
// accesses, not calls. Class declarations in @interface are dropped, not
// translated, so their property and ivar types are unknown to the C++ view.
// Objective-C inside preprocessor directives (macro bodies) is not
// rewritten. A selector part that is a C++ declaration keyword (static,
// template, operator, …) gets its first letter capitalised to stay a name.
// When no byte is free for a lambda's "[]", a block's caret is blanked and
// the C++ view sees a braced initializer. "for (x in c)" without a
// declaration stays unreadable to C++. Method headers are laid out anew,
// comments in them included, and a block's parameter list or opening brace
// may move, so their tokens keep their line but not always their column;
// statements in bodies never move. A few C++ bytes that only serve an
// Objective-C idiom change with it: the parentheses around "(^…)", the
// typedef of "typedef NS_ENUM" and a typeof after an ownership qualifier.
//
// All passes are linear in the input size, use explicit stacks rather than
// recursion, and accept any bytes, including NUL bytes and invalid UTF-8.
package objc

// Neutralise returns a copy of the Objective-C++ source src of exactly the
// same length in which Objective-C constructs are rewritten into text that
// a C++ parser accepts. Bytes outside those constructs are unchanged and
// line breaks keep their offsets. Pure C++ input comes back byte for byte.
// It never panics.
func Neutralise(src []byte) []byte {
	out, _ := NeutraliseBoxed(src)
	return out
}

// NeutraliseBoxed is Neutralise, and the offsets of the '@' of each boxed
// expression @(e) it turned into (e), in order: the parenthesised
// expression at offset+1 is a new object holding a copy of e's value.
func NeutraliseBoxed(src []byte) ([]byte, []uint32) {
	out := make([]byte, len(src))
	copy(out, src)
	toks := lex(src)
	if len(toks) == 0 {
		return out, nil
	}
	r := &rewriter{
		src:   src,
		out:   out,
		toks:  toks,
		match: matchBrackets(src, toks),
		flags: make([]uint8, len(toks)),
	}
	r.depth = braceDepth(src, toks, r.match)
	r.run()
	return out, r.boxed
}

// Token flags.
const (
	fDone  uint8 = 1 << iota // rewritten by an enclosing construct; skip
	fForIn                   // the "in" of a fast enumeration
)

// rewriter holds the state of one Neutralise call.
type rewriter struct {
	src, out []byte
	boxed    []uint32 // see NeutraliseBoxed
	toks     []token
	match    []int
	depth    []int32 // number of matched '{' enclosing each token
	flags    []uint8

	implActive    bool  // inside @implementation … @end
	implDepth     int32 // brace depth of the @implementation
	implHeaderEnd int   // last token of the @implementation header
}

// braceDepth computes, for each token, the number of matched '{' enclosing
// it ('{' and '}' tokens get the depth outside them).
func braceDepth(src []byte, toks []token, match []int) []int32 {
	depth := make([]int32, len(toks))
	var d int32
	for i, t := range toks {
		if match[i] >= 0 && t.kind == kPunct {
			switch src[t.start] {
			case '{':
				depth[i] = d
				d++
				continue
			case '}':
				d--
			}
		}
		depth[i] = d
	}
	return depth
}

func (r *rewriter) text(i int) []byte { t := r.toks[i]; return r.src[t.start:t.end] }

// isP reports whether token i exists and is the punctuation s.
func (r *rewriter) isP(i int, s string) bool {
	if i < 0 || i >= len(r.toks) || r.toks[i].kind != kPunct {
		return false
	}
	return string(r.text(i)) == s
}

// isW reports whether token i exists and is a word.
func (r *rewriter) isW(i int) bool {
	return i >= 0 && i < len(r.toks) && r.toks[i].kind == kWord
}

// isWord reports whether token i exists and is the word s.
func (r *rewriter) isWord(i int, s string) bool {
	return r.isW(i) && string(r.text(i)) == s
}

// opener reports whether token i is an opening bracket with a partner.
func (r *rewriter) opener(i int) bool {
	if r.toks[i].kind != kPunct || r.match[i] < 0 {
		return false
	}
	c := r.src[r.toks[i].start]
	return c == '(' || c == '[' || c == '{'
}

// closer reports whether token i is a closing bracket, matched or not.
func (r *rewriter) closer(i int) bool {
	if r.toks[i].kind != kPunct || r.toks[i].end-r.toks[i].start != 1 {
		return false
	}
	c := r.src[r.toks[i].start]
	return c == ')' || c == ']' || c == '}'
}

// blank overwrites out[a:b] with spaces, keeping line breaks.
func (r *rewriter) blank(a, b int) {
	if a < 0 {
		a = 0
	}
	if b > len(r.out) {
		b = len(r.out)
	}
	for p := a; p < b; p++ {
		if !isNewline(r.src[p]) {
			r.out[p] = ' '
		}
	}
}

// blankToks blanks tokens a..b (inclusive) and the bytes between them, and
// marks them done.
func (r *rewriter) blankToks(a, b int) {
	if a > b {
		return
	}
	r.blank(r.toks[a].start, r.toks[b].end)
	r.done(a, b)
}

// done marks tokens a..b (inclusive) as rewritten.
func (r *rewriter) done(a, b int) {
	for k := a; k <= b && k < len(r.flags); k++ {
		r.flags[k] |= fDone
	}
}

// run is the single rewriting pass.
func (r *rewriter) run() {
	for i := 0; i < len(r.toks); i++ {
		if r.flags[i]&fDone != 0 {
			continue
		}
		t := r.toks[i]
		switch t.kind {
		case kPunct:
			if t.end-t.start != 1 {
				continue
			}
			switch r.src[t.start] {
			case '@':
				i = r.at(i)
			case '[':
				r.send(i)
			case '^':
				r.caret(i)
			case '-', '+':
				if r.implActive {
					i = r.method(i)
				}
			}
		case kWord:
			r.word(i)
		}
	}
}

// Word sets.
var (
	// nonExprWords are C++ keywords that cannot end an expression.
	nonExprWords = wordSet("alignas alignof and and_eq asm auto bitand bitor bool break case catch char char8_t char16_t char32_t class compl concept const consteval constexpr constinit const_cast continue co_await co_return co_yield decltype default delete do double dynamic_cast else enum explicit export extern float for friend goto if inline int long mutable namespace new noexcept not not_eq operator or or_eq private protected public register reinterpret_cast requires return short signed sizeof static static_assert static_cast struct switch template thread_local throw try typedef typeid typename union unsigned using virtual void volatile wchar_t while xor xor_eq")

	// sendAfterWords are keywords after which an expression, hence a
	// message send, may start.
	sendAfterWords = wordSet("return case else do throw co_return co_yield co_await")

	// callLikeWords are keywords that take a parenthesised operand, so
	// "kw(…)[…]" subscripts their result.
	callLikeWords = wordSet("sizeof alignof decltype typeid noexcept alignas __typeof__ typeof __alignof__")

	// stmtWords introduce "(…)" followed by a statement.
	stmtWords = wordSet("if while for switch")

	// blankWords are Objective-C ownership, bridging and nullability
	// qualifiers that are blanked wherever they appear.
	blankWords = wordSet("__block __weak __strong __unsafe_unretained __autoreleasing __bridge __bridge_transfer __bridge_retained _Nullable _Nonnull _Null_unspecified _Nullable_result __nullable __nonnull __null_unspecified __kindof __covariant __contravariant")

	// nullWords are nullability keywords, blanked only before a type name.
	nullWords = wordSet("nullable nonnull null_unspecified null_resettable")

	// methodTypeWords are dropped from method parameter and return types.
	methodTypeWords = wordSet("nullable nonnull null_unspecified null_resettable oneway in out inout bycopy byref")

	// annotationCalls are Apple SDK annotation macros taking arguments;
	// without the SDK headers C++ reads them as stray calls.
	annotationCalls = wordSet("API_AVAILABLE API_UNAVAILABLE API_DEPRECATED API_DEPRECATED_WITH_REPLACEMENT API_AVAILABLE_BEGIN API_UNAVAILABLE_BEGIN NS_AVAILABLE NS_AVAILABLE_IOS NS_AVAILABLE_MAC NS_CLASS_AVAILABLE NS_DEPRECATED NS_DEPRECATED_IOS NS_DEPRECATED_MAC NS_SWIFT_NAME NS_SWIFT_UNAVAILABLE NS_ENUM_AVAILABLE __API_AVAILABLE __OSX_AVAILABLE __IOS_AVAILABLE __TVOS_AVAILABLE __WATCHOS_AVAILABLE __OSX_AVAILABLE_STARTING __OSX_AVAILABLE_BUT_DEPRECATED")

	// annotationWords are Apple SDK annotation macros without arguments.
	annotationWords = wordSet("NS_ASSUME_NONNULL_BEGIN NS_ASSUME_NONNULL_END NS_DESIGNATED_INITIALIZER NS_REQUIRES_SUPER NS_REFINED_FOR_SWIFT NS_UNAVAILABLE NS_RETURNS_RETAINED NS_RETURNS_NOT_RETAINED NS_RETURNS_INNER_POINTER NS_NOESCAPE NS_SWIFT_NOTHROW NS_VALID_UNTIL_END_OF_SCOPE CF_RETURNS_RETAINED CF_RETURNS_NOT_RETAINED CF_CONSUMED API_AVAILABLE_END API_UNAVAILABLE_END")

	// enumMacros declare an enumeration with a fixed underlying type:
	// "NS_ENUM(Type, Name)".
	enumMacros = wordSet("NS_ENUM NS_OPTIONS NS_CLOSED_ENUM CF_ENUM CF_OPTIONS CF_CLOSED_ENUM")

	// renameWords cannot serve as a member or function name in the C++
	// grammar; a selector part spelled so gets its first letter capitalised.
	renameWords = wordSet("alignas auto const consteval constexpr constinit decltype extern inline long mutable operator register short signed static template thread_local unsigned virtual volatile restrict noreturn")
)

func wordSet(s string) map[string]bool {
	m := map[string]bool{}
	start := -1
	for i := 0; i <= len(s); i++ {
		if i == len(s) || s[i] == ' ' {
			if start >= 0 {
				m[s[start:i]] = true
			}
			start = -1
		} else if start < 0 {
			start = i
		}
	}
	return m
}

// endsExpr reports whether token k can be the last token of an expression.
func (r *rewriter) endsExpr(k int) bool {
	if k < 0 || k >= len(r.toks) {
		return false
	}
	switch r.toks[k].kind {
	case kNumber, kString, kChar:
		return true
	case kWord:
		return !nonExprWords[string(r.text(k))]
	case kPunct:
		switch string(r.text(k)) {
		case ")", "]", "}", ">":
			return true
		}
	}
	return false
}

// afterMember reports whether token i follows ".", "->" or "::", where any
// word is just a name.
func (r *rewriter) afterMember(i int) bool {
	return r.isP(i-1, ".") || r.isP(i-1, "->") || r.isP(i-1, "::")
}

// word handles qualifiers, Apple SDK annotation macros and fast
// enumeration.
func (r *rewriter) word(i int) {
	w := string(r.text(i))
	switch {
	case blankWords[w]:
		if !r.afterMember(i) {
			r.blankToks(i, i)
			r.typeofAfterQualifier(i + 1)
		}
	case nullWords[w]:
		if !r.afterMember(i) && r.isW(i+1) {
			r.blankToks(i, i)
		}
	case w == "for":
		r.forIn(i + 1)
	case annotationWords[w]:
		if !r.afterMember(i) {
			r.blankToks(i, i)
		}
	case enumMacros[w]:
		if !r.afterMember(i) {
			r.enumMacro(i)
		}
	case annotationCalls[w]:
		if p := i + 1; !r.afterMember(i) && r.isP(p, "(") && r.match[p] > p {
			r.blankToks(i, r.match[p])
		}
	}
}

// typeofAfterQualifier rewrites the GNU "typeof" or "__typeof" at token k,
// which the C++ grammar does not know, into "decltype" when it follows a
// blanked qualifier, as in "__weak typeof(self) weakSelf = self;". The
// shorter "typeof" takes two of the blanks before it.
func (r *rewriter) typeofAfterQualifier(k int) {
	if !r.isW(k) || !r.isP(k+1, "(") {
		return
	}
	t := r.toks[k]
	switch string(r.text(k)) {
	case "__typeof":
		copy(r.out[t.start:], "decltype")
	case "typeof":
		if t.start < 2 || !isBlankByte(r.out[t.start-1]) || !isBlankByte(r.out[t.start-2]) {
			return
		}
		copy(r.out[t.start-2:], "decltype")
	default:
		return
	}
	r.done(k, k)
}

// enumMacro rewrites "typedef NS_ENUM(Type, Name) {" at token i into
// "enum Name : Type {", dropping the typedef, which has no declarator.
func (r *rewriter) enumMacro(i int) {
	p := i + 1
	if !r.isP(p, "(") || r.match[p] != p+4 || !r.isW(p+1) || !r.isP(p+2, ",") || !r.isW(p+3) || !r.isP(p+5, "{") {
		return
	}
	typ, name := r.toks[p+1], r.toks[p+3]
	lo, hi := r.toks[i].start, r.toks[p+4].end
	colon := lo + 5 + name.end - name.start + 1
	ps := []piece{
		{[]byte("enum"), lo},
		{r.src[name.start:name.end], lo + 5},
		{[]byte(":"), colon},
		{r.src[typ.start:typ.end], colon + 2},
	}
	if !layout(r.src, r.out, lo, hi, ps) {
		return
	}
	r.done(i, p+4)
	if r.isWord(i-1, "typedef") {
		r.blankToks(i-1, i-1)
	}
}

// forIn rewrites "for (T x in c)" into "for (T x :  c)". p is the token
// after "for".
func (r *rewriter) forIn(p int) {
	if !r.isP(p, "(") || r.match[p] < 0 {
		return
	}
	m := r.match[p]
	cand := -1
	prev := -1
	for k := p + 1; k < m; {
		if r.opener(k) {
			if r.match[k] > m {
				return
			}
			prev = r.match[k]
			k = r.match[k] + 1
			continue
		}
		if r.isP(k, ";") || r.isP(k, ":") {
			return
		}
		if cand < 0 && r.isWord(k, "in") && r.isW(prev) && k+1 < m {
			cand = k
		}
		prev = k
		k++
	}
	if cand < 0 {
		return
	}
	s := r.toks[cand].start
	r.out[s] = ':'
	r.out[s+1] = ' '
	r.flags[cand] |= fDone | fForIn
}

// rename returns the selector part text to use as a C++ name.
func rename(w []byte) []byte {
	if renameWords[string(w)] && len(w) > 0 && 'a' <= w[0] && w[0] <= 'z' {
		c := append([]byte(nil), w...)
		c[0] -= 'a' - 'A'
		return c
	}
	return w
}

// at handles the Objective-C construct starting with the '@' token i and
// returns the index of the last token it consumed.
func (r *rewriter) at(i int) int {
	at := r.toks[i].start
	n := i + 1
	if n >= len(r.toks) || r.toks[n].start != r.toks[i].end {
		r.out[at] = ' '
		return i
	}
	switch r.toks[n].kind {
	case kString, kNumber, kChar:
		r.out[at] = ' '
		return i
	case kPunct:
		switch string(r.text(n)) {
		case "[":
			return r.collection(i, n, false)
		case "{":
			return r.collection(i, n, true)
		case "(":
			r.boxed = append(r.boxed, uint32(at))
		}
		r.out[at] = ' '
		return i
	}
	switch string(r.text(n)) {
	case "interface":
		return r.blankBlockDecl(i)
	case "protocol":
		if r.isP(n+1, "(") {
			r.out[at] = ' '
			r.done(n, n)
			return n
		}
		k := n + 1
		for r.isW(k) && (r.isP(k+1, ",") || r.isP(k+1, ";")) {
			if r.isP(k+1, ";") {
				r.blankToks(i, k+1)
				return k + 1
			}
			k += 2
		}
		return r.blankBlockDecl(i)
	case "implementation":
		return r.implementation(i)
	case "end":
		r.blankToks(i, n)
		r.implActive = false
		return n
	case "class", "property", "synthesize", "dynamic", "import", "compatibility_alias", "defs":
		return r.blankToSemicolon(i)
	case "optional", "required", "public", "private", "protected", "package", "autoreleasepool", "finally":
		r.blankToks(i, n)
		return n
	case "selector":
		return r.selector(i)
	case "encode":
		copy(r.out[at:], " sizeof")
		r.done(n, n)
		return n
	case "available":
		r.out[at] = ' '
		r.done(n, n)
		if p := n + 1; r.isP(p, "(") && r.match[p] > p {
			m := r.match[p]
			r.blank(r.toks[p].end, r.toks[m].start)
			r.done(p, m)
			return m
		}
		return n
	case "synchronized":
		s := r.toks[n]
		r.out[at] = 'i'
		r.out[s.start] = 'f'
		r.blank(s.start+1, s.end)
		r.done(n, n)
		return n
	case "try":
		b := n + 1
		if r.isP(b, "{") && r.match[b] > b && r.isP(r.match[b]+1, "@") && r.isWord(r.match[b]+2, "catch") {
			r.out[at] = ' '
			r.done(n, n)
		} else {
			r.blankToks(i, n)
		}
		return n
	case "catch", "throw":
		r.out[at] = ' '
		r.done(n, n)
		return n
	}
	// Boxed names (@YES, @NO, @INT_MAX) and unknown keywords keep the word.
	r.out[at] = ' '
	return i
}

// collection rewrites the array literal @[…] (dict false) or the dictionary
// literal @{…} (dict true) whose '@' is token i and opening bracket token n.
func (r *rewriter) collection(i, n int, dict bool) int {
	at := r.toks[i].start
	j := r.match[n]
	if j < 0 {
		r.out[at] = ' '
		return i
	}
	r.done(n, n)
	r.done(j, j)
	if j == n+1 {
		r.out[at] = '('
		r.out[r.toks[n].start] = '0'
		r.out[r.toks[j].start] = ')'
		return n
	}
	r.out[at] = ' '
	r.out[r.toks[n].start] = '('
	r.out[r.toks[j].start] = ')'
	prev := n
	tern := 0
	for k := n + 1; k < j; {
		if r.opener(k) {
			if r.match[k] > j {
				break
			}
			prev = r.match[k]
			k = r.match[k] + 1
			continue
		}
		if dict {
			if r.isP(k, "?") {
				tern++
			} else if r.isP(k, ":") {
				if tern > 0 {
					tern--
				} else {
					r.out[r.toks[k].start] = ','
					r.done(k, k)
				}
			}
		}
		prev = k
		k++
	}
	if prev > n && r.isP(prev, ",") {
		r.out[r.toks[prev].start] = ' '
	}
	return n
}

// blankBlockDecl blanks "@interface … @end" or "@protocol … @end" starting
// at the '@' token i. Without a terminating @end only the keyword goes.
func (r *rewriter) blankBlockDecl(i int) int {
	for k := i + 2; k+1 < len(r.toks); k++ {
		if !r.isP(k, "@") || !r.isW(k+1) || r.toks[k+1].start != r.toks[k].end {
			continue
		}
		switch string(r.text(k + 1)) {
		case "end":
			r.blankToks(i, k+1)
			return k + 1
		case "interface", "implementation":
			k = len(r.toks)
		case "protocol":
			if !r.isP(k+2, "(") {
				k = len(r.toks)
			}
		}
	}
	r.blankToks(i, i+1)
	return i + 1
}

// blankToSemicolon blanks a declaration such as "@class A, B;" starting at
// the '@' token i, through its ';'. Without one only the keyword goes.
func (r *rewriter) blankToSemicolon(i int) int {
	for k := i + 2; k < len(r.toks); {
		if r.opener(k) && !r.isP(k, "{") {
			k = r.match[k] + 1
			continue
		}
		if r.isP(k, ";") {
			r.blankToks(i, k)
			return k
		}
		if r.isP(k, "@") || r.isP(k, "{") || r.isP(k, "}") {
			break
		}
		k++
	}
	r.blankToks(i, i+1)
	return i + 1
}

// selector rewrites @selector(a:b:) into " selector(a_b_)".
func (r *rewriter) selector(i int) int {
	n := i + 1
	r.out[r.toks[i].start] = ' '
	r.done(n, n)
	p := n + 1
	if !r.isP(p, "(") || r.match[p] < 0 {
		return n
	}
	m := r.match[p]
	a, b := r.toks[p].end, r.toks[m].start
	simple := true
	for x := a; x < b; x++ {
		c := r.src[x]
		if !isWordByte(c) && c != ':' && !isBlankByte(c) {
			simple = false
			break
		}
	}
	if simple {
		for x := a; x < b; x++ {
			if c := r.src[x]; c == ':' || isBlankByte(c) {
				r.out[x] = '_'
			}
		}
	} else {
		r.blank(a, b)
	}
	r.done(p, m)
	return m
}

// implementation blanks the header "@implementation Name : Super (Cat)" and
// its ivar block, and enters method-definition mode.
func (r *rewriter) implementation(i int) int {
	k := i + 2
	if r.isW(k) {
		k++
	}
	if r.isP(k, ":") && r.isW(k+1) {
		k += 2
	}
	if r.isP(k, "(") && r.match[k] > k {
		k = r.match[k] + 1
	}
	if r.isP(k, "{") && r.match[k] > k {
		k = r.match[k] + 1
	}
	last := k - 1
	r.blankToks(i, last)
	r.implActive = true
	r.implDepth = r.depth[i]
	r.implHeaderEnd = last
	return last
}
