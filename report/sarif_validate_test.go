package report

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// The validator test checks SARIF output the way GitHub code scanning
// would, with Microsoft's SARIF multitool (the validator behind GitHub's
// "Gh" rules) plus two checks the multitool lacks: that the file is exactly
// one JSON value, and that it satisfies the SARIF 2.1.0 JSON schema (the
// multitool silently skips a log whose enum values it cannot read).
//
// It runs only when HOLDFAST_SARIF_VALIDATOR names a directory where
// report/testdata/install-validator.sh installed the multitool:
//
//	bash report/testdata/install-validator.sh /tmp/sarifval
//	HOLDFAST_SARIF_VALIDATOR=/tmp/sarifval go test -run Validator -v ./report/

const validatorEnv = "HOLDFAST_SARIF_VALIDATOR"

// validator is an installed multitool and its schema.
type validator struct {
	bin    string
	schema *schemaChecker
}

func findValidator(t *testing.T) *validator {
	t.Helper()
	dir := os.Getenv(validatorEnv)
	if dir == "" {
		t.Skipf("%s is not set: to run this test, install the SARIF multitool with "+
			"`bash report/testdata/install-validator.sh DIR` and set %s=DIR", validatorEnv, validatorEnv)
	}
	pkg := filepath.Join(dir, "node_modules", "@microsoft", "sarif-multitool-linux")
	bin := filepath.Join(pkg, "Sarif.Multitool")
	if _, err := os.Stat(bin); err != nil {
		t.Fatalf("%s=%s, but the multitool is not there: %v (run report/testdata/install-validator.sh %s)", validatorEnv, dir, err, dir)
	}
	var schemaPath string
	err := filepath.WalkDir(pkg, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && d.Name() == "sarif-2.1.0.json" {
			schemaPath = path
			return fs.SkipAll
		}
		return nil
	})
	if err != nil || schemaPath == "" {
		t.Fatalf("no sarif-2.1.0.json under %s: %v", pkg, err)
	}
	sc, err := loadSchema(schemaPath)
	if err != nil {
		t.Fatal(err)
	}
	return &validator{bin: bin, schema: sc}
}

// validatorLogs are the SARIF logs to validate: every golden SARIF file,
// and outputs the goldens do not cover (a cut run, a run without root).
func validatorLogs(t *testing.T) map[string][]byte {
	t.Helper()
	logs := map[string][]byte{}
	paths, err := filepath.Glob(filepath.Join("testdata", "*.sarif"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no golden SARIF files in testdata: %v", err)
	}
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		logs[filepath.Base(p)] = data
	}
	src := fixtureSources()
	opt := fixtureOptions(src)
	opt.ShowAll = true
	opt.MaxSARIFResults = 2
	logs["cut.sarif"] = output(t, "sarif", fixtureFindings(src, opt.Rules), opt)
	opt = fixtureOptions(src)
	opt.Source = nil
	opt.Root = ""
	opt.AutomationID = ""
	logs["nosource-noroot.sarif"] = output(t, "sarif", fixtureFindings(src, opt.Rules), opt)
	opt = fixtureOptions(src)
	opt.DocsURL = "https://git.example.org/team/holdfast/blob/v1.2.0"
	logs["docs-url.sarif"] = output(t, "sarif", fixtureFindings(src, opt.Rules), opt)
	for name, data := range scanLogs(t) {
		logs[name] = data
	}
	return logs
}

func TestSARIFValidator(t *testing.T) {
	v := findValidator(t)
	logs := validatorLogs(t)
	names := make([]string, 0, len(logs))
	for name := range logs {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			data := logs[name]
			doc, err := parseOneJSONValue(data)
			if err != nil {
				t.Fatalf("not exactly one JSON value: %v", err)
			}
			for _, e := range v.schema.validate(doc) {
				t.Errorf("schema: %s", e)
			}
			errs, warns, report := v.run(t, name, data)
			t.Logf("multitool on %s: %d errors, %d warnings\n%s", name, errs, warns, report)
			if errs != 0 || warns != 0 {
				t.Errorf("multitool found %d errors and %d warnings", errs, warns)
			}

			// The multitool reports nothing for a log it fails to
			// read. Prove it read this one: without "$schema" it must
			// complain about exactly that.
			m := doc.(map[string]any)
			delete(m, "$schema")
			canary, err := json.Marshal(m)
			if err != nil {
				t.Fatal(err)
			}
			if errs, warns, report := v.run(t, "canary-"+name, canary); errs+warns == 0 || !strings.Contains(report, "$schema") {
				t.Errorf("the multitool did not notice a missing $schema, so it may not have read the log at all:\n%s", report)
			}
		})
	}
}

// run validates one log with the multitool (rule kinds Gh and Sarif) and
// counts the errors and warnings of its output log, which it writes even
// when it finds problems, since it exits 0 either way.
func (v *validator) run(t *testing.T, name string, data []byte) (errs, warns int, report string) {
	t.Helper()
	dir := t.TempDir()
	in := filepath.Join(dir, name)
	if !strings.HasSuffix(in, ".sarif") {
		in += ".sarif"
	}
	out := filepath.Join(dir, "validation.sarif")
	if err := os.WriteFile(in, data, 0o644); err != nil {
		t.Fatal(err)
	}
	// The native binary, not the npm wrapper: the wrapper passes its
	// arguments through a shell, which splits "Gh;Sarif" at the ';'.
	cmd := exec.Command(v.bin, "validate", in, "--rule-kind", "Gh;Sarif", "-o", out, "--log", "ForceOverwrite")
	cmd.Env = append(os.Environ(), "DOTNET_CLI_TELEMETRY_OPTOUT=1")
	var console bytes.Buffer
	cmd.Stdout, cmd.Stderr = &console, &console
	start := time.Now()
	if err := cmd.Run(); err != nil {
		t.Fatalf("multitool: %v\n%s", err, console.String())
	}
	raw, err := os.ReadFile(out)
	if err != nil {
		t.Fatalf("multitool wrote no output log: %v\n%s", err, console.String())
	}
	var log struct {
		Runs []struct {
			Tool struct {
				Driver struct {
					Rules []struct {
						ID             string `json:"id"`
						MessageStrings map[string]struct {
							Text string `json:"text"`
						} `json:"messageStrings"`
					} `json:"rules"`
				} `json:"driver"`
			} `json:"tool"`
			Results []struct {
				RuleID  string `json:"ruleId"`
				Level   string `json:"level"`
				Message struct {
					Text      string   `json:"text"`
					ID        string   `json:"id"`
					Arguments []string `json:"arguments"`
				} `json:"message"`
			} `json:"results"`
			Invocations []struct {
				ExecutionSuccessful        bool `json:"executionSuccessful"`
				ToolExecutionNotifications []struct {
					Level   string `json:"level"`
					Message struct {
						Text string `json:"text"`
					} `json:"message"`
				} `json:"toolExecutionNotifications"`
			} `json:"invocations"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(raw, &log); err != nil || len(log.Runs) != 1 {
		t.Fatalf("cannot read the multitool's output log (%v):\n%s", err, raw)
	}
	run := log.Runs[0]
	var b strings.Builder
	fmt.Fprintf(&b, "  console: %s\n", strings.Join(strings.Fields(console.String()), " "))
	fmt.Fprintf(&b, "  took %s, %d results\n", time.Since(start).Round(time.Millisecond), len(run.Results))
	for _, r := range run.Results {
		level := r.Level
		if level == "" {
			level = "warning" // SARIF's default level
		}
		text := r.Message.Text
		for _, rule := range run.Tool.Driver.Rules {
			if rule.ID == r.RuleID && text == "" {
				text = rule.MessageStrings[r.Message.ID].Text
				for i, a := range r.Message.Arguments {
					text = strings.ReplaceAll(text, fmt.Sprintf("{%d}", i), a)
				}
			}
		}
		// A build that names no docs URL leaves informationUri out, as
		// SARIF allows: it names no page that may not exist. The
		// multitool's advice to give one is expected then, and only then.
		if r.RuleID == "SARIF2005" && strings.Contains(text, "'informationUri'") && !bytes.Contains(data, []byte(`"informationUri"`)) {
			fmt.Fprintf(&b, "  %s %s (expected: no docs URL): %s\n", level, r.RuleID, text)
			continue
		}
		switch level {
		case "error":
			errs++
		case "warning":
			warns++
		}
		fmt.Fprintf(&b, "  %s %s: %s\n", level, r.RuleID, text)
	}
	for _, inv := range run.Invocations {
		if !inv.ExecutionSuccessful {
			errs++
			b.WriteString("  the multitool's run was not successful\n")
		}
		for _, n := range inv.ToolExecutionNotifications {
			if n.Level == "error" || n.Level == "" || n.Level == "warning" {
				errs++
			}
			fmt.Fprintf(&b, "  notification %s: %s\n", n.Level, n.Message.Text)
		}
	}
	return errs, warns, b.String()
}

// TestSARIFSchemaCheckerCatches makes sure the schema check rejects what
// the multitool misses: bad values of each enum-valued property holdfast
// writes, unknown properties and missing required ones.
func TestSARIFSchemaCheckerCatches(t *testing.T) {
	v := findValidator(t)
	good, err := os.ReadFile(filepath.Join("testdata", "sarif-all.golden.sarif"))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		path  []any // into the document
		value any   // nil deletes
		want  string
	}{
		{[]any{"runs", 0, "results", 0, "level"}, "fatal", "runs[0].results[0].level"},
		{[]any{"runs", 0, "results", 0, "kind"}, "failure", "runs[0].results[0].kind"},
		{[]any{"runs", 0, "columnKind"}, "bytes", "runs[0].columnKind"},
		{[]any{"runs", 0, "results", 2, "suppressions", 0, "kind"}, "inline", "runs[0].results[2].suppressions[0].kind"},
		{[]any{"runs", 0, "invocations", 0, "toolExecutionNotifications", 0, "level"}, "warn", "runs[0].invocations[0].toolExecutionNotifications[0].level"},
		{[]any{"runs", 0, "tool", "driver", "rules", 0, "defaultConfiguration", "level"}, "info", "runs[0].tool.driver.rules[0].defaultConfiguration.level"},
		{[]any{"runs", 0, "results", 0, "codeFlows", 0, "threadFlows", 0, "locations", 0, "importance"}, "high", "importance"},
		{[]any{"runs", 0, "results", 0, "bogus"}, true, `property "bogus" is not allowed`},
		{[]any{"runs", 0, "tool", "driver", "name"}, nil, "runs[0].tool.driver"},
		{[]any{"runs", 0, "results", 0, "locations", 0, "physicalLocation", "region", "startLine"}, 0, "startLine"},
		{[]any{"runs", 0, "results", 0, "ruleIndex"}, 1.5, "ruleIndex"},
		{[]any{"runs", 0, "originalUriBaseIds", "%SRCROOT%", "uri"}, "file:///a b/", "uri"},
	} {
		var doc any
		if err := json.Unmarshal(good, &doc); err != nil {
			t.Fatal(err)
		}
		if err := setPath(doc, c.path, c.value); err != nil {
			t.Fatalf("%v: %v", c.path, err)
		}
		data, err := json.Marshal(doc)
		if err != nil {
			t.Fatal(err)
		}
		doc, err = parseOneJSONValue(data)
		if err != nil {
			t.Fatal(err)
		}
		errs := v.schema.validate(doc)
		if !slices.ContainsFunc(errs, func(e string) bool { return strings.Contains(e, c.want) }) {
			t.Errorf("setting %v to %v: no schema error mentioning %q; got %q", c.path, c.value, c.want, errs)
		}
	}
	if errs := v.schema.validate(mustParse(t, good)); len(errs) != 0 {
		t.Errorf("the golden log fails the schema: %q", errs)
	}
}

func mustParse(t *testing.T, data []byte) any {
	t.Helper()
	doc, err := parseOneJSONValue(data)
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

// setPath sets (or, with value nil, deletes) the value at path in doc.
func setPath(doc any, path []any, value any) error {
	cur := doc
	for i, k := range path {
		last := i == len(path)-1
		switch c := cur.(type) {
		case map[string]any:
			key, ok := k.(string)
			if !ok {
				return fmt.Errorf("key %v of an object", k)
			}
			if last {
				if value == nil {
					delete(c, key)
				} else {
					c[key] = value
				}
				return nil
			}
			cur = c[key]
		case []any:
			idx, ok := k.(int)
			if !ok || idx >= len(c) {
				return fmt.Errorf("index %v of an array of %d", k, len(c))
			}
			if last {
				c[idx] = value
				return nil
			}
			cur = c[idx]
		default:
			return fmt.Errorf("%v: not a container", path[:i])
		}
	}
	return nil
}

func TestParseOneJSONValue(t *testing.T) {
	for in, ok := range map[string]bool{
		`{"a": 1}`:                  true,
		"{\"a\": 1}\n \t\r":         true,
		`{"a": 1} {}`:               false,
		`{"a": 1} x`:                false,
		`{"a": 1, "a": 2}`:          false,
		`[{"a": {"b": 1, "b": 1}}]`: false,
		"":                          false,
		"{\"a\": \"\xff\"}":         false,
	} {
		if _, err := parseOneJSONValue([]byte(in)); (err == nil) != ok {
			t.Errorf("parseOneJSONValue(%q): err = %v, want ok=%v", in, err, ok)
		}
	}
}

// parseOneJSONValue decodes data, which must be valid UTF-8 holding exactly
// one JSON value, with no duplicate object keys, followed by nothing but
// whitespace. Numbers stay json.Number so integers can be told apart.
func parseOneJSONValue(data []byte) (any, error) {
	if !utf8.Valid(data) {
		return nil, errors.New("not valid UTF-8")
	}
	if err := noDuplicateKeys(data); err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	rest := data[dec.InputOffset():]
	if len(bytes.TrimLeft(rest, " \t\r\n")) != 0 {
		return nil, fmt.Errorf("text after the JSON value at byte %d", dec.InputOffset())
	}
	return v, nil
}

// noDuplicateKeys walks data's tokens and fails on an object key that
// appears twice in one object.
func noDuplicateKeys(data []byte) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	type frame struct {
		object    bool
		keys      map[string]bool
		expectKey bool
	}
	var stack []*frame
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		var top *frame
		if len(stack) > 0 {
			top = stack[len(stack)-1]
		}
		if top != nil && top.object && top.expectKey {
			if key, ok := tok.(string); ok {
				if top.keys[key] {
					return fmt.Errorf("duplicate key %q", key)
				}
				top.keys[key] = true
				top.expectKey = false
				continue
			}
		}
		switch tok {
		case json.Delim('{'):
			stack = append(stack, &frame{object: true, keys: map[string]bool{}, expectKey: true})
			continue
		case json.Delim('['):
			stack = append(stack, &frame{})
			continue
		case json.Delim('}'), json.Delim(']'):
			stack = stack[:len(stack)-1]
		}
		// A value ended: the enclosing object expects a key next.
		if len(stack) > 0 && stack[len(stack)-1].object {
			stack[len(stack)-1].expectKey = true
		}
		if len(stack) == 0 {
			// One value done; what follows is parseOneJSONValue's concern.
			return nil
		}
	}
}

// schemaChecker validates a decoded JSON document against the SARIF 2.1.0
// JSON schema. It knows exactly the keywords that schema uses ($ref, type,
// enum, properties, additionalProperties, required, items, minItems,
// uniqueItems, minimum, maximum, pattern, format, anyOf, oneOf) and fails
// loudly on any other, so nothing is skipped unnoticed.
type schemaChecker struct {
	root     map[string]any
	patterns map[string]*regexp.Regexp
}

func loadSchema(path string) (*schemaChecker, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var root map[string]any
	if err := dec.Decode(&root); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return &schemaChecker{root: root, patterns: map[string]*regexp.Regexp{}}, nil
}

// validate returns one message per violation, each starting with the
// JSON path of the offending value.
func (c *schemaChecker) validate(doc any) []string {
	var errs []string
	c.check(c.root, doc, "", &errs)
	return errs
}

// ignoredKeyword tells whether a schema keyword carries no constraint.
func ignoredKeyword(k string) bool {
	switch k {
	case "$schema", "$id", "id", "title", "description", "default", "definitions":
		return true
	}
	return false
}

func (c *schemaChecker) check(s map[string]any, v any, path string, errs *[]string) {
	fail := func(format string, args ...any) {
		p := path
		if p == "" {
			p = "(root)"
		}
		*errs = append(*errs, p+": "+fmt.Sprintf(format, args...))
	}
	keys := make([]string, 0, len(s))
	for k := range s {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		kw := s[k]
		switch k {
		case "$ref":
			ref, _ := kw.(string)
			target, err := c.resolve(ref)
			if err != nil {
				fail("%v", err)
				continue
			}
			c.check(target, v, path, errs)
		case "type":
			if !hasType(v, kw) {
				fail("is %s, want type %v", jsonType(v), kw)
			}
		case "enum":
			list, _ := kw.([]any)
			if !slices.ContainsFunc(list, func(e any) bool { return jsonEqual(e, v) }) {
				fail("%s is not one of the enum values %s", compact(v), compact(list))
			}
		case "properties":
			obj, ok := v.(map[string]any)
			if !ok {
				continue
			}
			props, _ := kw.(map[string]any)
			for _, name := range sortedKeys(obj) {
				if ps, ok := props[name].(map[string]any); ok {
					c.check(ps, obj[name], joinPath(path, name), errs)
				}
			}
		case "additionalProperties":
			obj, ok := v.(map[string]any)
			if !ok {
				continue
			}
			props, _ := s["properties"].(map[string]any)
			for _, name := range sortedKeys(obj) {
				if _, known := props[name]; known {
					continue
				}
				switch ap := kw.(type) {
				case bool:
					if !ap {
						fail("property %q is not allowed", name)
					}
				case map[string]any:
					c.check(ap, obj[name], joinPath(path, name), errs)
				}
			}
		case "required":
			obj, ok := v.(map[string]any)
			if !ok {
				continue
			}
			for _, r := range kw.([]any) {
				if _, ok := obj[r.(string)]; !ok {
					fail("required property %q is missing", r)
				}
			}
		case "items":
			arr, ok := v.([]any)
			if !ok {
				continue
			}
			is, _ := kw.(map[string]any)
			for i, e := range arr {
				c.check(is, e, fmt.Sprintf("%s[%d]", path, i), errs)
			}
		case "minItems":
			if arr, ok := v.([]any); ok && float64(len(arr)) < num(kw) {
				fail("has %d items, want at least %v", len(arr), kw)
			}
		case "uniqueItems":
			arr, ok := v.([]any)
			if !ok || kw != true {
				continue
			}
			seen := map[string]bool{}
			for _, e := range arr {
				k := compact(e)
				if seen[k] {
					fail("item %s appears twice, but items must be unique", k)
				}
				seen[k] = true
			}
		case "minimum":
			if n, ok := v.(json.Number); ok && num(n) < num(kw) {
				fail("%v is below the minimum %v", n, kw)
			}
		case "maximum":
			if n, ok := v.(json.Number); ok && num(n) > num(kw) {
				fail("%v is above the maximum %v", n, kw)
			}
		case "pattern":
			str, ok := v.(string)
			if !ok {
				continue
			}
			re, err := c.pattern(kw.(string))
			if err != nil {
				fail("schema pattern %q: %v", kw, err)
			} else if !re.MatchString(str) {
				fail("%q does not match the pattern %q", str, kw)
			}
		case "format":
			if str, ok := v.(string); ok {
				if err := checkFormat(kw.(string), str); err != nil {
					fail("%q is not a valid %s: %v", str, kw, err)
				}
			}
		case "anyOf", "oneOf":
			pass := 0
			var sub []string
			for _, alt := range kw.([]any) {
				var e []string
				c.check(alt.(map[string]any), v, path, &e)
				if len(e) == 0 {
					pass++
				}
				sub = append(sub, e...)
			}
			if pass == 0 || (k == "oneOf" && pass > 1) {
				fail("matches %d of the %s alternatives: %s", pass, k, strings.Join(sub, "; "))
			}
		default:
			if !ignoredKeyword(k) {
				fail("the schema uses keyword %q, which this checker does not know", k)
			}
		}
	}
}

func (c *schemaChecker) resolve(ref string) (map[string]any, error) {
	if !strings.HasPrefix(ref, "#/") {
		return nil, fmt.Errorf("unsupported $ref %q", ref)
	}
	var cur any = c.root
	for _, part := range strings.Split(ref[2:], "/") {
		part = strings.ReplaceAll(strings.ReplaceAll(part, "~1", "/"), "~0", "~")
		m, ok := cur.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("$ref %q does not resolve", ref)
		}
		cur = m[part]
	}
	m, ok := cur.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("$ref %q does not resolve to a schema", ref)
	}
	return m, nil
}

func (c *schemaChecker) pattern(p string) (*regexp.Regexp, error) {
	if re, ok := c.patterns[p]; ok {
		return re, nil
	}
	re, err := regexp.Compile(p)
	if err != nil {
		return nil, err
	}
	c.patterns[p] = re
	return re, nil
}

var uuidPattern = regexp.MustCompile(`^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`)

func checkFormat(format, s string) error {
	switch format {
	case "uri", "uri-reference":
		if strings.ContainsAny(s, " \t\r\n<>\"{}|\\^`") {
			return errors.New("contains a character that must be percent-encoded")
		}
		u, err := url.Parse(s)
		if err != nil {
			return err
		}
		if format == "uri" && !u.IsAbs() {
			return errors.New("not an absolute URI")
		}
	case "date-time":
		if _, err := time.Parse(time.RFC3339, s); err != nil {
			return err
		}
	case "uuid":
		if !uuidPattern.MatchString(s) {
			return errors.New("not a UUID")
		}
	default:
		return fmt.Errorf("unknown format %q", format)
	}
	return nil
}

func hasType(v any, want any) bool {
	switch w := want.(type) {
	case string:
		got := jsonType(v)
		return got == w || (w == "number" && got == "integer")
	case []any:
		return slices.ContainsFunc(w, func(t any) bool { return hasType(v, t) })
	}
	return false
}

func jsonType(v any) string {
	switch v := v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case string:
		return "string"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	case json.Number:
		if f, err := v.Float64(); err == nil && f == math.Trunc(f) && !strings.ContainsAny(v.String(), ".eE") {
			return "integer"
		}
		return "number"
	}
	return fmt.Sprintf("%T", v)
}

func num(v any) float64 {
	switch v := v.(type) {
	case json.Number:
		f, _ := v.Float64()
		return f
	case float64:
		return v
	}
	return math.NaN()
}

func jsonEqual(a, b any) bool { return compact(a) == compact(b) }

// compact is v as canonical JSON: object keys sorted (encoding/json sorts
// map keys), numbers as written.
func compact(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

func joinPath(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}
