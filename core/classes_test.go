package core

import (
	"testing"

	"github.com/holdfast-dev/holdfast/parser"
)

// A partial specialisation (class T<A, B> { ... }) is of class T: its
// data members are T's, whatever its template arguments spell (they may
// hold a '::').
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
	if cs["Layer"]["subnet"] == "" {
		t.Errorf("Classes: Layer has no member subnet: %v", cs)
	}
	for i := range f.Nodes {
		if f.Nodes[i].Kind != parser.KindFunctionDefinition {
			continue
		}
		x := &exec{f: f, def: parser.NodeID(i)}
		if got := x.className(); got != "Layer" {
			t.Errorf("className() = %q, want Layer", got)
		}
	}
}
