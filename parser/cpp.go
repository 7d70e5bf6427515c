//go:build cgo

package parser

import (
	"unsafe"

	tree_sitter_cpp "github.com/tree-sitter/tree-sitter-cpp/bindings/go"
)

func cppLanguage() unsafe.Pointer { return tree_sitter_cpp.Language() }
