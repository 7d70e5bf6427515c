package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"strconv"

	"github.com/spf13/cobra"

	"github.com/holdfast-dev/holdfast/baseline"
	"github.com/holdfast-dev/holdfast/config"
	"github.com/holdfast-dev/holdfast/internal/esc"
)

func newBaseline(e *env) *cobra.Command {
	var fl scanFlags
	cmd := &cobra.Command{
		Use:   "baseline -o FILE [PATH...]",
		Short: "record today's findings so that 'scan --baseline FILE' reports only new ones",
		Long: `Scan like 'holdfast scan' and record every unsuppressed finding in FILE
(JSON; '-' writes to standard output). Later, 'holdfast scan --baseline FILE'
reports only findings that FILE does not hold. Findings are matched by
fingerprint (rule, file, enclosing function and the names involved), not by
line, so edits elsewhere in a file do not bring old findings back; a
fingerprint recorded twice hides two findings, not a third.

Run both commands from the same directory: paths in the baseline are
relative to it (scan warns when none of them exists from where it runs).
The exit status is 0 when the baseline was written, whatever
it holds, and 2 on an error.`,
		Example: `  holdfast baseline -o holdfast-baseline.json
  holdfast scan --baseline holdfast-baseline.json`,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runBaseline(cmd.Context(), fl, args, e)
		},
	}
	f := cmd.Flags()
	f.StringVarP(&fl.output, "output", "o", "", "write the baseline to `FILE` ('-' for standard output)")
	addInputFlags(f, &fl)
	return cmd
}

func runBaseline(ctx context.Context, fl scanFlags, args []string, e *env) error {
	if fl.output == "" {
		return &exitError{code: 2, err: fmt.Errorf("baseline: -o FILE is required ('-' for standard output)")}
	}
	if err := checkLimits(fl); err != nil {
		return err
	}
	root, err := os.Getwd()
	if err != nil {
		return &exitError{code: 2, err: err}
	}
	freeOutput, err := checkOutputPath(fl.output, root)
	if err != nil {
		return &exitError{code: 2, err: err}
	}
	cfg, err := config.Load(fl.configPath, root)
	if err != nil {
		return &exitError{code: 2, err: err}
	}
	// The device's verdict does not change a fingerprint: skip the replay.
	fl.noVerify = true
	res, err := scanPaths(ctx, fl, cfg, root, args, e)
	if err != nil {
		return err
	}
	b := baseline.New(res.Findings, readBuildVersion().tool())
	var buf bytes.Buffer
	if err := b.Write(&buf); err != nil {
		return &exitError{code: 2, err: err}
	}
	if fl.output == "-" {
		_, err = e.stdout.Write(buf.Bytes())
	} else {
		err = createFile(fl.output, freeOutput, buf.Bytes())
	}
	if err != nil {
		return &exitError{code: 2, err: err}
	}
	var msg bytes.Buffer
	for _, n := range res.Notices {
		where := "holdfast"
		if n.File != "" {
			where = esc.Name(n.File)
			if n.Line > 0 {
				where += ":" + strconv.Itoa(n.Line)
			}
		}
		fmt.Fprintf(&msg, "%s: %s: %s\n", where, n.Level, esc.Text(n.Message))
	}
	if fl.output != "-" {
		fmt.Fprintf(&msg, "holdfast: recorded %s in %s\n", plural(len(b.Findings), "finding"), esc.Name(fl.output))
	}
	_, err = e.stderr.Write(msg.Bytes())
	return err
}

// createFile writes data to the output path checkOutputPath accepted (see
// openOutput).
func createFile(path string, free bool, data []byte) error {
	f, err := openOutput(path, free)
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		_ = f.Close() // the write error is the one to report
		return err
	}
	return f.Close()
}
