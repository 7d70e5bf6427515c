package core

import (
	"slices"
	"testing"
)

func TestConversions(t *testing.T) {
	for _, c := range []struct {
		lit  string
		want string
		ok   bool
	}{
		{`"%d %s\n"`, "ds", true},
		{`"%p"`, "p", true},
		{`"100%% of %*.*f at %p"`, "**fp", true},
		{`"%-08lld %zu %#x"`, "dux", true},
		{`"no conversions"`, "", true},
		{`"%"`, "", false},
		{`"%k"`, "", false},
	} {
		got, ok := conversions(c.lit)
		if ok != c.ok || ok && !slices.Equal(got, []byte(c.want)) {
			t.Errorf("conversions(%s) = %q %v, want %q %v", c.lit, got, ok, c.want, c.ok)
		}
	}
}
