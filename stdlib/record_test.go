package stdlib

import "testing"

func TestRecord(t *testing.T) {
	keys := NewRecordKeys("b", "a", "c")
	if got := keys.Names(); len(got) != 3 || got[0] != "a" || got[1] != "b" || got[2] != "c" {
		t.Fatalf("Names = %v, want [a b c]", got)
	}
	if keys.Index("c") != 2 || keys.Index("z") != -1 {
		t.Fatalf("Index(c) = %d, Index(z) = %d", keys.Index("c"), keys.Index("z"))
	}
	inner := Record{Keys: keys, Values: []any{int64(1), nil, "x"}}
	outer := Record{Keys: keys, Values: []any{[]any{inner, "s"}, map[string]any{"k": inner}, inner}}
	in := map[string]any{"a": int64(1), "b": nil, "c": "x"}
	want := map[string]any{"a": []any{in, "s"}, "b": map[string]any{"k": in}, "c": in}
	got := Plain(outer)
	if !Equal(got, want) {
		t.Fatalf("Plain = %v, want %v", got, want)
	}
	if err := Check(got); err != nil {
		t.Fatalf("Plain's result is not neutral: %v", err)
	}
	if Check(outer) == nil || Check([]any{inner}) == nil {
		t.Fatal("Check takes a Record as a neutral value")
	}
	plain := []any{"a", map[string]any{"b": []any{int64(1)}}}
	if p := Plain(plain).([]any); &p[0] != &plain[0] {
		t.Fatal("Plain copied a value that holds no Record")
	}
	func() {
		defer func() {
			if recover() == nil {
				t.Error("NewRecordKeys took a key twice")
			}
		}()
		NewRecordKeys("a", "a")
	}()
}
