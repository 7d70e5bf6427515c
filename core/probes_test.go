package core

import (
	"testing"

	"github.com/holdfast-dev/holdfast/parser"
)

// TestSplitClassFacts reads a class's methods from a file that does not
// define the class: what they keep, free and read of the members follows
// the members' declared types in the header, and names that are no data
// member (a global) say nothing.
func TestSplitClassFacts(t *testing.T) {
	p, err := parser.New(parser.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	header, err := p.Parse("buf.h", ".h", []byte(`
#include <memory>
#include <vector>
class Buf {
 public:
  void Keep(int* p);
  void Drop();
  void Forget();
  ~Buf();
 private:
  int* raw_;
  std::unique_ptr<int> own_;
  std::vector<int*> list_;
};
`))
	if err != nil {
		t.Fatal(err)
	}
	src, err := p.Parse("buf.cc", ".cc", []byte(`
#include "buf.h"
int counter = 0;
void Buf::Keep(int* p) { raw_ = p; list_.push_back(p); counter++; }
void Buf::Drop() { own_ = nullptr; }
void Buf::Forget() { raw_ = nullptr; }
Buf::~Buf() { counter--; *raw_ = 0; }
`))
	if err != nil {
		t.Fatal(err)
	}
	hdr := Classes(header)
	facts := FileMembers(src, func(c string) map[string]string { return hdr[c] })("Buf")
	for key, want := range map[string]string{
		"(<Keep/1)":    "0:list_[],0:raw_", // a pointer member, a container of pointers
		"(-Drop)":      "own_",             // an owning member assigned anew frees
		"(reads:Keep)": "list_",            // counter is a global, raw_ only set
		"(~reads)":     "raw_",
		"(set:Keep)":   "list_,raw_",
	} {
		if got := facts[key]; got != want {
			t.Errorf("%s = %q, want %q", key, got, want)
		}
	}
	if got := facts["(-Forget)"]; got != "" {
		t.Errorf("(-Forget) = %q: a pointer member set to null frees nothing", got)
	}
	for k := range facts {
		if len(k) > 1 && k[1] == '?' {
			t.Errorf("unresolved fact %s", k)
		}
	}
	// Without the class's definition the probes say nothing.
	alone := FileMembers(src, nil)("Buf")
	if got := alone["(<Keep/1)"]; got != "" {
		t.Errorf("without the header, (<Keep/1) = %q", got)
	}
}
