package bytesize

import "testing"

func TestParse(t *testing.T) {
	for in, want := range map[string]int64{
		"1048576": 1 << 20, "512k": 512 << 10, "512KiB": 512 << 10, "8M": 8 << 20, "8MB": 8 << 20,
		"1g": 1 << 30, "0": 0, "2 K": 2 << 10, "-1": -1,
	} {
		if got, err := Parse(in); err != nil || got != want {
			t.Errorf("Parse(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, in := range []string{"", "MB", "1.5M", "1MBB", "12x", "99999999999999999G"} {
		if got, err := Parse(in); err == nil {
			t.Errorf("Parse(%q) = %d, want an error", in, got)
		}
	}
}
