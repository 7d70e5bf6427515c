//go:build cgo

package parser

/*
#include <stdint.h>
#include <stdlib.h>
#include <stdbool.h>

// The few tree-sitter declarations the flattener needs, matching
// go-tree-sitter v0.25.0's tree_sitter/api.h. The functions are the ones
// that module's cgo package compiles into the binary.
typedef struct TSTree TSTree;
typedef struct TSParser TSParser;
TSTree *ts_parser_parse_string(TSParser *self, const TSTree *old_tree, const char *string, uint32_t length);
void ts_tree_delete(TSTree *self);
typedef struct TSPoint { uint32_t row; uint32_t column; } TSPoint;
typedef struct TSInputEdit {
	uint32_t start_byte, old_end_byte, new_end_byte;
	TSPoint start_point, old_end_point, new_end_point;
} TSInputEdit;
void ts_tree_edit(TSTree *self, const TSInputEdit *edit);
typedef struct TSNode { uint32_t context[4]; const void *id; const TSTree *tree; } TSNode;
typedef struct TSTreeCursor { const void *tree; const void *id; uint32_t context[3]; } TSTreeCursor;
TSNode ts_tree_root_node(const TSTree *self);
uint32_t ts_node_descendant_count(TSNode self);
uint16_t ts_node_symbol(TSNode self);
uint32_t ts_node_start_byte(TSNode self);
uint32_t ts_node_end_byte(TSNode self);
bool ts_node_is_named(TSNode self);
bool ts_node_is_missing(TSNode self);
bool ts_node_is_error(TSNode self);
TSTreeCursor ts_tree_cursor_new(TSNode node);
void ts_tree_cursor_delete(TSTreeCursor *self);
TSNode ts_tree_cursor_current_node(const TSTreeCursor *self);
uint16_t ts_tree_cursor_current_field_id(const TSTreeCursor *self);
bool ts_tree_cursor_goto_first_child(TSTreeCursor *self);
bool ts_tree_cursor_goto_next_sibling(TSTreeCursor *self);
bool ts_tree_cursor_goto_parent(TSTreeCursor *self);
void ts_set_allocator(void *(*a)(size_t), void *(*b)(size_t, size_t), void *(*c)(void *, size_t), void (*d)(void *));

// hf_node mirrors parser.rawNode: keep the two in step.
typedef struct {
	uint32_t start, end;
	int32_t parent, next;
	uint16_t sym, field;
	uint8_t flags;
	uint8_t pad[3];
} hf_node;

enum { HF_NAMED = 1, HF_ERROR = 2, HF_MISSING = 4 };

static uint32_t hf_count(void *tree) {
	return ts_node_descendant_count(ts_tree_root_node((const TSTree *)tree));
}

// hf_flatten writes the tree in pre-order into out (cap entries) with one
// cursor walk and no recursion, so depth is bounded only by memory. It
// returns the number of nodes written, or -1 when memory runs out.
static int64_t hf_flatten(void *tree, hf_node *out, uint32_t cap) {
	TSTreeCursor c = ts_tree_cursor_new(ts_tree_root_node((const TSTree *)tree));
	uint32_t depth_cap = 256, depth = 0, n = 0;
	int32_t *stack = malloc(sizeof(int32_t) * depth_cap);  // index of the node at each depth
	int32_t *last = malloc(sizeof(int32_t) * depth_cap);   // last child seen at each depth
	if (!stack || !last) { free(stack); free(last); ts_tree_cursor_delete(&c); return -1; }
	last[0] = -1;
	for (;;) {
		if (n < cap) {
			TSNode node = ts_tree_cursor_current_node(&c);
			hf_node *o = &out[n];
			o->start = ts_node_start_byte(node);
			o->end = ts_node_end_byte(node);
			o->parent = depth > 0 ? stack[depth - 1] : -1;
			o->next = -1;
			o->sym = ts_node_symbol(node);
			o->field = ts_tree_cursor_current_field_id(&c);
			o->flags = (ts_node_is_named(node) ? HF_NAMED : 0) |
			           (ts_node_is_error(node) ? HF_ERROR : 0) |
			           (ts_node_is_missing(node) ? HF_MISSING : 0);
			if (last[depth] >= 0) out[last[depth]].next = (int32_t)n;
			last[depth] = (int32_t)n;
			stack[depth] = (int32_t)n;
		}
		n++;
		if (ts_tree_cursor_goto_first_child(&c)) {
			depth++;
			if (depth >= depth_cap) {
				depth_cap *= 2;
				int32_t *s2 = realloc(stack, sizeof(int32_t) * depth_cap);
				if (s2) stack = s2;
				int32_t *l2 = realloc(last, sizeof(int32_t) * depth_cap);
				if (l2) last = l2;
				if (!s2 || !l2) { free(stack); free(last); ts_tree_cursor_delete(&c); return -1; }
			}
			last[depth] = -1;
			continue;
		}
		for (;;) {
			if (ts_tree_cursor_goto_next_sibling(&c)) break;
			if (!ts_tree_cursor_goto_parent(&c)) {
				free(stack); free(last); ts_tree_cursor_delete(&c);
				return n;
			}
			depth--;
		}
	}
}

// hf_parse parses src with no copy (the binding's reader copies the rest
// of the input at every read) and returns the tree, or NULL when the
// parser's time budget ran out. old, when not NULL, is an edited earlier
// tree of the same text whose unchanged parts are reused.
static void *hf_parse(void *parser, void *old, const char *src, uint32_t len) {
	return ts_parser_parse_string((TSParser *)parser, (const TSTree *)old, src, len);
}

// hf_edit tells tree that the bytes [start, end) were replaced by as many
// bytes with the same line breaks.
static void hf_edit(void *tree, uint32_t start, uint32_t end, uint32_t srow, uint32_t scol, uint32_t erow, uint32_t ecol) {
	TSInputEdit e = {start, end, end, {srow, scol}, {erow, ecol}, {erow, ecol}};
	ts_tree_edit((TSTree *)tree, &e);
}

static void hf_tree_delete(void *tree) { ts_tree_delete((TSTree *)tree); }

static void hf_use_c_allocator(void) { ts_set_allocator(NULL, NULL, NULL, NULL); }
*/
import "C"

import (
	"errors"
	"sync"
	"unsafe"

	sitter "github.com/tree-sitter/go-tree-sitter"
)

// rawNode mirrors hf_node in the cgo preamble.
type rawNode struct {
	Start, End   uint32
	Parent, Next int32
	Sym, Field   uint16
	Flags        uint8
	_            [3]byte
}

const (
	flagNamed   = 1
	flagError   = 2
	flagMissing = 4
)

var useCAllocator = sync.OnceFunc(func() { C.hf_use_c_allocator() })

// treePtr returns the C TSTree behind a go-tree-sitter Tree, and
// parserPtr the TSParser behind a Parser. In v0.25.0 both are structs whose
// only field is that pointer; the parser tests check the flattened tree
// node by node against the binding's own.
func treePtr(t *sitter.Tree) unsafe.Pointer {
	return *(*unsafe.Pointer)(unsafe.Pointer(t))
}

func parserPtr(p *sitter.Parser) unsafe.Pointer {
	return *(*unsafe.Pointer)(unsafe.Pointer(p))
}

// parseFlat parses src with p and returns the flat table. The C tree is
// deleted before it returns. ok is false when the parser gave no tree (its
// time budget ran out).
//
// buf is reused for the table when it is large enough.
func parseFlat(p *sitter.Parser, src []byte, buf []rawNode) (nodes []rawNode, ok bool, err error) {
	tree := parseTree(p, nil, src)
	if tree == nil {
		return nil, false, nil
	}
	defer deleteTree(tree)
	nodes, err = flattenPtr(tree, buf)
	return nodes, true, err
}

// parseTree parses src with p and returns the C tree, which the caller
// deletes, or nil when the time budget ran out. old, when not nil, is an
// earlier tree edited (editTree) to match src.
func parseTree(p *sitter.Parser, old unsafe.Pointer, src []byte) unsafe.Pointer {
	var ptr *C.char
	if len(src) > 0 {
		ptr = (*C.char)(unsafe.Pointer(&src[0]))
	}
	return C.hf_parse(parserPtr(p), old, ptr, C.uint32_t(len(src)))
}

func deleteTree(t unsafe.Pointer) { C.hf_tree_delete(t) }

// editTree tells tree that the byte ranges in edits (sorted, disjoint)
// were rewritten in src without moving a byte or a line break.
func editTree(tree unsafe.Pointer, src []byte, edits [][2]int) {
	row, lineStart, at := 0, 0, 0
	point := func(off int) (C.uint32_t, C.uint32_t) {
		for ; at < off; at++ {
			if src[at] == '\n' {
				row++
				lineStart = at + 1
			}
		}
		return C.uint32_t(row), C.uint32_t(off - lineStart)
	}
	for _, e := range edits {
		sr, sc := point(e[0])
		er, ec := point(e[1])
		C.hf_edit(tree, C.uint32_t(e[0]), C.uint32_t(e[1]), sr, sc, er, ec)
	}
}

// flatten copies a binding Tree into a Go slice in one cgo call.
func flatten(t *sitter.Tree) ([]rawNode, error) {
	return flattenPtr(treePtr(t), nil)
}

func flattenPtr(p unsafe.Pointer, buf []rawNode) ([]rawNode, error) {
	n := uint32(C.hf_count(p))
	var nodes []rawNode
	if uint32(cap(buf)) >= n {
		nodes = buf[:n]
	} else {
		nodes = make([]rawNode, n)
	}
	if n == 0 {
		return nodes, nil
	}
	got := C.hf_flatten(p, (*C.hf_node)(unsafe.Pointer(&nodes[0])), C.uint32_t(n))
	if got < 0 {
		return nil, errors.New("out of memory while flattening the syntax tree")
	}
	if uint32(got) != n {
		return nil, errors.New("syntax tree changed size while flattening")
	}
	return nodes, nil
}
