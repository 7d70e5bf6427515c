// Package bytesize reads sizes in bytes as a user writes them, on the
// command line (--max-file-size) and in the configuration file
// (max-file-size): a number with an optional unit.
package bytesize

import (
	"fmt"
	"strconv"
	"strings"
)

var units = map[string]int64{
	"": 1, "b": 1,
	"k": 1 << 10, "kb": 1 << 10, "kib": 1 << 10,
	"m": 1 << 20, "mb": 1 << 20, "mib": 1 << 20,
	"g": 1 << 30, "gb": 1 << 30, "gib": 1 << 30,
}

// Parse reads a size: 1048576, 512k, 512KiB, 8M, 8MB, 1G. Units are
// powers of 1024 whichever way they are spelled (K, KB, KiB). A negative
// number is read as such; the caller decides what it means.
func Parse(s string) (int64, error) {
	t := strings.TrimSpace(s)
	i := 0
	for i < len(t) && (t[i] >= '0' && t[i] <= '9' || i == 0 && t[i] == '-') {
		i++
	}
	n, err := strconv.ParseInt(t[:i], 10, 64)
	unit, ok := units[strings.ToLower(strings.TrimSpace(t[i:]))]
	if err != nil || !ok {
		return 0, fmt.Errorf("%q is not a size: give bytes, or a number with K, M or G (powers of 1024), such as 512K or 8M", s)
	}
	if n > 0 && n > (1<<62)/unit {
		return 0, fmt.Errorf("%q is too large", s)
	}
	return n * unit, nil
}
