package report

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"regexp"
	"slices"
	"testing"

	"github.com/holdfast-dev/holdfast/diag"
)

// schemaDocKeys reads SCHEMA.md: for each "## `object`" section, the keys
// of its table, in order.
func schemaDocKeys(t *testing.T) map[string][]string {
	t.Helper()
	data, err := os.ReadFile("SCHEMA.md")
	if err != nil {
		t.Fatal(err)
	}
	heading := regexp.MustCompile("^## `([A-Za-z]+)`$")
	row := regexp.MustCompile("^\\| `([A-Za-z]+)` \\|")
	objects := map[string][]string{}
	current := ""
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		line := sc.Text()
		if m := heading.FindStringSubmatch(line); m != nil {
			current = m[1]
			objects[current] = []string{}
			continue
		}
		if len(line) > 1 && line[0] == '#' {
			current = ""
		}
		if m := row.FindStringSubmatch(line); m != nil && current != "" {
			objects[current] = append(objects[current], m[1])
		}
	}
	return objects
}

// orderedKeys returns the keys of each JSON object in data in the order
// they appear, grouped by the schema object they are.
func orderedKeys(t *testing.T, data []byte) map[string][][]string {
	t.Helper()
	var raw json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		t.Fatal(err)
	}
	out := map[string][][]string{}
	var visit func(kind string, msg json.RawMessage)
	visit = func(kind string, msg json.RawMessage) {
		if string(msg) == "null" {
			return
		}
		keys, fields := objectKeys(t, msg)
		out[kind] = append(out[kind], keys)
		child := map[string]string{
			"log.tool": "tool", "log.findings": "finding", "log.notices": "notice",
			"finding.witness": "step", "finding.verification": "verification",
			"verification.trace": "traceStep", "verification.fixed": "traceStep",
		}
		for _, k := range keys {
			ck, ok := child[kind+"."+k]
			if !ok {
				continue
			}
			v := fields[k]
			if bytes.HasPrefix(bytes.TrimSpace(v), []byte("[")) {
				var items []json.RawMessage
				if err := json.Unmarshal(v, &items); err != nil {
					t.Fatal(err)
				}
				for _, it := range items {
					visit(ck, it)
				}
			} else {
				visit(ck, v)
			}
		}
	}
	visit("log", raw)
	return out
}

// objectKeys returns an object's keys in order, and its fields.
func objectKeys(t *testing.T, msg json.RawMessage) ([]string, map[string]json.RawMessage) {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(msg))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		t.Fatalf("not an object: %s", msg)
	}
	var keys []string
	fields := map[string]json.RawMessage{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			t.Fatal(err)
		}
		k := tok.(string)
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			t.Fatal(err)
		}
		keys = append(keys, k)
		fields[k] = v
	}
	return keys, fields
}

// TestJSONMatchesSchemaDoc checks that every object the JSON printer
// writes has exactly the keys SCHEMA.md lists for it, in that order.
func TestJSONMatchesSchemaDoc(t *testing.T) {
	doc := schemaDocKeys(t)
	if len(doc) == 0 {
		t.Fatal("no objects found in SCHEMA.md")
	}
	src := fixtureSources()
	opt := fixtureOptions(src)
	opt.ShowAll = true
	got := orderedKeys(t, output(t, "json", fixtureFindings(src, opt.Rules), opt))
	for kind, want := range doc {
		objs := got[kind]
		if len(objs) == 0 {
			t.Errorf("SCHEMA.md documents %q, but the fixture's output has none", kind)
		}
		for _, keys := range objs {
			if !slices.Equal(keys, want) {
				t.Errorf("%s keys:\n  output     %q\n  SCHEMA.md  %q", kind, keys, want)
				break
			}
		}
	}
	for kind := range got {
		if _, ok := doc[kind]; !ok {
			t.Errorf("the output has %q objects that SCHEMA.md does not document", kind)
		}
	}
}

// TestSchemaDocVerdicts: SCHEMA.md's verification.verdict names every
// verdict the code has, in order, and its "Which findings appear" list
// names exactly the verdicts shown only with --all.
func TestSchemaDocVerdicts(t *testing.T) {
	data, err := os.ReadFile("SCHEMA.md")
	if err != nil {
		t.Fatal(err)
	}
	quoted := regexp.MustCompile("`\"([a-z-]+)\"`")
	var row []diag.Verdict
	if m := regexp.MustCompile("(?m)^\\| `verdict` \\| string \\| (.*)$").FindSubmatch(data); m != nil {
		for _, q := range quoted.FindAllSubmatch(m[1], -1) {
			row = append(row, diag.Verdict(q[1]))
		}
	}
	if !slices.Equal(row, diag.Verdicts()) {
		t.Errorf("SCHEMA.md's verdict row lists %v, want %v", row, diag.Verdicts())
	}
	var hidden, want []diag.Verdict
	if m := regexp.MustCompile("(?s)- Findings the simulated device did not confirm (.*?)\n\n").FindSubmatch(data); m != nil {
		for _, q := range quoted.FindAllSubmatch(m[1], -1) {
			if v := diag.Verdict(q[1]); slices.Contains(diag.Verdicts(), v) {
				hidden = append(hidden, v)
			}
		}
	}
	for _, v := range diag.Verdicts() {
		if !v.Shown() {
			want = append(want, v)
		}
	}
	if !slices.Equal(hidden, want) {
		t.Errorf("SCHEMA.md says the verdicts %v appear only with --all, want %v", hidden, want)
	}
}
