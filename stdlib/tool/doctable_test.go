package tool_test

import (
	"flag"
	"os"
	"strings"
	"testing"

	"github.com/hookhost/hookhost/stdlib/tool"
)

var update = flag.Bool("update", false, "rewrite the table in docs/stdlib.md")

const (
	stdlibDoc  = "../../docs/stdlib.md"
	tableStart = "<!-- tool table: generated from stdlib/tool/table.go; `go test ./stdlib/tool -run TestDocTable -update` rewrites it -->\n"
	tableEnd   = "<!-- end of tool table -->"
)

// TestDocTable keeps the table in docs/stdlib.md equal to the one the
// module uses, so that the docs cannot drift from the code.
func TestDocTable(t *testing.T) {
	data, err := os.ReadFile(stdlibDoc)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(data)
	start := strings.Index(doc, tableStart)
	end := strings.Index(doc, tableEnd)
	if start < 0 || end < start {
		t.Fatalf("%s: no table between %q and %q", stdlibDoc, tableStart, tableEnd)
	}
	start += len(tableStart)
	want := tool.DocTable()
	if doc[start:end] == want {
		return
	}
	if *update {
		if err := os.WriteFile(stdlibDoc, []byte(doc[:start]+want+doc[end:]), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("%s: the tool table differs from stdlib/tool/table.go; run go test ./stdlib/tool -run TestDocTable -update\nwant:\n%s", stdlibDoc, want)
}
