package main

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/holdfast-dev/holdfast/internal/bytesize"
)

// byteSize is a flag value holding a size in bytes, written as a number
// with an optional unit (see bytesize.Parse): 1048576, 512k, 8M, 1G.
type byteSize int64

func (b *byteSize) String() string { return strconv.FormatInt(int64(*b), 10) }

func (b *byteSize) Type() string { return "BYTES" }

func (b *byteSize) Set(s string) error {
	n, err := bytesize.Parse(s)
	if err != nil {
		return err
	}
	*b = byteSize(n)
	return nil
}

// workUnits is a flag value holding a count of work units (see package
// budget), written as a number with an optional decimal suffix: 500k,
// 50M, 1G.
type workUnits int64

func (w *workUnits) String() string { return strconv.FormatInt(int64(*w), 10) }

func (w *workUnits) Type() string { return "UNITS" }

func (w *workUnits) Set(s string) error {
	if _, err := time.ParseDuration(s); err == nil && strings.TrimLeft(s, "0123456789.") != "" {
		return fmt.Errorf("%q is a duration: the budget counts units of work (such as 50M), so that a file's result does not depend on the machine; --file-timeout takes a duration", s)
	}
	mult := int64(1)
	switch {
	case strings.HasSuffix(s, "k"), strings.HasSuffix(s, "K"):
		mult = 1_000
	case strings.HasSuffix(s, "M"):
		mult = 1_000_000
	case strings.HasSuffix(s, "G"):
		mult = 1_000_000_000
	}
	num := s
	if mult > 1 {
		num = s[:len(s)-1]
	}
	n, err := strconv.ParseInt(num, 10, 64)
	if err != nil || n > math.MaxInt64/mult {
		return fmt.Errorf("%q is not a count of work units: give a number, with k, M or G for thousands, millions or billions", s)
	}
	*w = workUnits(n * mult)
	return nil
}
