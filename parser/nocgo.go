//go:build !cgo

package parser

// holdfast parses with tree-sitter, which is C: it must be built with cgo
// (CGO_ENABLED=1, the default where a C compiler is installed) and a C
// compiler such as gcc or clang. Without cgo the build stops here, on the
// undefined name below, which says so.
const _ = holdfast_needs_cgo__build_with_CGO_ENABLED_1_and_a_C_compiler
