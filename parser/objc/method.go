package objc

var (
	idText    = []byte("id")
	voidText  = []byte("void")
	lparText  = []byte("(")
	rparText  = []byte(")")
	commaText = []byte(",")
)

// methodParam is one "keyword:(Type)name" of a method header: typ is the
// index of the '(' of the type, or -1 when the type is omitted.
type methodParam struct{ typ, name int }

// method rewrites the Objective-C method definition or declaration whose
// '-' or '+' is token i, at the top level of an @implementation, and returns
// the index of the last token it consumed. A definition gets a C++ function
// header over the same bytes; a declaration is blanked.
func (r *rewriter) method(i int) int {
	if r.depth[i] != r.implDepth {
		return i
	}
	p := i - 1
	if !(p < 0 || p == r.implHeaderEnd || r.isP(p, ";") || (r.isP(p, "}") && r.match[p] >= 0)) {
		return i
	}
	if !r.isP(i+1, "(") && !r.isW(i+1) {
		return i
	}
	end := -1
	for k := i + 1; k < len(r.toks); {
		if r.isP(k, "{") {
			if r.match[k] > k {
				end = k
			}
			break
		}
		if r.isP(k, ";") {
			end = k
			break
		}
		if r.opener(k) {
			k = r.match[k] + 1
			continue
		}
		if r.closer(k) || r.isP(k, "@") {
			break
		}
		k++
	}
	if end < 0 {
		return i
	}
	if r.isP(end, ";") {
		if !r.isP(end+1, "{") || r.match[end+1] <= end+1 {
			r.blankToks(i, end)
			return end
		}
		// "- (void)run; { … }": the ';' is allowed before a body.
		end++
	}
	lo, hi := r.toks[i].start, r.toks[end].start
	ps, name := r.methodPieces(i, end)
	if ps == nil || !layout(r.src, r.out, lo, hi, ps) {
		if name < 0 {
			return i
		}
		t := r.toks[name]
		nm := piece{rename(r.src[t.start:t.end]), t.start}
		if !layout(r.src, r.out, lo, hi, []piece{{voidText, lo}, nm, {lparText, t.end}, {rparText, t.end}}) &&
			!layout(r.src, r.out, lo, hi, []piece{nm, {lparText, t.end}, {rparText, t.end}}) {
			return i
		}
	}
	r.done(i, end-1)
	return end - 1
}

// methodPieces lists the pieces of the C++ header for the method header
// tokens [i, end): return type, name, '(', typed parameters, ')'. It also
// returns the name token, or -1. Pieces are nil when the header does not
// have the expected shape.
func (r *rewriter) methodPieces(i, end int) ([]piece, int) {
	k := i + 1
	ret := -1
	if r.isP(k, "(") {
		if r.match[k] < 0 || r.match[k] >= end {
			return nil, -1
		}
		ret = k
		k = r.match[k] + 1
	}
	if k >= end || !r.isW(k) {
		return nil, -1
	}
	name := k
	k++
	var params []methodParam
	varargs := -1
	for k < end && r.isP(k, ":") {
		k++
		typ := -1
		if r.isP(k, "(") && r.match[k] > k && r.match[k] < end {
			typ = k
			k = r.match[k] + 1
		}
		if k >= end || !r.isW(k) {
			return nil, name
		}
		params = append(params, methodParam{typ: typ, name: k})
		k++
		if k+1 < end && r.isW(k) && r.isP(k+1, ":") {
			k++
		}
	}
	if len(params) > 0 && k+1 < end && r.isP(k, ",") && r.isP(k+1, "...") {
		varargs = k + 1
	}
	// Anything from k to end (availability macros, attributes) is dropped.
	nt := r.toks[name]
	ps := r.typePieces(ret, r.toks[i].start)
	ps = append(ps, piece{rename(r.src[nt.start:nt.end]), nt.start})
	if len(params) == 0 {
		ps = append(ps, piece{lparText, nt.end}, piece{rparText, nt.end + 1})
		return ps, name
	}
	ps = append(ps, piece{lparText, r.toks[name+1].start})
	for x, pr := range params {
		pn := r.toks[pr.name]
		if x > 0 {
			ps = append(ps, piece{commaText, r.toks[params[x-1].name].end})
		}
		ps = append(ps, r.typePieces(pr.typ, pn.start-3)...)
		ps = append(ps, piece{r.src[pn.start:pn.end], pn.start})
	}
	last := r.toks[params[len(params)-1].name].end
	if varargs >= 0 {
		v := r.toks[varargs]
		ps = append(ps, piece{commaText, last}, piece{r.src[v.start:v.end], v.start})
		last = v.end
	}
	ps = append(ps, piece{rparText, last})
	return ps, name
}

// typePieces lists the pieces of the method type in the parenthesised group
// opened at token g, without Objective-C qualifiers. An omitted type, or
// one C++ cannot spell the same way (block types), becomes id.
func (r *rewriter) typePieces(g, pref int) []piece {
	if g < 0 {
		return []piece{{idText, pref}}
	}
	m := r.match[g]
	var ps []piece
	for k := g + 1; k < m; k++ {
		t := r.toks[k]
		w := r.src[t.start:t.end]
		switch t.kind {
		case kWord:
			if methodTypeWords[string(w)] || blankWords[string(w)] {
				continue
			}
		case kString, kChar:
			return []piece{{idText, r.toks[g].start}}
		case kPunct:
			switch string(w) {
			case "^", "@", "[", "]", "{", "}", ";":
				return []piece{{idText, r.toks[g].start}}
			}
		}
		ps = append(ps, piece{w, t.start})
	}
	if len(ps) == 0 {
		return []piece{{idText, r.toks[g].start}}
	}
	return ps
}
