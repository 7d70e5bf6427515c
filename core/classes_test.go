package core

import (
	"testing"

	"github.com/holdfast-dev/holdfast/parser"
)

// A partial specialisation (class T<A, B> { ... }) is a class of its own,
// named with its template arguments, whatever they spell (they may hold a
// '::'): its methods see its data members.
func TestPartialSpecialisationIsItsTemplate(t *testing.T) {
	p, err := parser.New(parser.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	src := []byte(`template <typename Net, typename E = void> class Layer;
template <typename Net>
class Layer<Net, typename std::enable_if<Net::ok>::type> {
 public:
  int Run(int x) { return subnet(x); }
 private:
  Net subnet;
};
`)
	f, err := p.Parse("layer.h", ".h", src)
	if err != nil {
		t.Fatal(err)
	}
	cs := Classes(f)
	const name = "Layer<Net,typenamestd::enable_if<Net::ok>::type>"
	if cs[name]["subnet"] == "" {
		t.Errorf("Classes: %s has no member subnet: %v", name, cs)
	}
	for i := range f.Nodes {
		if f.Nodes[i].Kind != parser.KindFunctionDefinition {
			continue
		}
		x := &exec{f: f, def: parser.NodeID(i)}
		if got := x.className(); got != name {
			t.Errorf("className() = %q, want %s", got, name)
		}
	}
}
