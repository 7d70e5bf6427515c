package objc

// piece is one run of text to place in a rewritten region, with the offset
// it would ideally keep (its original offset, for text copied from the
// source).
type piece struct {
	text []byte
	pref int
}

// needSep reports whether two pieces would fuse into a different token when
// written next to each other.
func needSep(a, b []byte) bool {
	if len(a) == 0 || len(b) == 0 {
		return false
	}
	x, y := a[len(a)-1], b[0]
	if isWordByte(x) && isWordByte(y) {
		return true
	}
	switch {
	case x == y && (x == '<' || x == '>' || x == '-' || x == '+' || x == '&' || x == '|' || x == ':' || x == '=' || x == '.'):
		return true
	case x == '-' && y == '>', x == '/' && (y == '/' || y == '*'), x == '*' && y == '/':
		return true
	}
	return false
}

// layout rewrites out[lo:hi] as the pieces in order, separated where needed
// and otherwise filled with spaces. Line breaks in the region keep their
// offsets and no piece straddles one. Each piece goes as close to its
// preferred offset as the pieces after it allow. It reports false, leaving
// out untouched, when the pieces do not fit. Cost is linear in the region
// size plus the total piece length.
func layout(src, out []byte, lo, hi int, ps []piece) bool {
	n := len(ps)
	if n == 0 || lo < 0 || hi > len(src) || hi <= lo {
		return false
	}
	size := hi - lo
	// prevNL[x] is the last line-break offset <= lo+x, or -1;
	// nextNL[x] is the first line-break offset >= lo+x, or hi.
	prevNL := make([]int, size)
	nextNL := make([]int, size)
	last := -1
	for x := 0; x < size; x++ {
		if isNewline(src[lo+x]) {
			last = lo + x
		}
		prevNL[x] = last
	}
	next := hi
	for x := size - 1; x >= 0; x-- {
		if isNewline(src[lo+x]) {
			next = lo + x
		}
		nextNL[x] = next
	}
	sep := make([]int, n)
	for k := 0; k+1 < n; k++ {
		if needSep(ps[k].text, ps[k+1].text) {
			sep[k] = 1
		}
	}
	// Backward pass: the latest line-break-free offset of each piece that
	// still leaves room for the pieces after it.
	latest := make([]int, n)
	limit := hi
	for k := n - 1; k >= 0; k-- {
		l := len(ps[k].text)
		if l == 0 {
			return false
		}
		x := limit - l
		for {
			if x < lo {
				return false
			}
			if q := prevNL[x+l-1-lo]; q >= x {
				x = q - l
				continue
			}
			break
		}
		latest[k] = x
		if k > 0 {
			limit = x - sep[k-1]
		}
	}
	// Forward pass: each piece at its preferred offset, clamped between
	// the end of the previous piece and its latest offset.
	pos := make([]int, n)
	cur := lo
	for k := 0; k < n; k++ {
		l := len(ps[k].text)
		p := ps[k].pref
		if p < cur {
			p = cur
		}
		if p > latest[k] {
			p = latest[k]
		}
		for {
			if q := nextNL[p-lo]; q < p+l {
				p = q + 1
				continue
			}
			break
		}
		pos[k] = p
		cur = p + l + sep[k]
	}
	for x := lo; x < hi; x++ {
		if !isNewline(src[x]) {
			out[x] = ' '
		}
	}
	for k, p := range ps {
		copy(out[pos[k]:], p.text)
	}
	return true
}
