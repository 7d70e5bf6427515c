package main

import (
	"strings"
	"testing"
)

// TestModelReadsDeclarationMacros: a macro call whose first argument is a
// declaration declares that variable in the model whether or not the macro
// is listed in a pack; a check macro declares nothing.
func TestModelReadsDeclarationMacros(t *testing.T) {
	tree(t, map[string]string{"t.cc": `Status Run(Executor* executor, Client* client, int x) {
  ASSERT_OK_AND_ASSIGN(auto stream, executor->CreateStream());
  TF_ASSERT_OK_AND_ASSIGN(std::unique_ptr<Buffer> b, client->Create(x));
  MY_PROJECT_ASSIGN_OR_RETURN(Foo* f, Get());
  CHECK_EQ(x * stream, 3);
  IREE_RETURN_IF_ERROR(f->Use(b.get()));
  return Ok();
}
`})
	out, _ := expect(t, 0, "model", "t.cc")
	for _, want := range []string{
		"declare     stream : auto",
		"declare     b : std::unique_ptr<Buffer>",
		"declare     f : Foo*",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("model lacks %q:\n%s", want, out)
		}
	}
	if n := strings.Count(out, "declare "); n != 3 {
		t.Errorf("%d declarations, want the 3 from macros:\n%s", n, out)
	}
}
