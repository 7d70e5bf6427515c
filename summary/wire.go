package summary

import (
	"encoding/binary"
	"errors"
	"maps"
	"slices"
)

// ArgNotes maps a parameter index to a note about it (the call that
// encodes it, how a callable is deferred, the member that keeps it).
type ArgNotes map[int]string

// Names maps a name to a name (a member to its declared type, an alias
// to what it names).
type Names map[string]string

// The cache is read from disk, where anyone who could write the cache's
// folder may have put it. encoding/gob sizes a map from the count in the
// stream before reading a single entry, so a few bytes claiming a billion
// entries would allocate gigabytes. The summary's maps are written in a
// format of their own instead, whose reader checks every count against
// the bytes that are actually there before it allocates.

var errShort = errors.New("summary cache: truncated map")

// MarshalBinary writes the notes in key order: the count, then each key
// and note.
func (m ArgNotes) MarshalBinary() ([]byte, error) {
	b := binary.AppendUvarint(nil, uint64(len(m)))
	for _, k := range slices.Sorted(maps.Keys(m)) {
		b = binary.AppendVarint(b, int64(k))
		b = appendString(b, m[k])
	}
	return b, nil
}

// UnmarshalBinary reads what MarshalBinary wrote.
func (m *ArgNotes) UnmarshalBinary(b []byte) error {
	n, b, err := count(b)
	if err != nil {
		return err
	}
	out := make(ArgNotes, n)
	for range n {
		k, w := binary.Varint(b)
		if w <= 0 {
			return errShort
		}
		var v string
		if v, b, err = readString(b[w:]); err != nil {
			return err
		}
		out[int(k)] = v
	}
	*m = out
	return nil
}

// MarshalBinary writes the names in key order: the count, then each key
// and value.
func (m Names) MarshalBinary() ([]byte, error) {
	b := binary.AppendUvarint(nil, uint64(len(m)))
	for _, k := range slices.Sorted(maps.Keys(m)) {
		b = appendString(b, k)
		b = appendString(b, m[k])
	}
	return b, nil
}

// UnmarshalBinary reads what MarshalBinary wrote.
func (m *Names) UnmarshalBinary(b []byte) error {
	n, b, err := count(b)
	if err != nil {
		return err
	}
	out := make(Names, n)
	for range n {
		var k, v string
		if k, b, err = readString(b); err != nil {
			return err
		}
		if v, b, err = readString(b); err != nil {
			return err
		}
		out[k] = v
	}
	*m = out
	return nil
}

// count reads an entry count, refusing one that the remaining bytes
// cannot hold (every entry takes at least two).
func count(b []byte) (int, []byte, error) {
	n, w := binary.Uvarint(b)
	if w <= 0 {
		return 0, nil, errShort
	}
	b = b[w:]
	if n > uint64(len(b))/2 {
		return 0, nil, errShort
	}
	return int(n), b, nil
}

func appendString(b []byte, s string) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

func readString(b []byte) (string, []byte, error) {
	n, w := binary.Uvarint(b)
	if w <= 0 || n > uint64(len(b)-w) {
		return "", nil, errShort
	}
	b = b[w:]
	return string(b[:n]), b[n:], nil
}
