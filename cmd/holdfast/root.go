package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"regexp"
	"runtime/pprof"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/holdfast-dev/holdfast/diag"
	"github.com/holdfast-dev/holdfast/rules"
)

// newRoot builds the command tree. finish must be called once Execute has
// returned, whatever it returned: it stops and writes a CPU profile that
// --cpuprofile started (cobra skips post-run hooks when a command fails).
func newRoot(e *env) (root *cobra.Command, finish func()) {
	stdout, stderr := e.stdout, e.stderr
	root = &cobra.Command{
		Use:   "holdfast",
		Short: "find buffer-lifetime bugs in accelerator backends, confirmed on a simulated device",
		Long: `holdfast finds buffer-lifetime bugs in the C++ and Objective-C++ of ML
accelerator backends (PJRT plugins, XLA's runtime, PyTorch device backends,
ExecuTorch delegates): raw pointers that outlive their owners, hold containers
that keep nothing alive, async device work on buffers whose last owner is
gone. Each finding carries its lifetime story and is replayed on a simulated
device that says whether it really breaks.

It needs no build and no compile database: point it at a checkout.`,
		SilenceUsage:  true,
		SilenceErrors: true,
		Version:       readBuildVersion().String(),
	}
	root.SetVersionTemplate("holdfast {{.Version}}\n")
	root.SetOut(stdout)
	root.SetErr(stderr)
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		return &exitError{code: 2, err: plainFlagError(err), hint: fmt.Sprintf("run '%s --help' for usage", c.CommandPath())}
	})
	var cpuProfile, memProfile string
	var stopProfile func()
	root.PersistentFlags().StringVar(&cpuProfile, "cpuprofile", "", "write a CPU profile to `FILE`")
	_ = root.PersistentFlags().MarkHidden("cpuprofile")
	root.PersistentFlags().StringVar(&memProfile, "memprofile", "", "write a heap profile to `FILE` when the command ends")
	_ = root.PersistentFlags().MarkHidden("memprofile")
	root.PersistentPreRunE = func(*cobra.Command, []string) error {
		if cpuProfile == "" {
			return nil
		}
		f, err := os.Create(cpuProfile)
		if err != nil {
			return &exitError{code: 2, err: err}
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			_ = f.Close()
			return &exitError{code: 2, err: err}
		}
		stopProfile = func() {
			pprof.StopCPUProfile()
			if err := f.Close(); err != nil {
				_, _ = fmt.Fprintln(stderr, "holdfast: writing the CPU profile:", err)
			}
		}
		return nil
	}
	root.AddCommand(newScan(e), newRules(stdout), newExplain(stdout), newVersion(stdout),
		newStats(stdout), newModel(stdout), newBaseline(e))
	finish = func() {
		if stopProfile != nil {
			stopProfile()
			stopProfile = nil
		}
		if memProfile != "" {
			writeHeapProfile(memProfile, stderr)
			memProfile = ""
		}
	}
	return root, finish
}

// writeHeapProfile writes the heap's allocations, live and in all, to
// path (the hidden --memprofile flag); a failure is said on stderr.
func writeHeapProfile(path string, stderr io.Writer) {
	f, err := os.Create(path)
	if err == nil {
		err = pprof.Lookup("allocs").WriteTo(f, 0)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		_, _ = fmt.Fprintln(stderr, "holdfast: writing the heap profile:", err)
	}
}

func newRules(stdout io.Writer) *cobra.Command {
	return &cobra.Command{
		Use:   "rules",
		Short: "list the rules",
		Args:  cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
			_, _ = fmt.Fprintln(tw, "ID\tNAME\tCLASS\tSEVERITY\tSUMMARY")
			for _, r := range rules.All() {
				m := r.Meta
				_, _ = fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", m.ID, m.Name, m.Class, m.Severity, m.Summary)
			}
			return tw.Flush()
		},
	}
}

func newExplain(stdout io.Writer) *cobra.Command {
	return &cobra.Command{
		Use:   "explain RULE|FAULT",
		Short: "show a rule's documentation with a bad and a good example, or what a fault means",
		Long: `Show a rule's documentation with a bad and a good example (RULE: its ID,
in any case, or its name), or what the fault a verdict names means (FAULT,
as in 'verification: confirmed (HOST_UAF: ...)'). The faults:

` + faultList(),
		Args: argsWant(1, 1, "explain needs a rule ID or a fault name (holdfast explain HF-B001); holdfast rules lists the rules",
			"explain takes one rule ID or fault name"),
		RunE: func(_ *cobra.Command, args []string) error {
			if name := strings.ToUpper(args[0]); diag.FaultMeaning(name) != "" {
				_, err := fmt.Fprintf(stdout, "%s: %s\n", name, diag.FaultMeaning(name))
				return err
			}
			r := rules.ByID(strings.ToUpper(args[0]))
			if r == nil {
				r = rules.ByID(args[0])
			}
			if r == nil {
				var ids []string
				for _, r := range rules.All() {
					ids = append(ids, r.Meta.ID)
				}
				return &exitError{code: 2, err: fmt.Errorf("unknown rule %q (known: %s)", args[0], strings.Join(ids, ", "))}
			}
			_, err := io.WriteString(stdout, rules.Explain(r.Meta))
			return err
		},
	}
}

// faultList is every fault name with its meaning, one a line, aligned.
func faultList() string {
	var b strings.Builder
	tw := tabwriter.NewWriter(&b, 0, 4, 2, ' ', 0)
	for _, f := range diag.Faults() {
		_, _ = fmt.Fprintf(tw, "  %s\t%s\n", f.Name, f.Means)
	}
	_ = tw.Flush()
	return strings.TrimSuffix(b.String(), "\n")
}

func newVersion(stdout io.Writer) *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "print holdfast's version",
		Args:  cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			_, err := fmt.Fprintf(stdout, "holdfast %s\n", readBuildVersion())
			return err
		},
	}
}

// argsWant checks a command's arguments: at least least and, when most
// is positive, at most most. Too few is the usage error none, too many
// the usage error many; each is followed by the command's usage line, as
// a flag error is by its hint.
func argsWant(least, most int, none, many string) cobra.PositionalArgs {
	return func(c *cobra.Command, args []string) error {
		msg := ""
		switch {
		case len(args) < least:
			msg = none
		case most > 0 && len(args) > most:
			msg = fmt.Sprintf("%s, not %d", many, len(args))
		default:
			return nil
		}
		return &exitError{code: 2, err: errors.New(msg), hint: "usage: " + c.UseLine()}
	}
}

// strconvTail is what pflag appends to a value it cannot convert: Go's
// own parse error, which names a Go function, not what the flag wants.
var strconvTail = regexp.MustCompile(`: strconv\.Parse(Int|Uint|Float|Bool): parsing .*$`)

// plainFlagError says what a flag wants instead of how Go failed to read
// its value: invalid argument "abc" for "-j, --jobs" flag: want a whole
// number.
func plainFlagError(err error) error {
	m := strconvTail.FindStringSubmatch(err.Error())
	if m == nil {
		return err
	}
	want := map[string]string{"Int": "a whole number", "Uint": "a whole number of zero or more",
		"Float": "a number", "Bool": "true or false"}[m[1]]
	return errors.New(strconvTail.ReplaceAllString(err.Error(), ": want "+want))
}
