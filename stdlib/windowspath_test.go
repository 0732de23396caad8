package stdlib

import "testing"

func TestWindowsPath(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`C:\Users\dev\proj\.claude\settings.json`, `C:/Users/dev/proj/.claude/settings.json`},
		{`.claude\settings.json.`, `.claude/settings.json`},
		{`C:\Windows. \System32 `, `C:/Windows/System32`},
		{`..\x`, `../x`},
		{`.\...\x`, `./.../x`},
		{`\\?\C:\Windows`, `C:/Windows`},
		{`\\.\c:\x`, `c:/x`},
		{`\??\C:\x`, `C:/x`},
		{`\\?\GLOBALROOT\C:\x`, `C:/x`},
		{`\\?\UNC\server\share\x`, `//server/share/x`},
		{`\\server\share\x`, `//server/share/x`},
		{`\\localhost\C$\Windows`, `C:/Windows`},
		{`\\127.0.0.1\d$`, `D:/`},
		{`\\LOCALHOST\admin$\System32`, `C:/Windows/System32`},
		{`\\127.0.0.1\ADMIN$`, `C:/Windows`},
		{`\\otherhost\C$\x`, `//otherhost/C$/x`},
		{`.env::$DATA`, `.env`},
		{`.env:$data`, `.env`},
		{`C:\Windows::$INDEX_ALLOCATION\x`, `C:/Windows/x`},
		{`C:\Windows:$I30:$INDEX_ALLOCATION`, `C:/Windows`},
		{`notes.txt:hidden`, `notes.txt:hidden`},
		{`SETTIN~1.JSO`, `SETTIN~1.JSO`},
		{`/work/project/a.go`, `/work/project/a.go`},
		{`C:x`, `C:x`},
		{`C:..\x`, `C:../x`},
		{`//localhost/C$/Windows`, `C:/Windows`},
		{`//?/UNC/srv/share`, `//srv/share`},
	} {
		if got := WindowsPath(tc.in); got != tc.want {
			t.Errorf("WindowsPath(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func FuzzWindowsPath(f *testing.F) {
	for _, s := range []string{`\\?\C:\x`, `\\localhost\C$\x`, `a.::$DATA`, `..\.\x. `} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, p string) {
		once := WindowsPath(p)
		if again := WindowsPath(once); again != once {
			t.Errorf("WindowsPath is not idempotent: %q -> %q -> %q", p, once, again)
		}
	})
}
