// Package apimodel says what holdfast knows about names: which types own
// device memory, which calls borrow from their receiver, start async work,
// wait, register callbacks, materialise views, free, mutate in place, or
// fill a container. The knowledge is data: packs embedded from packs/*.yaml
// plus whatever a repository adds in its .holdfast.yaml. Where no pack names
// a thing, generic shapes still apply (a type named *Future or *Event is a
// future, a smart pointer owns, a class value owns what its methods return
// raw pointers to); the lifetime model uses both.
package apimodel

import (
	"bytes"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"fmt"
	"io/fs"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Role is what a call does, as a bit set.
type Role uint32

// Roles a call can have.
const (
	// Borrow: returns a raw pointer or reference into the receiver's (or
	// first argument's) memory, valid only while that owner lives.
	Borrow Role = 1 << iota
	// Async: starts device work on the receiver and arguments; returns a
	// future or event, or completes later.
	Async
	// Wait: blocks the host until work (the receiver or argument) is done.
	Wait
	// Callback: registers a continuation that runs when work completes.
	Callback
	// Materialise: may return a fresh buffer or copy for a view.
	Materialise
	// Free: returns memory to an allocator.
	Free
	// Block: blocks the host on something other than device work (a
	// rendezvous), so the device and other hosts run ahead.
	Block
	// Mutate: changes a tensor in place (its buffer may be swapped).
	Mutate
	// Fill: puts something into the receiver container.
	Fill
	// Const: reads the receiver without changing or filling it.
	Const
	// Consume: takes its arguments over (work objects, futures, promises).
	Consume
	// Sync: orders device work against a stream (event record, stream wait).
	Sync
	// Move: transfers ownership of its argument (std::move).
	Move
	// Write: writes its receiver, or its first argument when called as a
	// free function (an H2D copy into a buffer, copy_, a kernel's output).
	Write
	// WriteArg: writes its first argument even when it has a receiver (a
	// device-to-host copy into a destination pointer).
	WriteArg
	// Yield: its result is the future or event of the work it starts;
	// dropping it loses the only way to wait for that work.
	Yield
	// Check: tests a value's layout (is_contiguous, a contiguous-base
	// validation), so code after it may rely on the answer.
	Check
	// Keep: the work keeps its operands alive until it completes (the
	// hold travels inside the future).
	Keep
	// Self: returns a strong or weak reference to the object it is called
	// on (shared_from_this, weak_from_this), or a strong one from a weak one
	// (lock).
	Self
	// Stream: returns a stream other than the current one
	// (getStreamFromPool).
	Stream
	// Switch: makes its stream argument the current stream
	// (setCurrentCUDAStream).
	Switch
	// Status: returns a status saying whether it took effect; dropping it
	// hides a failure (ThenExecuteCallback, cudaLaunchHostFunc).
	Status
	// Alloc: returns freshly allocated memory that the result owns alone
	// (a tensor factory, clone).
	Alloc
	// Bind: hands its arguments to device work that may read or write
	// them (a kernel's argument slots: setBuffer, setArg).
	Bind
	// NoWait: does not wait for, synchronise with or keep what it is
	// handed beyond its own result (construction helpers, formatting,
	// logging, getters), so code holdfast cannot see behind it is not
	// read as a possible wait or hold.
	NoWait
	// Encode: records work into a command buffer that runs after the host
	// has moved on, without keeping its inputs alive (MLX's copy_gpu):
	// the caller must keep them until the command buffer completes.
	Encode
	// Remove: removes elements from its receiver container (pop_back,
	// erase, clear): references and pointers to them dangle.
	Remove
	// Reserve: reserves capacity in its receiver container, so later
	// insertions need not move its elements.
	Reserve
	// Defer: runs a callable argument later, after the call returns, on a
	// loop, pool or queue of its own (an event loop's deferToLoop, a
	// thread pool's Schedule): what the callable refers to must outlive
	// the call.
	Defer
	// Compare: compares the values of its arguments (a test assertion's
	// EXPECT_EQ): a pointer argument is compared, not followed, so a
	// dangling one handed to it reads no memory.
	Compare
	// Exit: never returns to its caller (a host environment's error
	// function that hands control back to the environment, a fatal
	// error): the path ends at the call.
	Exit
	// Complete: a coroutine's co_yield of its result completes the
	// coroutine, which is never resumed (folly::coro's co_error): the
	// path ends at the co_yield.
	Complete
)

var roleNames = []struct {
	name string
	role Role
}{
	{"borrow", Borrow}, {"async", Async}, {"wait", Wait}, {"callback", Callback},
	{"materialise", Materialise}, {"free", Free}, {"block", Block}, {"mutate", Mutate},
	{"fill", Fill}, {"const", Const}, {"consume", Consume}, {"sync", Sync}, {"move", Move},
	{"write", Write}, {"write_arg", WriteArg}, {"yield", Yield}, {"check", Check}, {"keep", Keep},
	{"self", Self}, {"stream", Stream}, {"switch", Switch}, {"status", Status}, {"alloc", Alloc},
	{"bind", Bind}, {"nowait", NoWait}, {"encode", Encode}, {"remove", Remove}, {"reserve", Reserve},
	{"defer", Defer}, {"compare", Compare}, {"exit", Exit}, {"complete", Complete},
}

func (r Role) String() string {
	var parts []string
	for _, rn := range roleNames {
		if r&rn.role != 0 {
			parts = append(parts, rn.name)
		}
	}
	return strings.Join(parts, "|")
}

// ParseRole reads one role name.
func ParseRole(s string) (Role, bool) {
	for _, rn := range roleNames {
		if rn.name == s {
			return rn.role, true
		}
	}
	return 0, false
}

// Pack is one API model as written in YAML. Names are matched against the
// last component of a qualified name ("xla::PjRtBuffer" matches
// "PjRtBuffer"); a qualified entry matches only that qualified name.
type Pack struct {
	Name        string   `yaml:"name"`
	Description string   `yaml:"description"`
	Owners      []string `yaml:"owners"`     // types owning device memory
	Futures     []string `yaml:"futures"`    // future/event types beyond the *Future/*Event shape
	Containers  []string `yaml:"containers"` // container types
	SmartPtrs   []string `yaml:"smart_ptrs"` // owning smart pointer templates
	Tensors     []string `yaml:"tensors"`    // framework tensor types
	// Handles are types whose copies share one buffer (reference-counted
	// handles such as MLX's array): a local handle that dies frees
	// nothing while another copy lives.
	Handles []string `yaml:"handles"`
	// Borrowed are types whose values a function is handed only for the
	// duration of the call, by the API's convention (IREE's HAL objects):
	// work that runs later must take its own reference.
	Borrowed   []string            `yaml:"borrowed"`
	Calls      map[string][]string `yaml:"calls"`       // call name -> roles
	DeclMacros []string            `yaml:"decl_macros"` // macros whose first argument declares a variable
	HoldWords  []string            `yaml:"hold_words"`  // words in a container's name that say it keeps things alive
	// BoundMacros are macros that expand to [[clang::lifetimebound]] on a
	// parameter: the function's result may refer to what that argument
	// refers to (ABSL_ATTRIBUTE_LIFETIME_BOUND).
	BoundMacros []string `yaml:"lifetime_bound_macros"`
	// DeferWords are words that, first or last in the name of a call no
	// pack names, say it may run a callable argument after it returns
	// (enqueueTask, PostTask, runLater).
	DeferWords []string `yaml:"defer_words"`
	Consumers  []string `yaml:"consumers"` // work/handle types that take over futures and holds
	Views      []string `yaml:"views"`     // class types that never own what they refer to
	// ListViews are views with a std::initializer_list constructor: a
	// braced list of elements makes one view the list's backing array, a
	// temporary of the full expression (not a pointer and a length).
	ListViews []string `yaml:"list_views"`
	// Counted are the namespaces of reference-counted object types under
	// Cocoa's ownership policy (see core's counted.go): a method of a
	// pointer to one of them is a message.
	Counted []string `yaml:"counted_namespaces"`
	// Streams are stream, queue and device-state types: work issued on
	// them runs behind the host.
	Streams []string `yaml:"streams"`
	// StreamGuards are types whose constructor makes their stream argument
	// current until they die.
	StreamGuards []string `yaml:"stream_guards"`
	// GILObjects are types whose release may need the interpreter lock
	// (Python objects, framework tensors that can own one).
	GILObjects []string `yaml:"gil_objects"`
	// FutureCalls are calls whose roles differ when the receiver is a
	// future ("get" waits on a future but borrows from a smart pointer).
	FutureCalls map[string][]string `yaml:"future_calls"`
	// Layout says what tensor calls do to the layout of their receiver
	// (or first argument, for a free function).
	Layout map[string]LayoutOp `yaml:"layout"`
	// MemoryFormats says what a memory-format name among a layout call's
	// arguments makes of its result: "contiguous", "keep" or "strided".
	MemoryFormats map[string]string `yaml:"memory_formats"`
	// Reallocating are container templates whose growth may move every
	// element (std::vector, llvm::SmallVector): references into them
	// dangle after an insertion.
	Reallocating []string `yaml:"reallocating"`
	// Removes says, for a call with the remove role, whose element it
	// destroys: the accessor that returns it ("back" for pop_back), or "*"
	// for every element (clear). A removal not listed may destroy any
	// element (erase).
	Removes map[string]string `yaml:"removes"`
	// FreeArgs gives, for a free function with the free role whose freed
	// value is not its first argument, the 0-based index of the argument
	// it frees (iree_allocator_free(allocator, ptr): 1).
	FreeArgs map[string]int `yaml:"free_args"`
	// Device says what calls do on the device, as the semantic core
	// executes them: the work they queue, on which queue, the memory it
	// uses, and what they wait for. A name with a leading '.' is a method
	// (q.memcpy), any other a free function.
	Device map[string]DeviceOp `yaml:"device"`
}

// DeviceOp is what one call does on the device. Argument indexes are
// 0-based, over the call's arguments (not its receiver).
type DeviceOp struct {
	// Queue is the argument naming the stream or queue the work runs on;
	// -1 names the receiver of a method call. Absent: the default stream.
	Queue *int `yaml:"queue"`
	// Reads and Writes are the arguments whose memory the queued work
	// reads and writes after the call returns.
	Reads  []int `yaml:"reads"`
	Writes []int `yaml:"writes"`
	// Host says which host memory among Reads and Writes the work still
	// uses after the call returns: "all" (OpenCL's non-blocking transfers,
	// SYCL's queue copies) or "pinned" (CUDA and HIP: a copy with pageable
	// host memory is staged, or completes, before the call returns).
	Host string `yaml:"host"`
	// Blocking is the argument that, when true, makes the call wait for
	// its work (OpenCL's blocking_read and blocking_write).
	Blocking *int `yaml:"blocking"`
	// Waits is what the call waits for before it returns: "queue" (the
	// work queued on Queue), "all" (every queue's work), or nothing.
	Waits string `yaml:"waits"`
	// Allocates is the out-parameter a fresh allocation is written to
	// (cudaMallocHost(&p, n): 0); Pinned says the memory is page-locked
	// host memory, which copies use after they return.
	Allocates *int `yaml:"allocates"`
	Pinned    bool `yaml:"pinned"`
	// Frees is the argument whose memory the call frees (after its wait,
	// if it has one).
	Frees *int `yaml:"frees"`
	// Needs lists the arguments that must name an object (a queue, a
	// buffer): written as a null pointer constant, the call fails and
	// queues nothing (OpenCL's CL_INVALID_MEM_OBJECT).
	Needs []int `yaml:"needs"`
	// Records says the call records its work into a command buffer (the
	// Queue argument) instead of running it: the work uses its memory once
	// a call that Submits runs it (Vulkan's vkCmd* commands, run by
	// vkQueueSubmit).
	Records bool `yaml:"records"`
	// Submits says the call hands recorded work to the device: all the
	// work recorded on the path is taken to be in the batch, whichever
	// command buffer it was recorded into.
	Submits bool `yaml:"submits"`
	// On lists the types (by last name) a method's receiver must be
	// declared as for the entry to apply (sycl::queue for q.memcpy).
	On []string `yaml:"on"`
	// Doc is where the behaviour is documented.
	Doc string `yaml:"doc"`
}

// LayoutOp is what a tensor call does to layout.
type LayoutOp struct {
	// Result is "contiguous" (the result is contiguous: factories,
	// .contiguous()), "keep" (contiguous when the input is: view, reshape,
	// a leading-dim chunk) or "strided" (may not be: transpose, permute).
	Result string `yaml:"result"`
	// Dim is the index of the dimension argument (after the input, for a
	// free function) of an op that keeps contiguity only along the leading
	// dimension; absent means the op has none. The dimension defaults to 0.
	Dim *int `yaml:"dim"`
	// Step is the index of a step argument that must be 1 to keep
	// contiguity (slice); absent means none.
	Step *int `yaml:"step"`
	// Rank is the rank of the result when the op fixes it: 1 for
	// flatten(); -1 (one less than the input's) for select; 0 (absent)
	// when unknown or given by the size arguments.
	Rank int `yaml:"rank"`
	// Sizes is the index of the argument that gives the result's sizes
	// (view, reshape, factories): an initializer list, or the remaining
	// arguments when they are numbers. Absent means none.
	Sizes *int `yaml:"sizes"`
	// List says the result is a list of tensors (chunk, split), each
	// with the layout described.
	List bool `yaml:"list"`
}

// Layout results.
const (
	LayoutContiguous = "contiguous"
	LayoutKeep       = "keep"
	LayoutStrided    = "strided"
)

//go:embed packs/*.yaml
var builtin embed.FS

// Model is the merged knowledge of a set of packs. It is immutable after
// Load and safe to share between goroutines.
type Model struct {
	packs       []string
	owners      map[string]bool
	futures     map[string]bool
	containers  map[string]bool
	smart       map[string]bool
	handles     map[string]bool
	borrowed    map[string]bool
	tensors     map[string]bool
	consumers   map[string]bool
	views       map[string]bool
	listViews   map[string]bool
	counted     map[string]bool
	streams     map[string]bool
	guards      map[string]bool
	gilObjects  map[string]bool
	calls       map[string]Role
	methods     map[string]Role // calls named with a leading '.': on an object only
	globals     map[string]Role // calls named with a leading "::": a function of the global namespace, never a method
	onFutures   map[string]Role
	layout      map[string]LayoutOp
	formats     map[string]string
	freeArgs    map[string]int
	realloc     map[string]bool
	removes     map[string]string
	device      map[string]DeviceOp
	declMacros  []string
	holdWords   []string
	boundMacros []string
	deferWords  []string
	// fingerprint names the packs the model was loaded from.
	fingerprint string
}

// Fingerprint names the knowledge the model holds: a hash of the packs it
// was loaded from, built-in and extra. Two models with the same
// fingerprint say the same of every name.
func (m *Model) Fingerprint() string { return m.fingerprint }

// Builtin returns the names and sources of the embedded packs, sorted.
func Builtin() (map[string][]byte, error) {
	out := map[string][]byte{}
	err := fs.WalkDir(builtin, "packs", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := builtin.ReadFile(path)
		out[path] = b
		return err
	})
	return out, err
}

// ParsePack decodes one pack, rejecting unknown keys and unknown roles.
// Errors carry name (a file name) and the YAML line.
func ParsePack(name string, src []byte) (*Pack, error) {
	dec := yaml.NewDecoder(bytes.NewReader(src))
	dec.KnownFields(true)
	var p Pack
	if err := dec.Decode(&p); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if err := p.Validate(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return &p, nil
}

// Validate checks the roles of every call.
func (p *Pack) Validate() error {
	for _, calls := range []map[string][]string{p.Calls, p.FutureCalls} {
		for _, call := range sortedKeys(calls) {
			for _, r := range calls[call] {
				if _, ok := ParseRole(r); !ok {
					return fmt.Errorf("call %q: unknown role %q (known: %s)", call, r, knownRoles())
				}
			}
		}
	}
	for _, call := range sortedKeys(p.Device) {
		d := p.Device[call]
		switch {
		case d.Host != "" && d.Host != "all" && d.Host != "pinned":
			return fmt.Errorf("device %q: unknown host %q (known: all, pinned)", call, d.Host)
		case d.Waits != "" && d.Waits != "queue" && d.Waits != "all":
			return fmt.Errorf("device %q: unknown waits %q (known: queue, all)", call, d.Waits)
		case d.Doc == "":
			return fmt.Errorf("device %q: no doc (say where the behaviour is documented)", call)
		case strings.HasPrefix(call, ".") != (len(d.On) > 0):
			return fmt.Errorf("device %q: a method (a name with a leading '.') needs on: (its receiver's types), a free function none", call)
		}
	}
	for _, call := range sortedKeys(p.Layout) {
		if !knownLayout(p.Layout[call].Result) {
			return fmt.Errorf("layout %q: unknown result %q (known: contiguous, keep, strided)", call, p.Layout[call].Result)
		}
	}
	for _, name := range sortedKeys(p.MemoryFormats) {
		if !knownLayout(p.MemoryFormats[name]) {
			return fmt.Errorf("memory format %q: unknown result %q (known: contiguous, keep, strided)", name, p.MemoryFormats[name])
		}
	}
	return nil
}

func knownLayout(r string) bool {
	return r == LayoutContiguous || r == LayoutKeep || r == LayoutStrided
}

func knownRoles() string {
	return strings.Join(RoleNames(), ", ")
}

// RoleNames lists the role names ParseRole accepts, in bit order.
func RoleNames() []string {
	var names []string
	for _, rn := range roleNames {
		names = append(names, rn.name)
	}
	return names
}

// Load merges the built-in packs with extra ones (a repository's own, in
// the order given; later packs add to earlier ones).
func Load(extra ...*Pack) (*Model, error) {
	srcs, err := Builtin()
	if err != nil {
		return nil, err
	}
	var packs []*Pack
	for _, name := range sortedKeys(srcs) {
		p, err := ParsePack(name, srcs[name])
		if err != nil {
			return nil, err
		}
		packs = append(packs, p)
	}
	packs = append(packs, extra...)
	h := sha256.New()
	for _, name := range sortedKeys(srcs) {
		_, _ = fmt.Fprintf(h, "%s %d\n", name, len(srcs[name])) // a hash never fails to write
		h.Write(srcs[name])
	}
	for _, p := range extra {
		if p != nil {
			b, _ := yaml.Marshal(p)
			_, _ = fmt.Fprintf(h, "extra %d\n", len(b))
			h.Write(b)
		}
	}
	m := &Model{
		fingerprint: hex.EncodeToString(h.Sum(nil)[:12]),
		owners:      map[string]bool{}, futures: map[string]bool{}, containers: map[string]bool{},
		smart: map[string]bool{}, handles: map[string]bool{}, borrowed: map[string]bool{}, tensors: map[string]bool{}, consumers: map[string]bool{}, views: map[string]bool{}, listViews: map[string]bool{}, counted: map[string]bool{},
		calls: map[string]Role{}, methods: map[string]Role{}, globals: map[string]Role{}, onFutures: map[string]Role{}, layout: map[string]LayoutOp{},
		streams: map[string]bool{}, guards: map[string]bool{}, gilObjects: map[string]bool{},
		formats: map[string]string{}, freeArgs: map[string]int{}, realloc: map[string]bool{}, removes: map[string]string{},
		device: map[string]DeviceOp{},
	}
	for _, p := range packs {
		if p == nil {
			continue
		}
		if err := p.Validate(); err != nil {
			return nil, err
		}
		m.packs = append(m.packs, p.Name)
		addAll(m.owners, p.Owners)
		addAll(m.futures, p.Futures)
		addAll(m.containers, p.Containers)
		addAll(m.smart, p.SmartPtrs)
		addAll(m.handles, p.Handles)
		addAll(m.borrowed, p.Borrowed)
		addAll(m.tensors, p.Tensors)
		addAll(m.consumers, p.Consumers)
		addAll(m.views, p.Views)
		addAll(m.listViews, p.ListViews)
		addAll(m.counted, p.Counted)
		addAll(m.streams, p.Streams)
		addAll(m.guards, p.StreamGuards)
		addAll(m.gilObjects, p.GILObjects)
		addAll(m.realloc, p.Reallocating)
		for call, roles := range p.Calls {
			into := m.calls
			if method, ok := strings.CutPrefix(call, "."); ok {
				into, call = m.methods, method
			} else if global, ok := strings.CutPrefix(call, "::"); ok {
				into, call = m.globals, global
			}
			for _, r := range roles {
				role, _ := ParseRole(r)
				into[call] |= role
			}
		}
		for call, roles := range p.FutureCalls {
			for _, r := range roles {
				role, _ := ParseRole(r)
				m.onFutures[call] |= role
			}
		}
		for call, op := range p.Layout {
			m.layout[call] = op
		}
		for name, r := range p.MemoryFormats {
			m.formats[name] = r
		}
		for name, acc := range p.Removes {
			m.removes[name] = acc
		}
		for name, i := range p.FreeArgs {
			m.freeArgs[name] = i
		}
		for name, d := range p.Device {
			m.device[name] = d
		}
		m.declMacros = append(m.declMacros, p.DeclMacros...)
		m.holdWords = append(m.holdWords, p.HoldWords...)
		m.boundMacros = append(m.boundMacros, p.BoundMacros...)
		m.deferWords = append(m.deferWords, p.DeferWords...)
	}
	slices.Sort(m.declMacros)
	m.declMacros = slices.Compact(m.declMacros)
	slices.Sort(m.boundMacros)
	m.boundMacros = slices.Compact(m.boundMacros)
	slices.Sort(m.holdWords)
	m.holdWords = slices.Compact(m.holdWords)
	slices.Sort(m.deferWords)
	m.deferWords = slices.Compact(m.deferWords)
	return m, nil
}

func addAll(set map[string]bool, names []string) {
	for _, n := range names {
		set[n] = true
	}
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// Packs names the packs merged into m, in load order.
func (m *Model) Packs() []string { return m.packs }

// Reallocates reports whether growing a container of this template may
// move its elements.
func (m *Model) Reallocates(typ string) bool { _, ok := lookup(m.realloc, typ); return ok }

// Removes returns the accessor whose element removal call name destroys
// ("*" for all), when a pack says.
func (m *Model) Removes(name string) (string, bool) { return lookup(m.removes, name) }

// EndAccessor reports whether acc ("back") returns the element at an end
// that some removal destroys.
func (m *Model) EndAccessor(acc string) bool {
	for _, a := range m.removes {
		if a == acc {
			return true
		}
	}
	return false
}

// FreeArg returns the index of the argument free function name frees, when
// a pack says it is not the first.
func (m *Model) FreeArg(name string) (int, bool) { return lookup(m.freeArgs, name) }

// DeclMacros lists the declaration macros, sorted.
func (m *Model) DeclMacros() []string { return m.declMacros }

// IsBoundMacro says name is a macro that marks a parameter lifetimebound
// (see Pack.BoundMacros).
func (m *Model) IsBoundMacro(name string) bool {
	if m == nil {
		return false
	}
	_, ok := slices.BinarySearch(m.boundMacros, name)
	return ok
}

// lookup finds a name, qualified first, then by its last component.
func lookup[V any](set map[string]V, name string) (V, bool) {
	if v, ok := set[name]; ok {
		return v, true
	}
	if i := strings.LastIndex(name, "::"); i >= 0 {
		v, ok := set[name[i+2:]]
		return v, ok
	}
	var zero V
	return zero, false
}

// Device returns what a call does on the device: a free function by its
// (possibly qualified) name, a method (method true) by its name.
func (m *Model) Device(name string, method bool) (DeviceOp, bool) {
	if m == nil {
		return DeviceOp{}, false
	}
	if method {
		d, ok := m.device["."+name]
		return d, ok
	}
	return lookup(m.device, name)
}

// Call returns the roles of a call by its (possibly qualified) name,
// whether or not it is made on an object: a method's roles (a pack's
// name with a leading '.') count too.
func (m *Model) Call(name string) Role {
	r, _ := lookup(m.calls, name)
	g := m.global(name)
	if i := strings.LastIndex(name, "::"); i >= 0 {
		name = name[i+2:]
	}
	return r | g | m.methods[name]
}

// CallOn returns the roles of a call by its name and whether it is made
// on an object (x.f(), p->f()): a free function's call takes none of a
// method's roles, whatever its name (a function Memcpy(dst, src, n, kind)
// is not Stream::Memcpy).
func (m *Model) CallOn(name string, method bool) Role {
	r, _ := lookup(m.calls, name)
	if method {
		// A method takes a method's roles and those of names a pack does
		// not bind to one kind, never a global function's (x->free(d, a)
		// is not C's free).
		if i := strings.LastIndex(name, "::"); i >= 0 {
			name = name[i+2:]
		}
		return r | m.methods[name]
	}
	g := m.global(name)
	return r | g
}

// global returns the roles of name as a function of the global
// namespace: unqualified, or qualified by :: or std:: alone (C's free is
// std::free, not Handler::free).
func (m *Model) global(name string) Role {
	if i := strings.LastIndex(name, "::"); i >= 0 {
		if q := name[:i]; q != "" && q != "std" {
			return 0
		}
		name = name[i+2:]
	}
	return m.globals[name]
}

// FutureCall returns the roles of a call on a future receiver, and
// whether a pack says they differ from Call's.
func (m *Model) FutureCall(name string) (Role, bool) {
	return lookup(m.onFutures, name)
}

// Layout returns what a call does to tensor layout, if a pack says.
func (m *Model) Layout(name string) (LayoutOp, bool) {
	return lookup(m.layout, name)
}

// MemoryFormat returns what a memory-format name (qualified or not) makes
// of a layout call's result, if a pack names it.
func (m *Model) MemoryFormat(name string) (string, bool) {
	return lookup(m.formats, name)
}

// IsOwner reports whether a type name (without template arguments) owns
// device memory according to a pack.
func (m *Model) IsOwner(typ string) bool { _, ok := lookup(m.owners, typ); return ok }

// IsFuture reports whether a type name is a future or event: named by a
// pack, or shaped like one (ends in Future, Event, Promise or Awaitable).
func (m *Model) IsFuture(typ string) bool {
	if _, ok := lookup(m.futures, typ); ok {
		return true
	}
	base := typ
	if i := strings.LastIndex(base, "::"); i >= 0 {
		base = base[i+2:]
	}
	for _, suffix := range []string{"Future", "Event", "Awaitable"} {
		if strings.HasSuffix(base, suffix) {
			return true
		}
	}
	return false
}

// IsContainer reports whether a template name is a container.
func (m *Model) IsContainer(typ string) bool { _, ok := lookup(m.containers, typ); return ok }

// IsSmartPtr reports whether a template name is an owning smart pointer.
func (m *Model) IsSmartPtr(typ string) bool { _, ok := lookup(m.smart, typ); return ok }

// IsHandle reports whether copies of a type share one buffer. Only a type
// written without template arguments matches (MLX's array, not
// std::array<T, N>).
func (m *Model) IsHandle(typ string) bool {
	if strings.Contains(typ, "<") {
		return false
	}
	_, ok := lookup(m.handles, strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(typ), "const ")))
	return ok
}

// IsBorrowed reports whether a function is handed values of the type only
// for the duration of the call.
func (m *Model) IsBorrowed(typ string) bool { _, ok := lookup(m.borrowed, typ); return ok }

// IsTensor reports whether a type is a framework tensor.
func (m *Model) IsTensor(typ string) bool { _, ok := lookup(m.tensors, typ); return ok }

// IsView reports whether a class type refers to memory it does not own.
func (m *Model) IsView(typ string) bool { _, ok := lookup(m.views, typ); return ok }

// IsListView reports whether a view type (without template arguments)
// views the backing array of a braced list it is initialised from (see
// Pack.ListViews).
func (m *Model) IsListView(typ string) bool {
	if m == nil {
		return false
	}
	_, ok := lookup(m.listViews, typ)
	return ok
}

// Counted says a declared type (as written: "MTL::Buffer*", "const
// NS::String") is of a counted namespace.
func (m *Model) Counted(typ string) bool {
	if m == nil {
		return false
	}
	t := strings.TrimPrefix(strings.TrimSpace(typ), "const ")
	t = strings.TrimPrefix(t, "::")
	ns, _, ok := strings.Cut(t, "::")
	return ok && m.counted[ns]
}

// IsStream reports whether a type is a stream, queue or device state
// (work on it runs behind the host).
func (m *Model) IsStream(typ string) bool { _, ok := lookup(m.streams, typ); return ok }

// IsStreamGuard reports whether a type makes a stream current while it lives.
func (m *Model) IsStreamGuard(typ string) bool { _, ok := lookup(m.guards, typ); return ok }

// IsGILObject reports whether releasing a value of the type may need the
// interpreter lock.
func (m *Model) IsGILObject(typ string) bool { _, ok := lookup(m.gilObjects, typ); return ok }

// IsWork reports whether a type stands for pending work that callers wait
// on: a consumer named by a pack, or a type named like one (ends in Work).
func (m *Model) IsWork(typ string) bool {
	if m.IsConsumer(typ) {
		return true
	}
	if i := strings.LastIndex(typ, "::"); i >= 0 {
		typ = typ[i+2:]
	}
	return strings.HasSuffix(typ, "Work")
}

// IsConsumer reports whether a type takes over futures and holds.
func (m *Model) IsConsumer(typ string) bool { _, ok := lookup(m.consumers, typ); return ok }

// IsHoldName reports whether a variable name says it keeps things alive:
// one of its words (split at '_' and case changes) is a hold word.
func (m *Model) IsHoldName(name string) bool {
	for _, w := range words(name) {
		if _, ok := slices.BinarySearch(m.holdWords, w); ok {
			return true
		}
	}
	return false
}

// IsDeferName reports whether a call's name says it may run a callable
// argument after it returns: its first or last word (split as IsHoldName
// does) is a defer word. Only the name says so; the rules treat what
// follows from it as depending on the unseen callee.
func (m *Model) IsDeferName(name string) bool {
	if i := strings.LastIndex(name, "::"); i >= 0 {
		name = name[i+2:]
	}
	if i := strings.LastIndexAny(name, ".>"); i >= 0 {
		name = name[i+1:]
	}
	ws := words(name)
	if len(ws) == 0 {
		return false
	}
	for _, w := range []string{ws[0], ws[len(ws)-1]} {
		if _, ok := slices.BinarySearch(m.deferWords, w); ok {
			return true
		}
	}
	return false
}

// words splits snake_case and camelCase names into lower-case words.
func words(name string) []string {
	var out []string
	start := 0
	flush := func(end int) {
		if end > start {
			out = append(out, strings.ToLower(name[start:end]))
		}
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		switch {
		case c == '_':
			flush(i)
			start = i + 1
		case c >= 'A' && c <= 'Z' && i > start && !(name[i-1] >= 'A' && name[i-1] <= 'Z'):
			flush(i)
			start = i
		}
	}
	flush(len(name))
	return out
}
