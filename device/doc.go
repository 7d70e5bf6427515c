// Package device is a deterministic simulated accelerator as a small Go
// DSL. docs/device-model.md describes its semantics (§1–§7: state,
// allocators, free policies, operations, ordering, schedules, faults); the
// comments here cite its sections.
//
// A Scenario is a program. The host thread runs it in program order; its
// actions allocate device and host memory, take and drop references on host
// objects, enqueue operations on streams, record and wait on events, set and
// await futures, register callbacks and create views and materialised
// copies. Callback bodies (then_callback, OnReady, host_func) are programs of
// the same kind that run on the runtime callback thread, the driver thread or
// the thread that sets a future.
//
// # State
//
// Host objects carry a reference count and a generation; a raw pointer is an
// (object, generation) pair captured when it is borrowed, and dereferencing
// it after the object died is HOST_UAF. Device memory lives in an arena whose
// shadow tags every 256-byte granule with (alloc_id, gen, version) and the
// value last written there (values are opaque strings such as "0", "P" or a
// canary "0xc0de^id", enough to show clobbered or lost data). Every
// allocation gets a fresh alloc_id; a stream operation captures the
// alloc_id of each buffer it touches when it is enqueued.
//
// Streams are FIFO queues. Each operation runs in two atomic halves: start
// (reads, waits satisfied) and end (writes, future set, holds released);
// other threads may run between them. Events are stream positions. Futures
// set by a device operation are set by the runtime callback thread; OnReady
// callbacks run on the setting thread, or inline when the future is already
// ready, and a thread awaiting the future wakes after the callbacks that
// were registered before it (waiters run in registration order). then_callback bodies run on the callback thread once the stream
// reaches the point; host_func bodies run on the driver thread and block
// their stream until they return.
//
// # Allocators
//
// BFC (best fit by (size, addr) over 21 bins, split rule, immediate
// coalescing, no knowledge of streams), a PyTorch-style caching allocator
// (per-stream pools, record_stream, events on free, process_events on
// malloc), a stream-ordered allocator (cudaFreeAsync) and a Metal buffer pool
// (size window min(2n, n+32 KiB), immediate recycle, LRU eviction). Host
// buffers come from a LIFO heap.
//
// An allocation is defined on the device timeline either at host time or at
// the tail of its allocation stream (kComputeSynchronized, caching and
// stream-ordered allocators): until the stream reaches that point the
// granules keep the tag of their previous owner, so a stale access that the
// stream order puts before the definition is legal, as the runtime contract
// says. An access through a freed alloc_id is DEV_UAF_REUSED when another
// live allocation has claimed the granule (by its definition or by writing
// it), DEV_UAF_FREED when the granule is free in the allocator.
//
// # Schedules
//
// Witness runs the host until it blocks, then only the happens-before
// closure of what it waits for; victims (the last pending operation on a
// stream that holds a freed alloc_id) run as late as legal, after every other
// enabled stream half, callbacks at the latest legal moment; at the end the
// device drains by stream id then enqueue order. Eager completes all device
// work after every host step. Explore visits every happens-before-consistent
// interleaving of half-steps, with state caching, up to a cap (default 1e5
// states) and says when the cap was hit.
//
// Races are found with vector clocks over the host, callback, driver and
// stream threads: two accesses to the same allocation that overlap, are not
// ordered by happens-before and include a write are RACE, ALIAS_MUTATION when
// one of them is an in-place mutation, STALE_READ when the read ran first.
// LOST_WRITE is a read of a base region while a materialised copy meant to
// alias it holds writes that were never copied back.
//
// # Limits
//
// Values are per granule run, not per element. There is no in-flight
// semaphore bounding how far the host runs ahead. The exploration reduces
// the state space by caching visited states only, not by sleep sets, so the
// cap is reached sooner than with full partial-order reduction. Callbacks
// cannot fail to enqueue (the PR979 fallback to an immediate free is not
// modelled). Metal hazard tracking per MTLBuffer object is not modelled:
// Metal scenarios use one stream per command queue.
//
// Everything is deterministic: no goroutines, no maps iterated for output,
// and the same scenario gives the same trace byte for byte.
package device
