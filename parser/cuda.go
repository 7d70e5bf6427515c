//go:build cgo

package parser

import "bytes"

// cudaQualifiers are CUDA/HIP declaration specifiers the C++ grammar does
// not know. They say where code runs, nothing about lifetimes, so they are
// blanked.
var cudaQualifiers = [][]byte{
	[]byte("__global__"), []byte("__device__"), []byte("__host__"), []byte("__forceinline__"),
	[]byte("__noinline__"),
	[]byte("__restrict__"), []byte("__grid_constant__"),
}

// cudaStorage are the memory-space specifiers of variables: a __shared__
// variable lives as long as its thread block, a __constant__ or
// __managed__ one as long as the program (CUDA C++ Programming Guide,
// "Variable Memory Space Specifiers"), not as long as the call that
// declares it. They are read as static, written over their own bytes.
var cudaStorage = [][]byte{[]byte("__shared__"), []byte("__constant__"), []byte("__managed__")}

// specifiersWithArgs are CUDA specifiers written with an argument list,
// blanked with it: __launch_bounds__(maxThreads, ...) on a kernel, and
// __align__(n), the alignment of a variable or a type (CUDA C++
// Programming Guide, "Launch Bounds" and "Size and Alignment
// Requirement"). Left in, __align__(sizeof(T)) reads as a declarator and
// splits the declaration it qualifies in two, the second without its
// storage class.
var specifiersWithArgs = [][]byte{[]byte("__launch_bounds__"), []byte("__align__")}

// skipBlanks is the first offset from i that is not white space.
func skipBlanks(src []byte, i int) int {
	for i < len(src) && (src[i] == ' ' || src[i] == '\t' || src[i] == '\n' || src[i] == '\r') {
		i++
	}
	return i
}

// neutraliseCUDA rewrites CUDA syntax in place, without moving a byte:
// qualifiers and __launch_bounds__(...) become spaces, and a kernel launch
// `k<<<grid, block, smem, stream>>>(args)` becomes
// `k(  grid, block, smem, stream)  (args)`, a call of a call, so the launch
// configuration (with its stream) and the arguments stay visible as
// expressions. launches says whether to rewrite <<<...>>>: in every
// source, since HIP and CUDA code is compiled from .cpp and .cc files too
// (hipcc, nvcc -x cu), and <<< followed by >>> and an argument list is
// no other C++. src is copied on the first change.
func neutraliseCUDA(src []byte, launches bool) []byte {
	if !bytes.Contains(src, []byte("__")) && (!launches || !bytes.Contains(src, []byte("<<<"))) {
		return src
	}
	out := src
	copied := false
	blank := func(from, to int) {
		if !copied {
			out = bytes.Clone(out)
			copied = true
		}
		for i := from; i < to; i++ {
			if out[i] != '\n' && out[i] != '\r' {
				out[i] = ' '
			}
		}
	}
	for _, w := range []struct {
		words [][]byte
		as    string // written over the word's bytes after blanking it
	}{{cudaQualifiers, ""}, {cudaStorage, "static"}} {
		for _, q := range w.words {
			for from := 0; ; {
				i := bytes.Index(out[from:], q)
				if i < 0 {
					break
				}
				i += from
				from = i + len(q)
				if i > 0 && isIdentByte(out[i-1]) || from < len(out) && isIdentByte(out[from]) {
					continue
				}
				blank(i, from)
				copy(out[i:], w.as)
			}
		}
	}
	for _, spec := range specifiersWithArgs {
		for from := 0; ; {
			i := bytes.Index(out[from:], spec)
			if i < 0 {
				break
			}
			i += from
			from = i + len(spec)
			if i > 0 && isIdentByte(out[i-1]) || from < len(out) && isIdentByte(out[from]) {
				continue
			}
			j := from
			for j < len(out) && (out[j] == ' ' || out[j] == '\t') {
				j++
			}
			if j < len(out) && out[j] == '(' {
				if _, close := macroArgs(out, j); close > 0 {
					blank(i, close+1)
					from = close + 1
					continue
				}
			}
			blank(i, from)
		}
	}
	if !launches {
		return out
	}
	for from := 0; ; {
		i := bytes.Index(out[from:], []byte("<<<"))
		if i < 0 {
			break
		}
		i += from
		from = i + 3
		const limit = 4096
		j := bytes.Index(out[from:min(len(out), from+limit)], []byte(">>>"))
		if j < 0 || bytes.IndexByte(out[from:from+j], ';') >= 0 {
			continue
		}
		j += from
		if k := skipBlanks(out, j+3); k >= len(out) || out[k] != '(' {
			// Not a launch: its arguments follow the configuration.
			continue
		}
		if !copied {
			out = bytes.Clone(out)
			copied = true
		}
		copy(out[i:], "(  ")
		copy(out[j:], ")  ")
		from = j + 3
	}
	return out
}
