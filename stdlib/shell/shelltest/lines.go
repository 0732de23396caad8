package shelltest

// TypicalLines are shell lines of the kind an agent runs all day: what a
// guard costs on them is what every tool call pays. The destructive
// pack's benchmark (cmd/hookhost) and the Lua conversion benchmark
// (scripting/lua) measure these.
func TypicalLines() []string {
	return []string{
		"git status && go test ./... 2>&1 | tail -20",
		`grep -rn "TODO" src/ | head -50`,
		"cd frontend && npm run build -- --mode production",
		"rm -rf ./build && mkdir -p build && cp -r assets build/",
	}
}
