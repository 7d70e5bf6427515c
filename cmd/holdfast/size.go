package main

import (
	"strconv"

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
