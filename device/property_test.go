package device

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

type genBuf struct {
	obj    Obj
	home   int
	frozen bool // read by another stream: no more writes
}

// genScenario builds a legal scenario from a seed. With holds, every
// operation keeps a reference on what it touches until it ends; without,
// nothing keeps dropped buffers alive.
func genScenario(seed uint64, holds bool) *Scenario {
	rng := rand.New(rand.NewPCG(seed, 0x5eed))
	allocs := []Allocator{BFC(), Caching(), StreamOrdered(), MetalPool()}
	s := NewScenario(allocs[rng.IntN(len(allocs))])
	ns := 1 + rng.IntN(3)
	var sts []Stream
	for i := range ns {
		sts = append(sts, s.Stream(fmt.Sprintf("s%d", i)))
	}
	var live []*genBuf
	n := 0
	newBuf := func() {
		h := rng.IntN(ns)
		sizes := []int64{256, 4096, 1 << 16}
		var opts []Opt
		opts = append(opts, On(sts[h]))
		if rng.IntN(4) == 0 {
			opts = append(opts, Free(FreeAfterStream, sts[h]))
		}
		b := &genBuf{obj: s.Alloc(fmt.Sprintf("b%d", n), sizes[rng.IntN(len(sizes))], opts...), home: h}
		n++
		live = append(live, b)
		op := Memset(b.obj, "init")
		if holds {
			op.Holds(b.obj)
		}
		s.Enqueue(sts[h], op)
	}
	for range 2 {
		newBuf()
	}
	nf := 0
	for range 6 + rng.IntN(6) {
		if len(live) == 0 {
			newBuf()
			continue
		}
		b := live[rng.IntN(len(live))]
		switch rng.IntN(6) {
		case 0: // kernel on the home stream
			var others []Obj
			for _, o := range live {
				if o.home == b.home && o != b && !o.frozen {
					others = append(others, o.obj)
				}
			}
			op := Kernel(fmt.Sprintf("k%d", n)).Reads(b.obj)
			n++
			if len(others) > 0 {
				w := others[rng.IntN(len(others))]
				op.Writes(w)
				if holds {
					op.Holds(w)
				}
			}
			if holds {
				op.Holds(b.obj)
			}
			if rng.IntN(2) == 0 {
				f := s.Future(fmt.Sprintf("f%d", nf))
				nf++
				op.Sets(f)
				s.Enqueue(sts[b.home], op)
				if rng.IntN(2) == 0 {
					s.Await(f)
				} else {
					caps := []Obj{b.obj}
					if !holds {
						caps = nil
					}
					s.OnReady(f, caps, func(cb *Body) { cb.Note("done") })
				}
				continue
			}
			s.Enqueue(sts[b.home], op)
		case 1: // read on another stream after an event
			if ns < 2 {
				continue
			}
			o := (b.home + 1 + rng.IntN(ns-1)) % ns
			s.WaitEvent(sts[o], s.Record(sts[b.home]))
			b.frozen = true
			op := Kernel(fmt.Sprintf("x%d", n)).Reads(b.obj)
			n++
			if holds {
				op.Holds(b.obj)
			}
			s.Enqueue(sts[o], op)
		case 2: // drop the host's reference
			s.Drop(b.obj)
			live = slices.DeleteFunc(live, func(x *genBuf) bool { return x == b })
		case 3: // a foreign allocation that may reuse a freed chunk
			newBuf()
		case 4: // keep a reference in a then_callback
			if holds {
				s.Retain(b.obj)
				s.ThenCallback(sts[b.home], func(cb *Body) { cb.Drop(b.obj) })
			}
		case 5:
			s.Await(sts[rng.IntN(ns)])
		}
	}
	for _, st := range sts {
		s.Await(st)
	}
	for _, b := range live {
		s.Read(b.obj)
		s.Drop(b.obj)
	}
	return s
}

func TestPropertyHeldScenariosNeverFault(t *testing.T) {
	for seed := range uint64(60) {
		s := genScenario(seed, true)
		if s.Err() != nil {
			t.Fatalf("seed %d: %v", seed, s.Err())
		}
		for _, r := range s.Check(8000) {
			if r.Faulted() {
				t.Fatalf("seed %d (%s, %s): %v\n%s", seed, s.alloc.Name(), r.Schedule, r.First(), r)
			}
		}
	}
}

// The generator is not vacuous: without holds, some scenarios fault.
func TestPropertyGeneratorFindsBugsWithoutHolds(t *testing.T) {
	bad := 0
	for seed := range uint64(60) {
		if genScenario(seed, false).Run(Witness).Faulted() {
			bad++
		}
	}
	if bad == 0 {
		t.Fatal("no scenario without holds faulted")
	}
}

func TestDeterminism(t *testing.T) {
	for seed := range uint64(10) {
		a := genScenario(seed, false)
		b := genScenario(seed, false)
		for _, sch := range []Schedule{Witness, Eager} {
			ra, rb := a.Run(sch), b.Run(sch)
			if ra.String() != rb.String() || fmt.Sprint(ra.Faults) != fmt.Sprint(rb.Faults) {
				t.Fatalf("seed %d %s: runs differ\n%s\n---\n%s", seed, sch, ra, rb)
			}
			if rc := a.Run(sch); rc.String() != ra.String() {
				t.Fatalf("seed %d %s: rerun of one scenario differs", seed, sch)
			}
		}
		ea, eb := a.Explore(5000), b.Explore(5000)
		if ea.States != eb.States || ea.String() != eb.String() || fmt.Sprint(ea.Faults) != fmt.Sprint(eb.Faults) {
			t.Fatalf("seed %d: explorations differ", seed)
		}
	}
	s1, _ := xlaScenario("bug")
	s2, _ := xlaScenario("bug")
	if s1.Run(Witness).String() != s2.Run(Witness).String() {
		t.Fatal("seed 001 scenario is not deterministic")
	}
}
