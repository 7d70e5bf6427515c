package objc

// sendPart is one "keyword:" of a message send; kw is -1 for an empty
// keyword (a bare ':').
type sendPart struct{ kw, colon int }

// prevAllowsSend reports whether a '[' at token i stands where an
// expression starts, rather than after an operand (subscript) or a
// declarator (array bound).
func (r *rewriter) prevAllowsSend(i int) bool {
	p := i - 1
	if p < 0 {
		return true
	}
	if r.lineBreakBetween(p, i) && (r.isW(p) || r.isP(p, ")")) {
		// A statement-like macro call without ';' ends the line before.
		return true
	}
	switch r.toks[p].kind {
	case kNumber, kString, kChar:
		return false
	case kWord:
		if r.flags[p]&fForIn != 0 {
			return true
		}
		return sendAfterWords[string(r.text(p))]
	}
	switch string(r.text(p)) {
	case "]":
		return false
	case ")":
		o := r.match[p]
		if o <= 0 {
			return true
		}
		q := o - 1
		if r.isW(q) {
			w := r.text(q)
			if stmtWords[string(w)] {
				return true
			}
			if callLikeWords[string(w)] {
				return false
			}
		}
		// "f(x)[…]" subscripts a call, "(*p)[…]" a parenthesised
		// operand; "(T*)[…]" casts a send.
		return !r.endsExpr(q) && r.typeLike(o, p)
	}
	return true
}

// typeLike reports whether the tokens strictly between o and c could spell
// a type, as in a cast: names, "::", template arguments, '*' and '&'.
func (r *rewriter) typeLike(o, c int) bool {
	if c <= o+1 || !(r.isW(o+1) || r.isP(o+1, "::")) {
		return false
	}
	for k := o + 1; k < c; k++ {
		if r.isW(k) {
			continue
		}
		if r.isP(k, "(") && r.match[k] > k && r.match[k] < c {
			// A nested group, as in "void (*)(int)", is taken as part
			// of the type without looking inside.
			k = r.match[k]
			continue
		}
		switch string(r.text(k)) {
		case "::", "<", ">", ",", "*", "&", "^":
			continue
		}
		return false
	}
	return true
}

// canStartExpr reports whether token k can be the first token of a
// receiver expression.
func (r *rewriter) canStartExpr(k int) bool {
	switch r.toks[k].kind {
	case kWord, kNumber, kString, kChar:
		return true
	}
	switch string(r.text(k)) {
	case "(", "[", "@", "*", "&", "!", "~", "-", "+", "^", "::":
		return true
	}
	return false
}

// send rewrites the message send whose '[' is token i, if it is one.
func (r *rewriter) send(i int) {
	j := r.match[i]
	if j <= i+2 || !r.prevAllowsSend(i) || !r.canStartExpr(i+1) {
		return
	}
	// Find the first selector word: a word right after a complete
	// receiver expression, followed by ':' or ']'.
	sel := -1
	prev := -1
	for k := i + 1; k < j; {
		if prev >= 0 && r.toks[k].kind == kWord && r.endsExpr(prev) && (k+1 == j || r.isP(k+1, ":")) {
			sel = k
			break
		}
		if r.opener(k) {
			if r.match[k] > j {
				return
			}
			prev = r.match[k]
			k = r.match[k] + 1
			continue
		}
		if r.closer(k) {
			return
		}
		prev = k
		k++
	}
	if sel < 0 {
		return
	}
	var parts []sendPart
	if sel+1 != j {
		parts = append(parts, sendPart{kw: sel, colon: sel + 1})
		tern := 0
		prev = sel + 1
		for k := sel + 2; k < j; {
			if r.opener(k) {
				if r.match[k] > j {
					return
				}
				prev = r.match[k]
				k = r.match[k] + 1
				continue
			}
			if r.closer(k) {
				return
			}
			switch {
			case r.isP(k, "?"):
				tern++
			case r.isP(k, ":") && tern > 0:
				tern--
			case r.isP(k, ":"):
				last := parts[len(parts)-1].colon
				switch {
				case prev == k-1 && r.isW(prev) && prev-1 > last && r.endsExpr(prev-1):
					parts = append(parts, sendPart{kw: prev, colon: k})
				case prev > last && r.endsExpr(prev):
					parts = append(parts, sendPart{kw: -1, colon: k})
				default:
					return
				}
			}
			prev = k
			k++
		}
		if prev <= parts[len(parts)-1].colon {
			return // "[x foo:]"
		}
	}
	// The '.' goes in the gap between receiver and selector.
	recvEnd := r.toks[sel-1].end
	selTok := r.toks[sel]
	var dot int
	stolen := false
	switch {
	case selTok.start-1 >= recvEnd && isBlankByte(r.src[selTok.start-1]):
		dot = selTok.start - 1
	case recvEnd < selTok.start && isBlankByte(r.src[recvEnd]):
		dot = recvEnd
	case selTok.end-selTok.start >= 2:
		dot = selTok.start
		stolen = true
	default:
		return
	}
	out := r.out
	if !stolen {
		copy(out[selTok.start:], rename(r.src[selTok.start:selTok.end]))
	}
	out[dot] = '.'
	r.done(sel, sel)
	r.done(i, i)
	r.done(j, j)
	if parts == nil {
		out[r.toks[i].start] = '('
		out[r.toks[j].start] = ')'
		return
	}
	out[r.toks[i].start] = ' '
	out[r.toks[j].start] = ')'
	out[r.toks[parts[0].colon].start] = '('
	r.done(parts[0].colon, parts[0].colon)
	for _, p := range parts[1:] {
		first := p.colon
		if p.kw >= 0 {
			first = p.kw
		}
		argEnd := r.toks[first-1].end
		fs := r.toks[first].start
		r.blankToks(first, p.colon)
		switch {
		case argEnd < fs && isBlankByte(r.src[argEnd]):
			out[argEnd] = ','
		default:
			out[fs] = ','
		}
	}
}

// caret handles a '^' token: a block literal becomes a lambda and a block
// pointer declarator "(^name)" becomes "(*name)". XOR is left alone.
func (r *rewriter) caret(i int) {
	c := r.toks[i].start
	p := i - 1
	if r.isWord(p, "operator") {
		return
	}
	if r.isP(p, "(") {
		k := i + 1
		for k < len(r.toks) && k-i <= 4 && r.isW(k) {
			k++
		}
		if r.isP(k, ")") {
			r.out[c] = '*'
			return
		}
	}
	if r.endsExpr(p) {
		return
	}
	// Optional return type, then optional parameters, then the body.
	k := i + 1
	angle := 0
scan:
	for k < len(r.toks) && k-i <= 64 {
		switch {
		case r.isW(k), r.isP(k, "*"), r.isP(k, "&"), r.isP(k, "::"):
		case r.isP(k, "<"):
			angle++
		case r.isP(k, ">") && angle > 0:
			angle--
		case r.isP(k, ",") && angle > 0:
		default:
			break scan
		}
		k++
	}
	hasRet := k > i+1
	params, body := -1, k
	switch {
	case r.isP(k, "(") && r.match[k] > k && r.isP(r.match[k]+1, "{") && r.match[r.match[k]+1] > 0:
		params, body = k, r.match[k]+1
	case r.isP(k, "{") && r.match[k] > k:
	default:
		return
	}
	if hasRet {
		r.blankToks(i+1, k-1)
	}
	out, src := r.out, r.src
	n := len(out)
	switch {
	case c >= 1 && isBlankByte(out[c-1]):
		out[c-1], out[c] = '[', ']'
	case c+1 < n && isBlankByte(out[c+1]):
		out[c], out[c+1] = '[', ']'
	case params >= 0 && r.shiftParams(i, params, body):
	case params < 0 && r.toks[body].start == c+1 && r.braceSlot(body) >= 0:
		// "^{" followed by a blank: the brace moves onto it.
		out[c], out[c+1], out[r.braceSlot(body)] = '[', ']', '{'
	case r.isP(i-1, "(") && r.toks[i-1].end == c && r.match[i-1] > i && r.isP(r.match[i-1]-1, "}") &&
		r.match[r.match[i-1]-1] == body && !r.endsExpr(i-2):
		// "(^(T x){…})": the grouping parentheses make room for "[]".
		out[c-1], out[c] = '[', ']'
		out[r.toks[r.match[i-1]].start] = ' '
		r.done(r.match[i-1], r.match[i-1])
	case c >= 2 && src[c-1] == ':' && out[c-1] == '(' && out[c-2] == src[c-2] &&
		(isBlankByte(src[c-2]) || (c >= 3 && isWordByte(src[c-2]) && isWordByte(src[c-3]) && out[c-3] == src[c-3])):
		// First argument of a send: the selector's last letter or the
		// blank before its ':' opens the call.
		out[c-2], out[c-1], out[c] = '(', '[', ']'
	default:
		out[c] = ' '
	}
}

// braceSlot returns the offset of the first blank byte in the whitespace
// that follows the '{' token b (possibly past line breaks), where the brace
// can move to free its own byte, or -1 if there is none.
func (r *rewriter) braceSlot(b int) int {
	for x := r.toks[b].end; x < len(r.src); x++ {
		c := r.src[x]
		if isBlankByte(c) {
			return x
		}
		if !isNewline(c) {
			break
		}
	}
	return -1
}

// shiftParams turns "^(params) {" into "[](params){" by moving the
// parameter list one byte right, over the blank before '{'. When ')' and
// '{' touch, the brace itself moves onto the next blank after it. It
// reports false, changing nothing, when there is no such blank, the list
// spans lines or it holds anything but a plain declaration.
func (r *rewriter) shiftParams(i, params, body int) bool {
	m := r.match[params]
	c := r.toks[i].start
	ps, pe := r.toks[params].start, r.toks[m].start
	if ps != c+1 || pe+1 >= len(r.src) {
		return false
	}
	slot := -1
	if !isBlankByte(r.src[pe+1]) {
		if r.toks[body].start != pe+1 {
			return false
		}
		if slot = r.braceSlot(body); slot < 0 {
			return false
		}
	}
	for x := ps; x <= pe; x++ {
		if isNewline(r.src[x]) {
			return false
		}
	}
	for k := params + 1; k < m; k++ {
		switch r.toks[k].kind {
		case kWord, kNumber:
			continue
		case kPunct:
			switch string(r.text(k)) {
			case "*", "&", "<", ">", ",", "::", "(", ")", "...", ".":
				continue
			case "^":
				if r.isP(k-1, "(") {
					continue
				}
			}
		}
		return false
	}
	out := r.out
	copy(out[ps+1:pe+2], r.src[ps:pe+1])
	for k := params + 1; k < m; k++ {
		t := r.toks[k]
		w := string(r.text(k))
		switch {
		case t.kind == kWord && (blankWords[w] || (nullWords[w] && r.isW(k+1))):
			for x := t.start + 1; x <= t.end; x++ {
				out[x] = ' '
			}
		case w == "^":
			out[t.start+1] = '*'
		}
	}
	out[c], out[ps] = '[', ']'
	if slot >= 0 {
		out[slot] = '{'
	}
	r.done(params, m)
	return true
}

// lineBreakBetween reports whether a line break separates tokens a and b.
func (r *rewriter) lineBreakBetween(a, b int) bool {
	for x := r.toks[a].end; x < r.toks[b].start; x++ {
		if r.src[x] == '\n' {
			return true
		}
	}
	return false
}
