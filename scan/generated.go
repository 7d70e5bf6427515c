package scan

import (
	"bytes"
	"fmt"
)

// Generated sources are not what holdfast is for: a file that says it is
// generated is rewritten by its generator, and a file that is mostly one
// data initialiser (an embedded binary, a lookup table) holds no buffer
// lifetimes but costs as much to parse as a large library. Both are
// recognised cheaply, from the first kilobytes and one pass over the
// bytes, and skipped unless the user asks for them.

// generatedMarkers are the conventions generators use to say so in a
// file's first lines: Facebook's "@generated", the "DO NOT EDIT" of
// protobuf, flatbuffers, SWIG and most others, and Go's "Code generated".
var generatedMarkers = [][]byte{[]byte("@generated"), []byte("DO NOT EDIT"), []byte("Code generated")}

const (
	markerWindow = 4 << 10  // where a marker is looked for
	dataMinSize  = 32 << 10 // smaller files are cheap whatever they hold
	dataShare    = 0.9      // share of bytes that only data is written with
)

// GeneratedWhy says why src looks generated, or "" when it does not: a
// scan leaves such a file out unless Options.IncludeGenerated.
func GeneratedWhy(src []byte) string {
	head := src[:min(len(src), markerWindow)]
	for _, m := range generatedMarkers {
		if bytes.Contains(head, m) {
			return "says it is generated (" + string(m) + ")"
		}
	}
	if len(src) >= dataMinSize && dataBytes(src) >= dataShare*float64(len(src)) {
		return "is mostly one data initialiser"
	}
	return ""
}

// dataBytes counts the bytes that numeric and string-escape data is
// written with: digits, hex letters and prefixes, integer suffixes,
// separators, braces, quotes, backslashes and white space. Hand-written
// code has about half of its bytes among them; an embedded binary nearly
// all.
func dataBytes(src []byte) float64 {
	var n int
	for _, c := range src {
		if isDataByte[c] {
			n++
		}
	}
	return float64(n)
}

var isDataByte = func() (t [256]bool) {
	for _, c := range []byte("0123456789abcdefABCDEFxXuUlL,{}'\"\\-+. \t\r\n") {
		t[c] = true
	}
	return t
}()

// plural is "1 file", "2 files".
func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

func sayOrSays(n int) string {
	if n == 1 {
		return "it says it is"
	}
	return "they say they are"
}

func haveOrHas(n int) string {
	if n == 1 {
		return "has"
	}
	return "have"
}

func itsOrTheir(n int) string {
	if n == 1 {
		return "its"
	}
	return "their"
}
