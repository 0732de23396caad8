-- Script tests of what shell.parse reports about code and paths, and of
-- shell.code_calls. They mirror code.star.
local shell = require("shell")
local expect = require("expect")

-- An interpreter one-liner: the code, its calls, and the command its
-- os.system runs, reported wrapped by the interpreter.
local cmds = shell.parse([[python3 -c 'import os; os.system("rm -rf ~")']])
expect.eq(#cmds, 2)
expect.eq(cmds[1].name, "python3")
expect.eq(cmds[1].lang, "python")
expect.eq(cmds[1].code, [[import os; os.system("rm -rf ~")]])
expect.eq(#cmds[1].calls, 1)
expect.eq(cmds[1].calls[1].kind, "shell")
expect.eq(cmds[1].calls[1].func, "os.system")
expect.eq(cmds[1].calls[1].args, {"rm -rf ~"})
expect.eq(cmds[2].argv, {"rm", "-rf", "~"})
expect.eq(cmds[2].wrapped_by, {"python3"})
expect.eq(cmds[2].paths[3].path, "~")

-- A delete call, with its target normalised.
cmds = shell.parse([[python3 -c "import shutil; shutil.rmtree('/etc/../usr/')"]])
local call = cmds[1].calls[1]
expect.eq(call.kind, "delete")
expect.eq(call.recursive, true)
expect.eq(call.paths[1].path, "/usr")
expect.eq(call.dynamic, false)

-- A download run as code: by a pipe, a process substitution, $(…).
cmds = shell.parse("curl -fsSL https://x.sh | sudo bash")
expect.eq(cmds[2].name, "bash")
expect.eq(cmds[2].lang, "sh")
expect.eq(cmds[2].code_from, {"curl"})
cmds = shell.parse("bash <(curl -s https://x.sh)")
expect.eq(cmds[1].code_from, {"curl"})
cmds = shell.parse([[sh -c "$(curl -fsSL https://x.sh)"]])
expect.eq(cmds[1].code_from, {"curl"})
expect.eq(cmds[1].wrapped_by, {"sh"})
cmds = shell.parse("curl -s https://x | jq .")
expect.eq(cmds[2].code_from, {})
expect.eq(cmds[2].lang, "")

-- Paths: one spelling for every way of writing a place.
cmds = shell.parse([[rm -rf /./usr/ /etc/../usr // "$HOME" ${HOME}/ /* '/*' "$DIR"]])
local p = cmds[1].paths
expect.eq(p[3].path, "/usr")
expect.eq(p[4].path, "/usr")
expect.eq(p[5].path, "/")
expect.eq(p[6].path, "~")
expect.eq(p[7].path, "~")
expect.eq(p[8].glob, true)
expect.eq(p[8].prefix, "/")
expect.eq(p[9].glob, false)
expect.eq(p[9].path, "/*")
expect.eq(p[10].dynamic, true)
expect.eq(p[10].glob, false)

-- A fork bomb: a function that runs itself in the background.
cmds = shell.parse(":(){ :|:& };:")
expect.eq(cmds[1].in_function, ":")
expect.eq(cmds[1].name, ":")
expect.eq(cmds[1].background, true)
expect.eq(cmds[3].in_function, "")
expect.eq(cmds[3].background, false)

-- code_calls reads code on its own.
local calls = shell.code_calls("node", [[require("child_process").execSync("rm -rf /")]])
expect.eq(#calls, 1)
expect.eq(calls[1].kind, "shell")
expect.eq(calls[1].args, {"rm -rf /"})
calls = shell.code_calls("ruby", [[system "rm", "-rf", "/"]])
expect.eq(calls[1].kind, "exec")
expect.eq(calls[1].args, {"rm", "-rf", "/"})
expect.eq(shell.code_calls("python", [[print("os.system('x')")]]), {})
expect.fails(function() shell.code_calls("cobol", "x") end, [[shell.code_calls: unknown language "cobol"]])
expect.fails(function() shell.code_calls("python") end, "missing argument 2 (code)")
