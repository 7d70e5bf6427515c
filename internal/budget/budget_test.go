package budget

import "testing"

// TestMeter: a meter lets work go on until its units are spent, stays out
// once spent or stopped, and a nil meter never runs out.
func TestMeter(t *testing.T) {
	m := New(10)
	if !m.Spend(4) || !m.Spend(6) || m.Out() || m.Left() != 0 {
		t.Fatalf("10 units, 10 spent: out %v, left %d; want still going, 0 left", m.Out(), m.Left())
	}
	if m.Spend(1) || !m.Out() || !m.Spent() || m.Stopped() {
		t.Errorf("11 of 10 units: spent %v, stopped %v; want spent alone", m.Spent(), m.Stopped())
	}
	m = New(100)
	m.Stop()
	if m.Spend(1) || !m.Out() || m.Spent() || !m.Stopped() || m.Left() != 99 {
		t.Errorf("stopped: out %v, spent %v, left %d; want out, not spent, 99 left", m.Out(), m.Spent(), m.Left())
	}
	if New(0).Spend(0) {
		t.Error("a meter of no units let work go on")
	}
	var none *Meter
	none.Stop()
	if !none.Spend(1<<40) || none.Out() || none.Left() != 0 {
		t.Error("a nil meter ran out")
	}
}
