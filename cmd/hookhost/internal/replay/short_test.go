package replay

import (
	"strings"
	"testing"
)

func TestShort(t *testing.T) {
	long := strings.Repeat("é", 150)
	tests := []struct {
		name    string
		payload map[string]any
		want    string
	}{
		{"shell command", map[string]any{"tool_name": "Bash", "params": map[string]any{"command": "rm -rf /"}},
			`tool=Bash command="rm -rf /"`},
		{"argv (Codex)", map[string]any{"tool_name": "shell", "params": map[string]any{"command": []any{"git", "push", "-f"}}},
			`tool=shell command="git push -f"`},
		{"cmd", map[string]any{"tool_name": "exec", "params": map[string]any{"cmd": "ls"}}, `tool=exec command=ls`},
		{"file path", map[string]any{"tool_name": "Write", "params": map[string]any{"file_path": "/etc/passwd", "content": "x"}},
			`tool=Write path=/etc/passwd`},
		{"path param", map[string]any{"tool_name": "read_file", "params": map[string]any{"path": "a b.txt"}},
			`tool=read_file path="a b.txt"`},
		{"url", map[string]any{"tool_name": "WebFetch", "params": map[string]any{"url": "https://example.com/x?a=1"}},
			`tool=WebFetch url="https://example.com/x?a=1"`},
		{"file.save.pre", map[string]any{"path": "/w/main.go", "content": "package main"}, `path=/w/main.go`},
		{"prompt", map[string]any{"session_id": "s", "prompt": "hello\nworld"}, `prompt="hello\nworld"`},
		{"a tool alone", map[string]any{"tool_name": "Glob", "params": map[string]any{"pattern": "*.go"}}, `tool=Glob`},
		{"not text", map[string]any{"tool_name": 7, "params": map[string]any{"command": map[string]any{}}},
			`{"params":{"command":{}},"tool_name":7}`},
		{"argv with a number", map[string]any{"params": map[string]any{"command": []any{"ls", int64(1)}}},
			`{"params":{"command":["ls",1]}}`},
		{"empty command", map[string]any{"tool_name": "Bash", "params": map[string]any{"command": ""}}, `tool=Bash`},
		{"nothing known", map[string]any{"channel": "c", "content": "hi"}, `{"channel":"c","content":"hi"}`},
		{"empty", map[string]any{}, `{}`},
		{"nil", nil, `{}`},
		{"long value", map[string]any{"tool_name": "Bash", "params": map[string]any{"command": long}},
			`tool=Bash command=` + strings.Repeat("é", 100) + "…"},
		{"control characters", map[string]any{"tool_name": "Bash", "params": map[string]any{"command": "a\x1b[2Jb"}},
			`tool=Bash command="a\x1b[2Jb"`},
		{"quotes", map[string]any{"tool_name": "Bash", "params": map[string]any{"command": `echo"x"`}},
			`tool=Bash command="echo\"x\""`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Short(tt.payload); got != tt.want {
				t.Errorf("Short = %s\nwant    %s", got, tt.want)
			}
		})
	}
}

// A long payload with nothing known is cut too, and stays one line.
func TestShortCutsJSON(t *testing.T) {
	got := Short(map[string]any{"content": strings.Repeat("line\n", 100)})
	if strings.Contains(got, "\n") || !strings.HasSuffix(got, "…") || len([]rune(got)) != shortValue+1 {
		t.Errorf("Short = %q", got)
	}
}
