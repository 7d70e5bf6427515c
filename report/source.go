package report

import (
	"bytes"
	"unicode"
	"unicode/utf8"

	"github.com/holdfast-dev/holdfast/internal/esc"
)

// sources reads source lines through Options.Source, asking for each file at
// most once per printer call.
type sources struct {
	get   func(string) []byte
	files map[string]*srcFile
}

// srcFile is one file's content with the byte offset of each line's start.
type srcFile struct {
	data  []byte
	lines []int // lines[i] is the offset of line i+1
}

func newSources(get func(string) []byte) *sources {
	return &sources{get: get, files: map[string]*srcFile{}}
}

func (s *sources) file(name string) *srcFile {
	if f, ok := s.files[name]; ok {
		return f
	}
	var f *srcFile
	if s.get != nil && name != "" {
		if data := s.get(name); data != nil {
			f = &srcFile{data: data, lines: []int{0}}
			for i, b := range data {
				if b == '\n' && i+1 < len(data) {
					f.lines = append(f.lines, i+1)
				}
			}
		}
	}
	s.files[name] = f
	return f
}

// line returns the text of the 1-based line n of file, without its line
// break, and whether the source had it.
func (s *sources) line(file string, n int) ([]byte, bool) {
	f := s.file(file)
	if f == nil || n < 1 || n > len(f.lines) {
		return nil, false
	}
	start := f.lines[n-1]
	end := len(f.data)
	if n < len(f.lines) {
		end = f.lines[n]
	}
	l := f.data[start:end]
	l = bytes.TrimSuffix(l, []byte("\n"))
	l = bytes.TrimSuffix(l, []byte("\r"))
	return l, true
}

// text returns the bytes from (line1, col1) up to (line2, col2), byte
// columns, when the source has them.
func (s *sources) text(file string, line1, col1, line2, col2 int) (string, bool) {
	f := s.file(file)
	if f == nil || line1 < 1 || line2 < line1 || line2 > len(f.lines) || col1 < 1 || col2 < 1 {
		return "", false
	}
	a := f.lines[line1-1] + col1 - 1
	b := f.lines[line2-1] + col2 - 1
	if a > len(f.data) || b > len(f.data) || b < a {
		return "", false
	}
	return string(f.data[a:b]), true
}

// lines returns the full text of lines line1 to line2, with the line breaks
// between them, when the source has them.
func (s *sources) lines(file string, line1, line2 int) (string, bool) {
	f := s.file(file)
	if f == nil || line1 < 1 || line2 < line1 || line2 > len(f.lines) {
		return "", false
	}
	last, _ := s.line(file, line2)
	end := f.lines[line2-1] + len(last)
	return string(f.data[f.lines[line1-1]:end]), true
}

// utf16Col converts a 1-based byte column on a line to a 1-based column in
// UTF-16 code units, the unit GitHub code scanning assumes. Without the
// source it returns the byte column unchanged. Past the end of the line each
// byte counts as one unit.
func (s *sources) utf16Col(file string, line, byteCol int) int {
	if byteCol < 1 {
		return byteCol
	}
	text, ok := s.line(file, line)
	if !ok {
		return byteCol
	}
	return utf16Len(text, byteCol-1) + 1
}

// utf16Len counts the UTF-16 code units of the first n bytes of line. An
// invalid byte counts as one unit (it reads as U+FFFD); bytes past the end
// of line count one each.
func utf16Len(line []byte, n int) int {
	units := 0
	if n > len(line) {
		units = n - len(line)
		n = len(line)
	}
	p := line[:n]
	for len(p) > 0 {
		r, size := utf8.DecodeRune(p)
		p = p[size:]
		if r >= 0x10000 {
			units += 2
		} else {
			units++
		}
	}
	return units
}

// tabWidth is the tab stop the text format expands tabs to.
const tabWidth = 8

// render turns a source line into what a terminal should show: tabs
// expanded, control characters and invalid bytes replaced. It also returns,
// for each byte offset 0..len(line), the display column where that byte
// starts, so carets line up whatever the line holds.
func render(line []byte) (string, []int) {
	var b bytes.Buffer
	cols := make([]int, len(line)+1)
	col := 0
	for i := 0; i < len(line); {
		r, size := utf8.DecodeRune(line[i:])
		for k := 0; k < size; k++ {
			cols[i+k] = col
		}
		switch {
		case r == '\t':
			n := tabWidth - col%tabWidth
			b.WriteString("        "[:n])
			col += n
		case r == utf8.RuneError && size == 1, esc.Unsafe(r):
			b.WriteRune(utf8.RuneError)
			col++
		default:
			b.WriteRune(r)
			col += runeWidth(r)
		}
		i += size
	}
	cols[len(line)] = col
	return b.String(), cols
}

// runeWidth is the number of terminal columns r takes: 0 for combining
// marks and zero-width characters, 2 for East Asian wide and fullwidth
// characters and most emoji, 1 otherwise.
func runeWidth(r rune) int {
	switch {
	case r == 0x200b || r == 0x200c || r == 0x200d || r == 0xfeff:
		return 0
	case unicode.In(r, unicode.Mn, unicode.Me):
		return 0
	case r >= 0x1100 && r <= 0x115f,
		r >= 0x2e80 && r <= 0x303e,
		r >= 0x3041 && r <= 0x33ff,
		r >= 0x3400 && r <= 0x4dbf,
		r >= 0x4e00 && r <= 0x9fff,
		r >= 0xa000 && r <= 0xa4cf,
		r >= 0xac00 && r <= 0xd7a3,
		r >= 0xf900 && r <= 0xfaff,
		r >= 0xfe30 && r <= 0xfe4f,
		r >= 0xff00 && r <= 0xff60,
		r >= 0xffe0 && r <= 0xffe6,
		r >= 0x1f300 && r <= 0x1f64f,
		r >= 0x1f900 && r <= 0x1f9ff,
		r >= 0x20000 && r <= 0x3fffd:
		return 2
	}
	return 1
}
