package main

import (
	"fmt"
	"os"
	"runtime/debug"
	"strings"
)

// docsURL is where this build's docs are published as web pages, the base
// under which README.md and docs/rules/<ID>.md are found (see
// report.Options.DocsURL). It is set when linking, and empty by default,
// so SARIF names no page that may not exist:
//
//	go build -ldflags "-X main.docsURL=https://github.com/you/holdfast/blob/main" ./cmd/holdfast
var docsURL string

// buildVersion is what the Go toolchain recorded about the build of this
// binary: the module version ("v0.1.0" for 'go install ...@v0.1.0', a
// pseudo-version such as "v0.0.0-20261201122253-d26192a1b2c3+dirty" for
// 'go build' in a clone, "(devel)" or "" when nothing was recorded) and the
// version control state of the tree it was built from.
type buildVersion struct {
	module   string
	revision string
	time     string
	modified bool
}

// readBuildVersion reads the build information of the running binary.
func readBuildVersion() buildVersion {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return buildVersion{}
	}
	return fromBuildInfo(bi)
}

func fromBuildInfo(bi *debug.BuildInfo) buildVersion {
	v := buildVersion{module: bi.Main.Version}
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			v.revision = s.Value
		case "vcs.time":
			v.time = s.Value
		case "vcs.modified":
			v.modified = s.Value == "true"
		}
	}
	return v
}

// tool is the version the reports carry (SARIF's driver version, JSON's
// tool.version, a baseline's toolVersion): the module version without its
// "v", or "0.0.0-devel" for a build that recorded none (a numeric version,
// as SARIF wants).
func (v buildVersion) tool() string {
	if v.module == "" || v.module == "(devel)" {
		return "0.0.0-devel"
	}
	return strings.TrimPrefix(v.module, "v")
}

// String is the line 'holdfast version' prints, without the program name:
// "v0.1.0", or "(devel), revision d26192a1b2c3 (2026-12-01T12:22:53Z), modified".
func (v buildVersion) String() string {
	s := v.module
	if s == "" {
		s = "(devel)"
	}
	if v.revision != "" {
		rev := v.revision
		if len(rev) > 12 {
			rev = rev[:12]
		}
		s += ", revision " + rev
		if v.time != "" {
			s += " (" + v.time + ")"
		}
		if v.modified {
			s += ", modified"
		}
	}
	return s
}

// analysisBuild names the build of the analysis for the summary cache:
// the recorded version and revision, and for a modified or unversioned
// build the running binary's size and time, so that a rebuilt binary does
// not read summaries an older one wrote.
func analysisBuild() string {
	v := readBuildVersion()
	id := v.String()
	if v.modified || v.revision == "" || v.module == "" || v.module == "(devel)" {
		if exe, err := os.Executable(); err == nil {
			if info, err := os.Stat(exe); err == nil {
				id += fmt.Sprintf(" exe %d %d", info.Size(), info.ModTime().UnixNano())
			}
		}
	}
	return id
}
