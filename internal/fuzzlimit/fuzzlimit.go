// Package fuzzlimit gives each input of a fuzz target a time limit: an
// input that runs past it crashes the fuzzing worker, which makes the
// fuzzer report it and keep it as a failing input, as it does for a
// panic. Without a limit a hanging input only ends with the whole run.
package fuzzlimit

import (
	"fmt"
	"time"
)

// PerInput is the limit fuzz targets use: far above what any input should
// take, so it only ever catches a hang or a blow-up.
const PerInput = 10 * time.Second

// Run calls f and crashes the process if f has not returned after d.
func Run(d time.Duration, f func()) {
	done := make(chan struct{})
	timer := time.AfterFunc(d, func() {
		select {
		case <-done:
		default:
			panic(fmt.Sprintf("fuzz input still running after %s", d))
		}
	})
	defer timer.Stop()
	defer close(done)
	f()
}
