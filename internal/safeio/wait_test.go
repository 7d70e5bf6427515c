package safeio

import (
	"testing"
	"time"
)

// waitErr waits for a result, failing the test rather than hanging it if
// none comes in a very long while. It asserts nothing about speed.
func waitErr(t *testing.T, c <-chan error) error {
	t.Helper()
	select {
	case err := <-c:
		return err
	case <-time.After(time.Minute):
		t.Fatal("blocked")
		return nil
	}
}
