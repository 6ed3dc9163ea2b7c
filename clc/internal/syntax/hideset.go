package syntax

// A hide set (C99 6.10.3.4; Prosser's algorithm) is the set of macros a
// token came out of, which must not expand it again. A chain of macros
// (#define D1 D0, #define D2 D1, ...) gives the token at its end the whole
// chain as its hide set, and every step of the expansion looks a name up
// in it, adds one, and for a function-like macro intersects two sets. As
// lists of names those steps cost the set's size: 100,000 chained
// object-like macros took over a minute, 4,000 function-like ones nearly
// two (quadratic and cubic in the chain's length).
//
// Here a hide set is a persistent bit set over the preprocessor's numbering
// of macro names (preprocessor.nameID): a trie of 16-way nodes over 64-bit
// leaves. Looking up and adding a name cost the trie's height (two levels
// hold 16,384 names, five 67 million), sets share the nodes they have in
// common, and union and intersection stop at shared nodes, so that the sets
// of one expansion, which differ by a name or two, combine in a few steps.
// Whatever is left to union and intersection (sets that differ widely) is
// charged to preprocessor.hideWork, a budget that turns a hostile input
// into an error rather than minutes of work. nil is the empty set, and no
// node holds an empty subtree.
type hideSet struct {
	level uint8  // 0: a leaf, whose bits are the names base..base+63
	bits  uint64 // a leaf's names
	kids  *[hideFan]*hideSet
}

const (
	hideFan      = 16
	hideFanBits  = 4
	hideLeafBits = 6
)

// span is the number of names a node of the level covers.
func span(level uint8) int { return 1 << (hideLeafBits + hideFanBits*int(level)) }

// slot is the child of a node of the level (above 0) that holds id.
func slot(level uint8, id int) int {
	return id >> (hideLeafBits + hideFanBits*(int(level)-1)) & (hideFan - 1)
}

func (h *hideSet) has(id int) bool {
	if h == nil || id >= span(h.level) {
		return false
	}
	for h.level > 0 {
		if h = h.kids[slot(h.level, id)]; h == nil {
			return false
		}
	}
	return h.bits>>(id&(1<<hideLeafBits-1))&1 != 0
}

// add returns h with id added; h itself does not change.
func (h *hideSet) add(id int) *hideSet {
	if h.has(id) {
		return h
	}
	if h == nil {
		var level uint8
		for id >= span(level) {
			level++
		}
		return with(nil, level, id)
	}
	for id >= span(h.level) {
		h = lift(h, h.level+1)
	}
	return with(h, h.level, id)
}

// with returns h, a node of the level or nil, with id added.
func with(h *hideSet, level uint8, id int) *hideSet {
	n := &hideSet{level: level}
	if h != nil {
		*n = *h
	}
	if level == 0 {
		n.bits |= 1 << (id & (1<<hideLeafBits - 1))
		return n
	}
	kids := new([hideFan]*hideSet)
	if h != nil {
		*kids = *h.kids
	}
	i := slot(level, id)
	kids[i] = with(kids[i], level-1, id)
	n.kids = kids
	return n
}

// lift returns h as a node of a higher level: the first child of new nodes.
func lift(h *hideSet, level uint8) *hideSet {
	for h.level < level {
		kids := new([hideFan]*hideSet)
		kids[0] = h
		h = &hideSet{level: h.level + 1, kids: kids}
	}
	return h
}

// hideUnion returns a ∪ b, charging each node it visits to *work.
func hideUnion(a, b *hideSet, work *int) *hideSet {
	switch {
	case a == nil || a == b:
		return b
	case b == nil:
		return a
	}
	*work--
	if a.level < b.level {
		a = lift(a, b.level)
	} else if b.level < a.level {
		b = lift(b, a.level)
	}
	if a.level == 0 {
		switch bits := a.bits | b.bits; bits {
		case a.bits:
			return a
		case b.bits:
			return b
		default:
			return &hideSet{bits: bits}
		}
	}
	var kids [hideFan]*hideSet
	for i := range kids {
		kids[i] = hideUnion(a.kids[i], b.kids[i], work)
	}
	switch kids {
	case *a.kids:
		return a
	case *b.kids:
		return b
	}
	return &hideSet{level: a.level, kids: &kids}
}

// hideIntersect returns a ∩ b, charging each node it visits to *work.
func hideIntersect(a, b *hideSet, work *int) *hideSet {
	switch {
	case a == nil || b == nil:
		return nil
	case a == b:
		return a
	}
	*work--
	// The names of the lower set all lie under the first children of the
	// higher one.
	for a.level > b.level {
		if a = a.kids[0]; a == nil {
			return nil
		}
	}
	for b.level > a.level {
		if b = b.kids[0]; b == nil {
			return nil
		}
	}
	if a == b {
		return a
	}
	if a.level == 0 {
		switch bits := a.bits & b.bits; bits {
		case 0:
			return nil
		case a.bits:
			return a
		case b.bits:
			return b
		default:
			return &hideSet{bits: bits}
		}
	}
	var kids [hideFan]*hideSet
	empty := true
	for i := range kids {
		kids[i] = hideIntersect(a.kids[i], b.kids[i], work)
		empty = empty && kids[i] == nil
	}
	switch {
	case empty:
		return nil
	case kids == *a.kids:
		return a
	case kids == *b.kids:
		return b
	}
	return &hideSet{level: a.level, kids: &kids}
}
