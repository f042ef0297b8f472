package memory

import (
	"slices"
)

// keywords is the inverted index behind [Store.QueryKeywords]: for each
// term, the records whose text holds it and how often.
//
// Postings name records by a number of their own, a kid, rather than by
// slot: deleting a record moves the last slot into its place, and a kid
// lets that move be one assignment instead of a rewrite of every posting
// of the moved record. A removed record's kid is marked dead and its
// postings stay until half of a list is dead; the list is then compacted,
// so that removal costs amortized O(1) per posting and a list never holds
// more dead postings than live ones. A kid is reused once no posting
// names it. Each list is in order of kid as long as no kid is reused, so
// a query mostly reads the per-kid data in order.
type keywords struct {
	ids       map[string]int32 // term -> its list
	lists     []postings
	freeLists []int32
	kids      []kid
	freeKids  []int32
	bySlot    []int32 // the kid of each slot
	total     int64   // the number of terms in the live records' texts
	scratch   []int32 // kill's, reused
}

type postings struct {
	term string
	list []posting
	dead int // postings of dead kids
}

type posting struct {
	kid int32
	tf  int32 // occurrences of the term in the record's text
}

type kid struct {
	slot   int32 // the record's slot, or -1 once it is removed
	length int32 // the number of terms in its text
	refs   int32 // the postings that name it
}

// live returns the number of live postings in the list.
func (p *postings) live() int { return len(p.list) - p.dead }

// index builds the index of the texts of recs, slot i holding kid i, with
// a; it is the index of a batch, built outside the store's lock. It
// collects the postings in the order of the texts, then lays each list
// out in one slab, exactly sized: appending to each list as its terms
// come would touch the tail of a different list at every word.
func (a *analyzer) index(recs []unit) keywords {
	k := keywords{ids: make(map[string]int32), kids: make([]kid, len(recs)), bySlot: make([]int32, len(recs))}
	var all []found     // the postings, in order of kid
	var last []lastSeen // per list, its last posting so far
	for i := range recs {
		id := int32(i)
		k.bySlot[i] = id
		a.analyzeRecord(&recs[i])
		refs := int32(0)
		for t := range a.ends {
			l := listOf(&k, a.term(t))
			if int(l) == len(last) {
				last = append(last, lastSeen{kid: -1})
			}
			if ls := &last[l]; ls.kid == id {
				all[ls.at].tf++
				continue
			}
			last[l] = lastSeen{kid: id, at: int32(len(all))}
			all = append(all, found{list: l, posting: posting{kid: id, tf: 1}})
			refs++
		}
		k.total += int64(len(a.ends))
		k.kids[i] = kid{slot: id, length: int32(len(a.ends)), refs: refs}
	}
	k.layOut(all)
	return k
}

// found is a posting of a batch and its list.
type found struct {
	list int32
	posting
}

// lastSeen is the last posting of a list while a batch is indexed: its
// kid and where it is among the postings found.
type lastSeen struct{ kid, at int32 }

// layOut gives each list its postings among all, in order, in one slab
// in which each list has exactly its own room (a later append moves the
// list out of it).
func (k *keywords) layOut(all []found) {
	end := make([]int32, len(k.lists)+1)
	for _, f := range all {
		end[f.list+1]++
	}
	for l := range k.lists {
		end[l+1] += end[l]
	}
	slab := make([]posting, len(all))
	for _, f := range all {
		slab[end[f.list]] = f.posting
		end[f.list]++
	}
	start := int32(0)
	for l := range k.lists {
		k.lists[l].list = slab[start:end[l]:end[l]]
		start = end[l]
	}
}

// listOf returns the list of term, making it if needed.
func listOf[T string | []byte](k *keywords, term T) int32 {
	if id, ok := k.ids[string(term)]; ok {
		return id
	}
	return k.newList(string(term))
}

// newList makes the list of term t.
func (k *keywords) newList(t string) int32 {
	var id int32
	if n := len(k.freeLists); n > 0 {
		id, k.freeLists = k.freeLists[n-1], k.freeLists[:n-1]
		k.lists[id].term = t
	} else {
		id = int32(len(k.lists))
		k.lists = append(k.lists, postings{term: t})
	}
	k.ids[t] = id
	return id
}

// newKid stores kd under an unused kid and returns the kid.
func (k *keywords) newKid(kd kid) int32 {
	if n := len(k.freeKids); n > 0 {
		id := k.freeKids[n-1]
		k.freeKids = k.freeKids[:n-1]
		k.kids[id] = kd
		return id
	}
	k.kids = append(k.kids, kd)
	return int32(len(k.kids) - 1)
}

// kill marks the kid of slot dead; rec is its record, whose terms name
// the lists that hold its postings. The slot itself is left for the
// caller to reuse or remove.
func (k *keywords) kill(a *analyzer, slot int32, rec *unit) {
	id := k.bySlot[slot]
	kd := &k.kids[id]
	kd.slot = -1
	k.total -= int64(kd.length)
	if kd.refs == 0 {
		k.freeKids = append(k.freeKids, id)
		return
	}
	a.analyzeRecord(rec)
	lists := k.scratch[:0]
	for i := range a.ends {
		lists = append(lists, k.ids[string(a.term(i))])
	}
	slices.Sort(lists)
	k.scratch = lists
	for _, l := range slices.Compact(lists) {
		p := &k.lists[l]
		if p.dead++; 2*p.dead > len(p.list) {
			k.compact(l)
		}
	}
}

// compact drops the dead postings of list l, frees the kids that no
// posting names any more, and the list itself if it is left empty.
func (k *keywords) compact(l int32) {
	p := &k.lists[l]
	live := p.list[:0]
	for _, ps := range p.list {
		kd := &k.kids[ps.kid]
		if kd.slot >= 0 {
			live = append(live, ps)
			continue
		}
		if kd.refs--; kd.refs == 0 {
			k.freeKids = append(k.freeKids, ps.kid)
		}
	}
	clear(p.list[len(live):])
	p.list, p.dead = live, 0
	if len(live) == 0 {
		delete(k.ids, p.term)
		*p = postings{}
		k.freeLists = append(k.freeLists, l)
	} else if cap(live) > 2*len(live)+8 {
		p.list = slices.Clip(slices.Clone(live))
	}
}

// removeSlot removes the record in slot, rec, moving the last slot into
// its place as the store's slots do.
func (k *keywords) removeSlot(a *analyzer, slot int32, rec *unit) {
	k.kill(a, slot, rec)
	last := int32(len(k.bySlot) - 1)
	if slot != last {
		k.bySlot[slot] = k.bySlot[last]
		k.kids[k.bySlot[slot]].slot = slot
	}
	k.bySlot = k.bySlot[:last]
}

// merge adds the records of the batch index b, whose record i goes into
// slot dest[i]: a new slot (the next one) or one whose record was killed.
func (k *keywords) merge(b *keywords, dest []int32) {
	kidOf := make([]int32, len(dest))
	for i, s := range dest {
		id := k.newKid(kid{slot: s, length: b.kids[i].length, refs: b.kids[i].refs})
		kidOf[i] = id
		if int(s) == len(k.bySlot) {
			k.bySlot = append(k.bySlot, id)
		} else {
			k.bySlot[s] = id
		}
	}
	for _, bp := range b.lists { // a batch's lists are never empty: analyzer.index makes one per posting found
		l := listOf(k, bp.term)
		p := &k.lists[l]
		for _, ps := range bp.list {
			p.list = append(p.list, posting{kid: kidOf[ps.kid], tf: ps.tf})
		}
	}
	k.total += b.total
}
