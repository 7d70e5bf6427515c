package main

import (
	"github.com/holdfast-dev/holdfast/diag"
	"github.com/holdfast-dev/holdfast/verify"
)

// verifier returns the function that replays findings on the simulated
// device.
func verifier() func(*diag.Finding) *diag.Verification {
	return func(f *diag.Finding) *diag.Verification { return verify.Verify(f, verify.Options{}) }
}
