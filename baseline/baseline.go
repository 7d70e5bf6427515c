// Package baseline records a scan's findings so that later scans report
// only new ones.
//
// A baseline is a JSON file (format in docs/ci.md):
//
//	{
//	  "version": 1,
//	  "tool": "holdfast",
//	  "toolVersion": "0.1.0",
//	  "findings": [
//	    {
//	      "fingerprint": "3f0c...",
//	      "rule": "HF-B001",
//	      "file": "src/send.cc",
//	      "line": 18,
//	      "function": "ProcessGroup::SendTensors",
//	      "message": "raw pointer 'raw' borrowed from 'buffer' ..."
//	    }
//	  ]
//	}
//
// Only "fingerprint" takes part in matching; the other fields are there so
// that a person can read the file and review what it accepts. The
// fingerprint (diag.Finding.Fingerprint) hashes the rule, the file, the
// enclosing function and the names the finding is about, never line
// numbers, so edits elsewhere in a file do not turn old findings into new
// ones. Matching is by multiset: a baseline holding a fingerprint twice
// hides two findings with it, not a third.
package baseline

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"

	"github.com/holdfast-dev/holdfast/diag"
	"github.com/holdfast-dev/holdfast/internal/safeio"
)

// Version is the format version this package writes and reads.
const Version = 1

// File is a baseline.
type File struct {
	Version     int     `json:"version"`
	Tool        string  `json:"tool"`
	ToolVersion string  `json:"toolVersion"`
	Findings    []Entry `json:"findings"`
}

// Entry is one recorded finding.
type Entry struct {
	Fingerprint string `json:"fingerprint"`
	Rule        string `json:"rule"`
	File        string `json:"file"`
	Line        int    `json:"line"`
	Function    string `json:"function"`
	Message     string `json:"message"`
}

// New records findings. Suppressed findings are left out: their directive
// already accepts them, and removing it should bring them back.
func New(fs []*diag.Finding, toolVersion string) *File {
	b := &File{Version: Version, Tool: "holdfast", ToolVersion: toolVersion, Findings: []Entry{}}
	for _, f := range fs {
		if f == nil || f.Rule == nil || f.Suppressed != "" {
			continue
		}
		b.Findings = append(b.Findings, Entry{
			Fingerprint: f.Fingerprint(),
			Rule:        f.Rule.ID,
			File:        f.At.Start.File,
			Line:        f.At.Start.Line,
			Function:    f.Function,
			Message:     f.Message,
		})
	}
	slices.SortStableFunc(b.Findings, func(x, y Entry) int {
		return cmp.Or(cmp.Compare(x.File, y.File), cmp.Compare(x.Line, y.Line),
			cmp.Compare(x.Rule, y.Rule), cmp.Compare(x.Fingerprint, y.Fingerprint), cmp.Compare(x.Message, y.Message))
	})
	return b
}

// Write prints the baseline as indented JSON.
func (b *File) Write(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(b)
}

// Read parses a baseline strictly: unknown fields, trailing data, another
// version or an entry without a fingerprint are errors.
func Read(r io.Reader) (*File, error) {
	dec := json.NewDecoder(r)
	dec.DisallowUnknownFields()
	var b File
	if err := dec.Decode(&b); err != nil {
		return nil, fmt.Errorf("not a holdfast baseline: %w", err)
	}
	if dec.More() {
		return nil, errors.New("not a holdfast baseline: data after the JSON object")
	}
	if b.Tool != "holdfast" {
		return nil, fmt.Errorf("not a holdfast baseline: tool is %q", b.Tool)
	}
	if b.Version != Version {
		return nil, fmt.Errorf("baseline version %d is not supported (want %d); record it again with 'holdfast baseline'", b.Version, Version)
	}
	for i, e := range b.Findings {
		if e.Fingerprint == "" {
			return nil, fmt.Errorf("baseline finding %d (%s:%d) has no fingerprint", i+1, e.File, e.Line)
		}
	}
	return &b, nil
}

// MaxSize is the largest baseline read, in bytes: about 200,000 findings.
const MaxSize = 64 << 20

// Load reads a baseline file: a regular file of at most MaxSize bytes.
func Load(path string) (*File, error) {
	data, err := safeio.ReadFile(path, MaxSize, safeio.Options{})
	if err != nil {
		return nil, err
	}
	b, err := Read(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return b, nil
}

// Filter returns the findings the baseline does not hold, in their order,
// and how many it held. Each entry hides at most one finding. Among
// findings with the same fingerprint, those still on a recorded line are
// matched first, so when one more appears it is the one on a line the
// baseline does not know that is reported. Suppressed findings are kept and
// match nothing.
func (b *File) Filter(fs []*diag.Finding) (kept []*diag.Finding, matched int) {
	type key struct {
		fp   string
		line int
	}
	byLine := map[key]int{}
	byFP := map[string]int{}
	for _, e := range b.Findings {
		byLine[key{e.Fingerprint, e.Line}]++
		byFP[e.Fingerprint]++
	}
	fps := make([]string, len(fs))
	hidden := make([]bool, len(fs))
	for i, f := range fs {
		if f == nil || f.Rule == nil || f.Suppressed != "" {
			continue
		}
		fps[i] = f.Fingerprint()
		if k := (key{fps[i], f.At.Start.Line}); byLine[k] > 0 {
			byLine[k]--
			byFP[fps[i]]--
			hidden[i] = true
		}
	}
	for i := range fs {
		if !hidden[i] && fps[i] != "" && byFP[fps[i]] > 0 {
			byFP[fps[i]]--
			hidden[i] = true
		}
	}
	for i, f := range fs {
		if hidden[i] {
			matched++
			continue
		}
		kept = append(kept, f)
	}
	return kept, matched
}
