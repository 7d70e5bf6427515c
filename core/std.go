package core

import (
	"strings"

	"github.com/holdfast-dev/holdfast/internal/cxxtype"
)

// What the standard library and its common equivalents do with memory.
// Each table cites the documentation it is written from; a name here is a
// documented behaviour, never a guess about a project's code.

// typeKind is what a declared type makes of the value it holds.
type typeKind uint8

const (
	tPlain   typeKind = iota // a value with no memory of interest
	tStorage                 // owns a buffer of elements (vector, string)
	tUnique                  // owns one object, alone (unique_ptr)
	tShared                  // owns one object with others (shared_ptr)
	tView                    // borrows a range it does not own (span, string_view)
	tPointer                 // a raw pointer
	tRef                     // a reference
	tIter                    // an iterator into a container
	tAuto                    // takes the kind of its initialiser
)

// storageTypes own a heap buffer of their elements that is replaced when
// they grow (cppreference, std::vector "Iterator invalidation": push_back,
// emplace_back, insert, emplace, resize, reserve may reallocate, clear
// invalidates every reference; std::basic_string: "References, pointers,
// and iterators ... may be invalidated by ... any standard library
// function taking a reference to non-const basic_string as an argument ...
// calling non-const member functions, except operator[], at, data, front,
// back, begin, rbegin, end and rend"). absl::InlinedVector and
// llvm::SmallVector document the same invalidation as std::vector.
var storageTypes = map[string]bool{
	"std::vector": true, "vector": true, "std::string": true, "string": true,
	"std::basic_string": true, "std::wstring": true, "std::u16string": true, "std::u32string": true,
	"absl::InlinedVector": true, "llvm::SmallVector": true, "c10::SmallVector": true,
	"folly::fbvector": true, "folly::fbstring": true, "std::pmr::vector": true, "std::pmr::string": true,
}

// viewTypes borrow a range they do not own (cppreference std::span,
// std::basic_string_view: "it is the programmer's responsibility to ensure
// that std::string_view does not outlive the pointed-to character array";
// absl::Span, absl::string_view, c10::ArrayRef, llvm::ArrayRef and
// llvm::StringRef document the same).
var viewTypes = map[string]bool{
	"std::span": true, "span": true, "std::string_view": true, "string_view": true,
	"std::basic_string_view": true, "absl::Span": true, "absl::string_view": true,
	"c10::ArrayRef": true, "at::ArrayRef": true, "ArrayRef": true, "c10::IntArrayRef": true,
	"at::IntArrayRef": true, "IntArrayRef": true, "llvm::ArrayRef": true, "llvm::StringRef": true,
	"llvm::MutableArrayRef": true, "absl::Span<const": true, "folly::StringPiece": true,
	"folly::Range": true, "c10::string_view": true, "std::reference_wrapper": true, "reference_wrapper": true,
}

// stdClasses are standard class templates: T(args) constructs a
// temporary of the type (cppreference, "Explicit type conversion": a
// functional cast or constructor call is a prvalue).
var stdClasses = map[string]bool{
	"std::string": true, "std::vector": true, "std::lock_guard": true, "std::unique_lock": true,
	"std::scoped_lock": true, "std::shared_lock": true, "std::pair": true, "std::tuple": true,
	"std::optional": true, "std::function": true, "std::shared_ptr": true, "std::unique_ptr": true,
	"std::string_view": true, "std::map": true, "std::unordered_map": true, "std::set": true,
}

// family says what a container's insertions and removals do to the
// references into it.
type family uint8

const (
	famNone family = iota
	// famContiguous: growth may move every element (std::vector,
	// std::basic_string; see storageTypes); pop_back ends the last.
	famContiguous
	// famEnds: insertion at either end keeps references to the elements
	// (cppreference std::deque: "insertion at either end ... never
	// invalidates references"); pop_front and pop_back end the element
	// they remove. std::stack is a deque by default; its top() is the back.
	famEnds
	// famQueue: std::queue, a deque whose pop() removes the front.
	famQueue
	// famNodes: insertion invalidates nothing (cppreference std::list,
	// std::forward_list); erasing ends the erased element.
	famNodes
	// famHeap: std::priority_queue over a std::vector: top() is the
	// front, pop() moves the elements (std::pop_heap) and ends the last;
	// push may reallocate.
	famHeap
	// famAssoc: the ordered and unordered associative containers.
	// Insertion invalidates no reference (cppreference std::map: "No
	// iterators or references are invalidated" by insert and emplace;
	// std::unordered_map: "References and pointers to either key or data
	// stored in the container are only invalidated by erasing that
	// element"); erase invalidates the erased element's references and
	// iterators, clear every one. An element is found by its key (find,
	// at, operator[]) or by an iterator.
	famAssoc
)

// sequenceTypes are the containers whose element references the core
// follows, by family; storageTypes are famContiguous.
var sequenceTypes = map[string]family{
	"std::deque": famEnds, "deque": famEnds, "std::queue": famQueue, "queue": famQueue,
	"std::stack": famEnds, "stack": famEnds,
	"std::list": famNodes, "list": famNodes, "std::forward_list": famNodes,
	"std::priority_queue": famHeap, "priority_queue": famHeap,
	"std::map": famAssoc, "map": famAssoc, "std::multimap": famAssoc, "multimap": famAssoc,
	"std::set": famAssoc, "set": famAssoc, "std::multiset": famAssoc, "multiset": famAssoc,
	"std::unordered_map": famAssoc, "unordered_map": famAssoc, "std::unordered_multimap": famAssoc,
	"std::unordered_set": famAssoc, "unordered_set": famAssoc, "std::unordered_multiset": famAssoc,
}

// bufferMovesWith are the containers whose buffer moves with the object
// when it is moved: a pointer into it stays valid, into the object moved
// to (LWG 2321, [container.reqmts]: moving a container other than array
// invalidates no pointer to its elements). A string's buffer may be
// inside the object (small-string storage), as a small vector's is.
var bufferMovesWith = map[string]bool{"std::vector": true, "vector": true, "std::pmr::vector": true,
	"folly::fbvector": true, "std::deque": true, "std::list": true, "std::map": true, "std::unordered_map": true,
	"std::set": true, "std::unordered_set": true}

// elementsMoveBuffers says the elements of container type typ are
// containers whose buffer moves with them (see bufferMovesWith): a
// reallocation of the outer container moves each element, and what
// points into an element's buffer still points into it.
func elementsMoveBuffers(typ string) bool {
	t := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(typ), "const "))
	i, j := strings.IndexByte(t, '<'), strings.LastIndexByte(t, '>')
	if i < 0 || j <= i {
		return false
	}
	el := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(cxxtype.FirstArg(t[i+1:j])), "const "))
	if k := strings.IndexByte(el, '<'); k >= 0 {
		el = strings.TrimSpace(el[:k])
	}
	return bufferMovesWith[el]
}

// nestedType is the name of the member type type text t names of a
// class template's specialization (iterator for std::vector<T>::iterator).
func nestedType(t string) (string, bool) {
	j := strings.LastIndexByte(t, '>')
	if j < 0 {
		return "", false
	}
	rest := strings.TrimSpace(t[j+1:])
	if !strings.HasPrefix(rest, "::") {
		return "", false
	}
	return lastName(rest), true
}

// containerOf reads a container type: its family and what its elements
// are (the first template argument, classified).
func containerOf(typ string) (family, typeKind) {
	t := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(typ), "const "))
	if _, ok := nestedType(t); ok {
		return famNone, tPlain
	}
	base, arg := t, ""
	if i := strings.IndexByte(t, '<'); i >= 0 {
		base = strings.TrimSpace(t[:i])
		if j := strings.LastIndexByte(t, '>'); j > i {
			arg = cxxtype.FirstArg(t[i+1 : j])
		}
	}
	if wrapperTypes[base] {
		return containerOf(arg)
	}
	fam := sequenceTypes[base]
	if storageTypes[base] {
		fam = famContiguous
	}
	if fam == famNone {
		return famNone, tPlain
	}
	if i, j := strings.IndexByte(t, '<'), strings.LastIndexByte(t, '>'); fam == famAssoc && strings.Contains(base, "map") && i >= 0 && j > i {
		// A map's elements are its mapped values (the second argument).
		// Without its arguments (std::map m{...}: deduced) they are not
		// known.
		if t2 := t[i+1 : j]; cxxtype.Rest(t2) != "" {
			arg = cxxtype.FirstArg(cxxtype.Rest(t2))
		}
	}
	if strings.HasSuffix(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(arg), "const")), "*") {
		// Elements that are raw pointers (T*, T* const).
		return fam, tPointer
	}
	return fam, classify(arg)
}

// removeMethods end the element they remove (cppreference: pop_back,
// pop_front, and the adaptors' pop, which removes top() or front()).
var removeMethods = map[string]bool{"pop_back": true, "pop_front": true, "pop": true}

// uniqueTypes own one object and free it when they die or are reset
// (cppreference std::unique_ptr: "the object is disposed of ... when the
// managing unique_ptr object is destroyed ... or assigned another pointer
// via operator= or reset()").
var uniqueTypes = map[string]bool{"std::unique_ptr": true, "unique_ptr": true}

// sharedTypes own one object with every copy; the last one alive frees it
// (cppreference std::shared_ptr).
var sharedTypes = map[string]bool{"std::shared_ptr": true, "shared_ptr": true}

// wrapperTypes hold one value of their argument type in place:
// std::optional<T> is a T (cppreference: "the contained value is allocated
// within the optional object"), so optional<span<T>> is a view.
var wrapperTypes = map[string]bool{"std::optional": true, "absl::optional": true, "optional": true, "c10::optional": true}

// classify reads a declared type, without its declarator's * and &.
func classify(typ string) typeKind {
	t := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(typ), "const "))
	t = strings.TrimSpace(strings.TrimSuffix(t, " const"))
	if m, ok := nestedType(t); ok {
		// A member type of a specialization (std::vector<T>::iterator,
		// Map<K, V>::size_type): not the class itself.
		switch m {
		case "iterator", "const_iterator", "reverse_iterator", "const_reverse_iterator":
			return tIter
		}
		return tPlain
	}
	base, arg := t, ""
	if i := strings.IndexByte(t, '<'); i >= 0 {
		base = strings.TrimSpace(t[:i])
		if j := strings.LastIndexByte(t, '>'); j > i {
			arg = t[i+1 : j]
		}
	}
	switch {
	case base == "auto" || base == "decltype(auto)":
		return tAuto
	case wrapperTypes[base]:
		return classify(arg)
	case storageTypes[base] || sequenceTypes[base] != famNone:
		return tStorage
	case viewTypes[base]:
		return tView
	case uniqueTypes[base]:
		return tUnique
	case sharedTypes[base]:
		return tShared
	case strings.HasSuffix(base, "::iterator") || strings.HasSuffix(base, "::const_iterator") ||
		strings.HasSuffix(base, "::reverse_iterator"):
		return tIter
	}
	return tPlain
}

// borrowMethods return a pointer, reference, iterator or view into a
// storage's buffer (cppreference: data, c_str, begin/end and their c/r
// forms, front, back, operator[], at).
var borrowMethods = map[string]bool{
	"data": true, "c_str": true, "begin": true, "end": true, "cbegin": true, "cend": true,
	"rbegin": true, "rend": true, "front": true, "back": true, "at": true, "top": true,
}

// borrowKind is what a borrow method returns: a pointer (data, c_str), an
// iterator (begin, end and their c/r forms) or a reference (front, back,
// at, top).
func borrowKind(m string) typeKind {
	switch m {
	case "data", "c_str":
		return tPointer
	case "begin", "end", "cbegin", "cend", "rbegin", "rend":
		return tIter
	}
	return tRef
}

// growMethods may replace a storage's buffer (see storageTypes).
var growMethods = map[string]bool{
	"push_back": true, "emplace_back": true, "insert": true, "emplace": true, "resize": true,
	"reserve": true, "append": true, "assign": true, "clear": true, "shrink_to_fit": true,
}

// readOnly are methods that change nothing about their receiver
// (cppreference: the const observers of the standard containers).
var readOnly = map[string]bool{"size": true, "empty": true, "length": true, "data": true, "c_str": true,
	"begin": true, "end": true, "cbegin": true, "cend": true, "front": true, "back": true, "at": true,
	"find": true, "count": true, "contains": true, "get": true, "capacity": true, "top": true}

// viewReads are a view's methods that read the range it borrows.
var viewReads = map[string]bool{
	"data": true, "begin": true, "end": true, "front": true, "back": true, "at": true,
	"cbegin": true, "cend": true, "substr": true, "subspan": true, "find": true, "compare": true,
	"str": true, "vec": true, "first": true, "last": true, "starts_with": true, "ends_with": true,
	"copy": true, "toString": true, "to_string": true,
}

// boundStd return a reference to one of their arguments: "Capturing the
// result of std::max by reference produces a dangling reference if one of
// the parameters is a temporary and that parameter is returned"
// (cppreference, std::min, std::max, std::clamp; libc++ marks the
// parameters lifetimebound).
var boundStd = map[string]bool{"std::min": true, "std::max": true, "std::clamp": true}

// viewMakers return a view of the container or string they are handed
// (absl::MakeSpan and MakeConstSpan: "a span of the container's
// elements"; the view types' own constructors from a container).
var viewMakers = map[string]bool{"absl::MakeSpan": true, "absl::MakeConstSpan": true,
	"MakeSpan": true, "MakeConstSpan": true, "c10::makeArrayRef": true, "llvm::makeArrayRef": true}

// emptyWhenMade are the standard types an object of which, made with no
// initializer, is empty and tests false: [unique.ptr.single.ctor] and
// [util.smartptr.shared.const] ("empty", get() == nullptr),
// [propagation] (a default-constructed exception_ptr is null),
// [func.wrap.func.con] (!*this), [optional.ctor] (does not contain a
// value). Spelled with std::, as a declaration names them.
var emptyWhenMade = map[string]bool{"std::unique_ptr": true, "std::shared_ptr": true, "std::exception_ptr": true,
	"std::function": true, "std::optional": true, "std::move_only_function": true}

// madeEmpty says a local of type typ declared with no initializer is
// empty (see emptyWhenMade).
func madeEmpty(typ string) bool {
	t := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(typ), "const "))
	if i := strings.IndexByte(t, '<'); i >= 0 {
		t = t[:i]
	}
	return emptyWhenMade[strings.TrimSpace(t)]
}

// frees are calls that free their first argument (the C library's free,
// and allocators documented as its equivalents).
var frees = map[string]bool{"free": true, "std::free": true, "::free": true}

// allocs are calls that return a fresh heap object.
var allocs = map[string]bool{"malloc": true, "calloc": true, "std::malloc": true, "std::calloc": true,
	"::malloc": true, "strdup": true, "aligned_alloc": true}

// callableHolders make an object that keeps the callable it is given, to
// call later (cppreference: std::thread runs it on a new thread;
// std::function, std::move_only_function and std::packaged_task store
// it; std::bind and std::bind_front return a wrapper that holds it;
// std::async's future shares the state of a call that may still run,
// and only its destructor waits for it).
var callableHolders = map[string]bool{"std::thread": true, "std::jthread": true, "std::function": true,
	"std::move_only_function": true, "std::packaged_task": true, "std::bind": true, "std::bind_front": true,
	"std::async": true}

// makeUnique and makeShared build an owned object (cppreference).
var makeUnique = map[string]bool{"std::make_unique": true, "make_unique": true, "absl::make_unique": true}
var makeShared = map[string]bool{"std::make_shared": true, "make_shared": true, "std::allocate_shared": true}

// stringReturns return a new std::string by value (cppreference
// std::to_string; absl::StrCat and StrFormat documentation).
var stringReturns = map[string]bool{"std::to_string": true, "to_string": true, "absl::StrCat": true,
	"absl::StrFormat": true, "absl::StrJoin": true, "c10::str": true, "std::string": true}

// newStringMethods are the methods of std::basic_string that return a new
// string by value (cppreference: basic_string::substr).
var newStringMethods = map[string]bool{"substr": true}

// failureExits end the test or the process when their check fails
// (gtest's ASSERT_*: "generate fatal failures ... abort the current
// function"; glog's CHECK: "aborts the program"): the failing path is
// not a path to report from, the passing one continues.
// Catch2's REQUIRE family "will abort the test case on failure" (Catch2,
// docs/assertions.md). The C library's assert "calls std::abort" when its
// expression is false (cppreference assert; in a build with NDEBUG it
// checks nothing, as DCHECK in an optimised build): the code asserts the
// path cannot go on there.
func failureExit(name string) bool {
	return name == "assert" || strings.HasPrefix(name, "ASSERT_") || strings.HasPrefix(name, "TF_ASSERT_") ||
		name == "CHECK" || strings.HasPrefix(name, "CHECK_") || strings.HasPrefix(name, "TORCH_CHECK") ||
		strings.HasPrefix(name, "DCHECK") || name == "REQUIRE" || name == "REQUIRE_FALSE"
}

// checkMacros are the failure exits whose first argument is the
// condition that must hold (true) or must not (false) for the path to go
// on (assert, glog's CHECK and DCHECK, c10's TORCH_CHECK, gtest's
// ASSERT_TRUE and ASSERT_FALSE, Catch2's REQUIRE and REQUIRE_FALSE).
var checkMacros = map[string]bool{"assert": false, "CHECK": false, "DCHECK": false, "TORCH_CHECK": false,
	"ASSERT_TRUE": false, "ASSERT_FALSE": true, "REQUIRE": false, "REQUIRE_FALSE": true}

// testEnds end the test case wherever they are reached (a macro of that
// name the tree defines to return is read as returning first): Catch2's FAIL ("fails the test case
// and aborts it" by throwing) and SKIP (docs/logging.md, docs/skipping-
// passing-failing.md), and GoogleTest's FAIL, GTEST_FAIL and GTEST_SKIP
// ("generates a fatal failure, which returns from the current function";
// assertions reference, "Explicit Success and Failure", and advanced.md,
// "Skipping test execution").
var testEnds = map[string]bool{"FAIL": true, "SKIP": true, "GTEST_FAIL": true, "GTEST_SKIP": true}

// hostCopy says name is one of the C library's memory functions, which
// write their first argument and read the src-th at once and wait for
// nothing (cppreference std::memcpy, std::memmove, std::memset; src -1:
// none).
func hostCopy(name string) (src int, ok bool) {
	switch strings.TrimPrefix(strings.TrimPrefix(name, "std::"), "::") {
	case "memcpy", "memmove":
		return 1, true
	case "memset":
		return -1, true
	}
	return 0, false
}

// insertMethods put their arguments in the container as elements.
var insertMethods = map[string]bool{
	"push_back": true, "emplace_back": true, "push_front": true, "emplace_front": true,
	"insert": true, "emplace": true, "push": true,
}

// arithmetic are the fundamental arithmetic types and the fixed-width
// and size aliases of <cstdint> and <cstddef>, as a local's type name.
var arithmetic = map[string]bool{
	"int": true, "unsigned": true, "long": true, "short": true, "char": true, "bool": true,
	"float": true, "double": true, "size_t": true, "ssize_t": true, "ptrdiff_t": true,
	"int8_t": true, "int16_t": true, "int32_t": true, "int64_t": true,
	"uint8_t": true, "uint16_t": true, "uint32_t": true, "uint64_t": true,
}
