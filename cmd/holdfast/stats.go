package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/holdfast-dev/holdfast/config"
	"github.com/holdfast-dev/holdfast/lifetime"
	"github.com/holdfast-dev/holdfast/parser"
	"github.com/holdfast-dev/holdfast/rules"
	"github.com/holdfast-dev/holdfast/scan"
)

func newStats(stdout io.Writer) *cobra.Command {
	var exclude []string
	cmd := &cobra.Command{
		Use:   "stats [PATH...]",
		Short: "count files, bytes, functions and parse errors per extension",
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				args = []string{"."}
			}
			root, err := os.Getwd()
			if err != nil {
				return err
			}
			cfg, err := config.Load("", root)
			if err != nil {
				return &exitError{code: 2, err: err}
			}
			res, err := scan.Run(context.Background(), scan.Options{Paths: args, Root: root, Exclude: exclude, Config: cfg, Rules: []*rules.Rule{}})
			if err != nil {
				return &exitError{code: 2, err: err}
			}
			return printStats(stdout, res.Stats, res.Rebuilt)
		},
	}
	cmd.Flags().StringArrayVar(&exclude, "exclude", nil, "skip paths matching `GLOB` (repeatable)")
	return cmd
}

// newModel dumps the lifetime model, so a user reporting a false positive
// can show what holdfast understood.
func newModel(stdout io.Writer) *cobra.Command {
	var fn string
	var syntax bool
	cmd := &cobra.Command{
		Use:    "model FILE...",
		Short:  "print the lifetime model (scopes and events) of every function in the files",
		Hidden: true,
		Args:   argsWant(1, 0, "model needs a source file (holdfast model FILE...)", ""),
		RunE: func(cmd *cobra.Command, args []string) error {
			root, err := os.Getwd()
			if err != nil {
				return err
			}
			var werr error
			matched := false
			_, err = scan.Run(context.Background(), scan.Options{
				Paths: args, Root: root, Jobs: 1, Rules: []*rules.Rule{},
				Funcs: func(f *parser.File, funcs []*lifetime.Func) {
					if syntax {
						werr = f.Dump(stdout, true)
						return
					}
					for _, m := range funcs {
						if fn == "" || strings.Contains(m.Name, fn) {
							matched = true
							if err := m.Dump(stdout); err != nil {
								werr = err
							}
						}
					}
				},
			})
			if err != nil {
				return &exitError{code: 2, err: err}
			}
			if werr == nil && fn != "" && !syntax && !matched {
				return &exitError{code: 2, err: fmt.Errorf("model: no function's name contains %q", fn)}
			}
			return werr
		},
	}
	cmd.Flags().StringVar(&fn, "func", "", "only functions whose name contains `NAME`")
	cmd.Flags().BoolVar(&syntax, "syntax", false, "print the syntax tree instead")
	return cmd
}
