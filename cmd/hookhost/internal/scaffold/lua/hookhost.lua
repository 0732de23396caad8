---@meta _

-- LuaLS (lua-language-server) definitions for hookhost hook scripts and
-- their tests: the predeclared `hook` global, the standard modules json,
-- re, path, shell, time, log and state, and the expect module of test
-- files. The reference is docs/stdlib.md (modules), docs/scripting.md
-- (hooks, decisions, events) and docs/testing.md (tests).
--
-- This file only describes; it is never run. The files next to it
-- (json.lua, re.lua, ...) let `require("json")` resolve to these classes.
-- `hookhost init` writes them into a new hooks directory's .luals/.
--
-- Every module function raises an error that starts with "module.function: "
-- on a bad argument or a passed limit; catch it with pcall. Lists that
-- modules return start at index 1, an empty list is an empty table, and an
-- empty table passed to a module is an empty map.

---Any value that travels between scripts and the host: nil, boolean,
---number, string, or a table of them (a list when its keys are exactly
---1..n, otherwise a map with string keys), nested at most 512 levels.
---@alias hookhost.Value nil|boolean|number|string|table

---A duration: a Go duration string ("250ms", "30s", "1m30s", "2h"; no
---days) or an integer number of milliseconds. Never negative.
---@alias hookhost.Duration string|integer

--------------------------------------------------------------------------
-- hook: the predeclared global
--------------------------------------------------------------------------

---An event name: the agent catalog, or a custom event the operator
---declares in hookhost.yaml.
---@alias hook.Event
---| '"session.start"'     # session_id, workspace, source (collect: message)
---| '"session.end"'       # session_id, reason (observe)
---| '"turn.pre"'          # session_id, prompt (chain: modify, deny, respond, message)
---| '"turn.post"'         # session_id, response (collect: message)
---| '"loop.continue"'     # session_id, response (first: allow keeps going, deny stops)
---| '"generation.pre"'    # model, messages, tools, options (chain: modify, respond, message, abort_turn, hard_abort)
---| '"generation.post"'   # model, response (chain: modify, message, abort_turn, hard_abort)
---| '"tool.execute.pre"'  # tool_name, params, session_id, cwd (chain: allow, deny, ask, modify, respond, message, abort_turn, hard_abort)
---| '"tool.approve"'      # tool_name, params, session_id (first: allow, deny, ask; fails closed)
---| '"tool.execute.post"' # tool_name, params, result, error, duration_ms (chain: modify, message, abort_turn, hard_abort)
---| '"file.save.pre"'     # path, content (chain: allow, deny, modify)
---| '"file.save.post"'    # path (observe)
---| '"message.sending"'   # channel, content (chain: modify, deny cancels)
---| '"message.received"'  # channel, content, sender (observe)
---| '"notification"'      # message, kind (observe)
---| '"runtime.event"'     # kind, source, scope, payload (observe)
---| '"error"'             # stage, error (observe)
---| string                # a custom event from the operator's config

---@alias hook.Action
---| '"continue"'   # no decision (the same as returning nil)
---| '"allow"'      # explicitly allow
---| '"deny"'       # refuse
---| '"ask"'        # a human must approve
---| '"modify"'     # replace top-level payload fields
---| '"respond"'    # skip the real action and use this result
---| '"abort_turn"' # end the agent's turn
---| '"hard_abort"' # stop the agent

---A message added to the conversation.
---@class hook.Message
---@field role? string  "system" (the default), "user", "assistant", ...
---@field content string

---The options of hook.ask: how the approval is presented and what happens
---when nobody answers.
---@class hook.AskOptions
---@field title? string
---@field severity? string  e.g. "low", "high"
---@field timeout? hookhost.Duration  how long to wait for a human
---@field timeout_behavior? "allow"|"deny"  when nobody answers in time; default "deny"

---What a hook returns: built by a constructor (hook.deny(...)) or written
---by hand as a table. Returning nil means no decision.
---@class hook.Decision
---@field action? hook.Action
---@field reason? string
---@field fields? table<string, any>  with action "modify": the top-level payload fields to replace
---@field result? any  with action "respond": the result to use instead of the real action
---@field approval? hook.AskOptions  with action "ask"
---@field messages? hook.Message[]  messages to add to the conversation
---@field stop? boolean  stop propagation: no lower-priority hook of this event runs

---The options of hook.on.
---@class hook.Options
---@field name? string  the hook's name; its id is "file:name". Default: the line of the hook.on call
---@field priority? integer  higher runs first; default 0
---@field timeout? hookhost.Duration  this hook's budget per call; at most 10 minutes
---@field enabled? boolean  false registers the hook switched off; default true

---The reserved parameter `ctx`: a hook that names a parameter `ctx` gets
---this read-only table. Annotate it with `---@param ctx hook.Context`.
---@class hook.Context
---@field event string  the event being fired
---@field hook string  the hook's id ("guard.lua:no-rm-root")
---@field config table<string, any>  the operator's config for this hook; {} when none
---@field timeout_ms integer  this call's budget in milliseconds
---@field hooks_dir string  the absolute path of the directory the hooks are loaded from; "" for in-memory scripts

---The predeclared global of every hook file: registration and decision
---constructors. Each constructor returns the same table a script could
---write by hand.
---@class hook
hook = {}

---Registers `fn` for `event`. Call it only at the top level of a file.
---Each parameter of `fn` gets the payload field of the same name (by
---name, never by position; absent fields give nil); a parameter named
---`ctx` gets the hook.Context; a vararg function gets the whole payload as
---one table after its named parameters. An unknown event or option is a
---load error of the file.
---@param event hook.Event
---@param fn fun(...): hook.Decision?
---@param opts? hook.Options
function hook.on(event, fn, opts) end

---Explicitly allow, with an optional reason.
---@param reason? string
---@return hook.Decision
function hook.allow(reason) end

---Refuse. For message.sending it cancels the message; for loop.continue
---it lets the agent stop.
---@param reason string
---@return hook.Decision
function hook.deny(reason) end

---A human must approve. An unknown option is an error.
---@param reason string
---@param opts? hook.AskOptions
---@return hook.Decision
function hook.ask(reason, opts) end

---The decision of a verdict an operator set (a pack's verdicts setting,
---see setting.verdicts): "deny" is hook.deny(reason), "ask" is
---hook.ask(reason, opts), "allow" and nil are no decision. Another value
---is an error.
---@param verdict? '"deny"'|'"ask"'|'"allow"'
---@param reason string
---@param opts? hook.AskOptions
---@return hook.Decision|nil
function hook.verdict(verdict, reason, opts) end

---Replace these top-level payload fields (not a deep merge).
---@param fields table<string, any>
---@return hook.Decision
function hook.modify(fields) end

---Skip the real action and use this result.
---@param result any
---@return hook.Decision
function hook.respond(result) end

---End the agent's turn.
---@param reason string
---@return hook.Decision
function hook.abort_turn(reason) end

---Stop the agent.
---@param reason string
---@return hook.Decision
function hook.hard_abort(reason) end

---Add a message to the conversation. `text` may also be a list of
---strings (system messages) and {role, content} tables.
---@param text string|(string|hook.Message)[]
---@param role? string  default "system"
---@return hook.Decision
function hook.message(text, role) end

---Stop propagation: no lower-priority hook of this event runs. The
---decision, if given, is returned with stop = true.
---@param decision? hook.Decision
---@return hook.Decision
function hook.stop(decision) end

---One hook that ran during a fire.
---@class hook.TraceEntry
---@field hook string  the hook's id
---@field priority integer  the priority it ran with
---@field outcome "none"|"decision"|"stop"|"error"|"timeout"
---@field action? hook.Action  the action it returned
---@field duration_ms number
---@field error? string  what went wrong, for error and timeout

---What hook.fire returns: the folded decision's fields, the payload after
---folding, the messages and the trace (the fire --json object, with the
---decision's fields at the top).
---@class hook.FireResult
---@field event string
---@field action hook.Action
---@field reason string  "" when none
---@field hook string  the id of the hook whose action became final; "" when none decided
---@field result? any  with action "respond"
---@field approval? {title?: string, severity?: string, timeout_ms?: integer, timeout_behavior: "allow"|"deny"}  with action "ask"
---@field payload table<string, any>
---@field messages hook.Message[]
---@field trace hook.TraceEntry[]

---The options of hook.fire.
---@class hook.FireOptions
---@field allow_hook_errors? boolean  let the fire succeed although a hook failed or timed out (to test an event that fails closed)

---Test files only (*_test.lua, run by `hookhost test`): fires `event` with
---`payload` through the real hooks of the directory under test and returns
---the result. A hook that fails or times out during the fire raises an
---error unless opts.allow_hook_errors is set; so do an unknown event and
---a payload that is not a table. In a hook file it raises "only test
---files ... can fire events". Call it inside a test_ function.
---@param event hook.Event
---@param payload? table<string, any>
---@param opts? hook.FireOptions
---@return hook.FireResult
function hook.fire(event, payload, opts) end

--------------------------------------------------------------------------
-- json: local json = require("json")
--------------------------------------------------------------------------

---JSON text to values and back. Limits: 4 MiB of text, 512 levels.
---@class json
local json = {}

---`value` as JSON text: map keys sorted, compact unless `indent` (0 to 16
---spaces) is given, <, > and & not escaped. An empty table encodes as {}
---(Lua cannot express an empty list), and a whole number as an integer.
---Errors on NaN, infinities, functions, cycles, nesting past 512 levels
---and output past 4 MiB.
---@param value hookhost.Value
---@param indent? integer
---@return string
function json.encode(value, indent) end

---The value `text` describes. Arrays become lists (from index 1), objects
---tables, null nil (a null in an array leaves a hole). Errors say where the
---text is wrong: "json.decode: line 1, column 7: found '}', want a value".
---@param text string
---@return any
function json.decode(text) end

--------------------------------------------------------------------------
-- re: local re = require("re")
--------------------------------------------------------------------------

---The first match of re.find_groups.
---@class re.Groups
---@field match string  the text of the whole match
---@field groups string[]  each group's text, group 1 at index 1; "" for a group that took no part
---@field named table<string, string>  each named group's text

---Regular expressions in Go's RE2 syntax: linear time, cached, no
---backreferences or lookaround. Pattern first, text second. Limits:
---patterns 4 KiB, texts 4 MiB, 65536 matches. A bad pattern is an error
---naming it.
---@class re
local re = {}

---Whether `pattern` matches anywhere in `text` (anchor with ^...$).
---@param pattern string
---@param text string
---@return boolean
function re.match(pattern, text) end

---The text of the first match, or nil.
---@param pattern string
---@param text string
---@return string?
function re.find(pattern, text) end

---The first match with its groups, or nil.
---@param pattern string
---@param text string
---@return re.Groups?
function re.find_groups(pattern, text) end

---The texts of successive non-overlapping matches; at most `n` when
---n >= 0.
---@param pattern string
---@param text string
---@param n? integer
---@return string[]
function re.find_all(pattern, text, n) end

---`text` with each match (the first `n` when n >= 0) replaced by `repl`,
---in which $1 / ${1} is a group, ${name} a named group, $0 the whole
---match and $$ a "$".
---@param pattern string
---@param text string
---@param repl string
---@param n? integer
---@return string
function re.replace(pattern, text, repl, n) end

---The pieces of `text` between matches; at most `n` pieces when n >= 0,
---the last holding the rest.
---@param pattern string
---@param text string
---@param n? integer
---@return string[]
function re.split(pattern, text, n) end

---`text` with every metacharacter escaped, so that it matches itself.
---@param text string
---@return string
function re.escape(text) end

--------------------------------------------------------------------------
-- path: local path = require("path")
--------------------------------------------------------------------------

---Slash-separated POSIX paths, handled lexically: no file system access,
---no symlinks resolved, "~" not expanded unless by expand_home.
---@class path
local path = {}

---The shortest equivalent path: no //, no . elements, .. resolved
---lexically, no trailing slash; "" is ".".
---@param p string
---@return string
function path.clean(p) end

---2 to 8 elements joined with "/" and cleaned. A later absolute element
---does not restart the path (join("/ws", "/etc") is "/ws/etc"); use
---path.abs for that. A nil before a given element is an error.
---@param elem1 string
---@param elem2 string
---@param ... string
---@return string
function path.join(elem1, elem2, ...) end

---The last element of `p` ("b.txt" for "/a/b.txt").
---@param p string
---@return string
function path.base(p) end

---All but the last element of `p`, cleaned ("/a" for "/a/b.txt").
---@param p string
---@return string
function path.dir(p) end

---The extension of the last element, with its dot (".gz"), or "".
---@param p string
---@return string
function path.ext(p) end

---`p` made absolute against the absolute directory `cwd`, and cleaned.
---@param p string
---@param cwd string  must be absolute
---@return string
function path.abs(p, cwd) end

---A relative path from `base` to `target`; an error when there is none.
---@param base string
---@param target string
---@return string
function path.rel(base, target) end

---Whether `p` is `root` or below it, resolved lexically. A relative `p` is
---taken relative to `root`; an empty `p` is an error.
---@param root string  must be absolute
---@param p string
---@return boolean
function path.is_within(root, p) end

---Whether the cleaned `p` matches `pattern` as a whole: *, ?, [a-z],
---{a,b}, and ** across directories ("/etc/**", "**/*.pem").
---@param pattern string
---@param p string
---@return boolean
function path.glob(pattern, p) end

---`p` with a leading "~" or "~/" replaced by `home`; "~user" is left alone.
---@param p string
---@param home string  must be absolute
---@return string
function path.expand_home(p, home) end

---`p` as Windows reads it, with slashes: `\\?\C:\x` and `\\localhost\C$\x` are
---"C:/x", `x::$DATA` is "x", and the dots and spaces that end a name are
---dropped. Case, `..` and short 8.3 names are kept.
---@param p string
---@return string
function path.windows(p) end

--------------------------------------------------------------------------
-- shell: local shell = require("shell")
--------------------------------------------------------------------------

---One redirection of a command.
---@class shell.Redirect
---@field op string  as written: ">", ">>", "<", "<>", ">&", "<&", ">|", "&>", "&>>", "<<", "<<-", "<<<"
---@field fd integer  the descriptor: as written, else 0 for input and 1 for output; -1 for {var}>
---@field target string  the file or descriptor (as written when dynamic), a here-string's text or a here-document's body

---One simple command a line would run.
---@class shell.Command
---@field name string  the base name of argv[1] ("rm" for /bin/rm)
---@field argv string[]  the command and its arguments (argv[1] is the program), quotes removed, braces expanded, wrappers stripped; a dynamic word is its source text
---@field wrapped_by string[]  the wrappers, outermost first ("sudo", "bash" for bash -c, "xargs", ...)
---@field redirects shell.Redirect[]  its own, then those of enclosing blocks and wrappers
---@field pipeline integer  which pipeline, from 0
---@field position integer  its place in the pipeline, from 0; above 0 reads the previous command's output
---@field dynamic boolean  a word holds a variable, ~, a glob or a substitution, or it runs under xargs / find -exec
---@field paths shell.Path[]  each word of argv read as a path: paths[i] is argv[i]'s
---@field in_function string  the shell function whose body holds it ("" outside any)
---@field background boolean  it, or its pipeline or list, runs with &
---@field code_from string[]  names of the commands whose output it runs as code (curl … | sh, bash <(curl …), sh -c "$(curl …)")
---@field lang string  for a shell or interpreter reported itself: "sh", "python", "perl", "ruby", "node", "php" or "lua"; else ""
---@field code string  the code an interpreter runs from its command line (python -c, perl -e) or a here-document; else ""
---@field calls shell.Call[]  the calls in code that delete files or run commands
---@field roles string[]  what the program does with each word: "name", "option", "value", "pattern", "code", "data", "subcommand", "command" or "operand"; roles[i] is argv[i]'s
---@field dir string  where it runs as far as the line says, relative to where the line starts: "" there, a path after the cd commands before it in the same shell, "?" when the line cannot tell
---@field alt_dirs string[]  where else it runs when a cd before it fails and the line goes on (cd /tmp/gone; rm -rf *)

---One word of a command read as a path, normalised lexically.
---@class shell.Path
---@field path string  cleaned: /./usr/, /etc/../usr and //usr are "/usr"; ~, $HOME, ${HOME} are "~"; $PWD is "."; relative stays relative
---@field prefix string  the part before the first element with an unquoted glob ("/" for /*, "/usr" for /usr/lib*); path itself without one
---@field glob boolean  an unquoted *, ? or [...]
---@field dynamic boolean  a part known only at run time remains ($DIR, $(…)), or it climbs out of ~ (~/..)

---A call in interpreter code that deletes files or runs a command.
---@class shell.Call
---@field kind "delete"|"shell"|"exec"  delete: args are paths it removes; shell: args[1] is a command line; exec: args is an argv
---@field func string  as written: "shutil.rmtree", "os.system", "FileUtils.rm_rf"; "`", "qx" or "%x" for those quotes
---@field args string[]  string literals' values (lists flattened), a home directory expression as "~", anything else as written
---@field paths shell.Path[]  for a delete: args read as paths; else empty
---@field recursive boolean  a delete of whole trees (rmtree, rm_rf, rmSync with recursive)
---@field dynamic boolean  an argument is not a literal

---Parses shell command lines (bash syntax) into the simple commands they
---would run, through pipes, lists, subshells, substitutions, functions,
---here-documents, bash -c / sh -c scripts and wrappers such as sudo, env,
---nice, timeout and xargs. Limits: 16 KiB lines, 100 levels of nesting,
---8 levels of nested scripts, 1024 commands; past them, an error.
---@class shell
---@field max_line_bytes integer  the longest line parse reads (16384): a bound on the work one check may do
---@field shells string[]  the shells whose -c script or standard input parse reads (sh, bash, dash, zsh, …)
---@field copiers string[]  the programs whose copies parse follows (cp, install, link, ln, mv, objcopy, rsync, strip)
---@field windows_shells table<string, string>  the programs that start PowerShell or cmd.exe, lower-cased, each with "powershell" or "cmd"
local shell = {}

---The commands `line` would run, in source order (the first at index 1).
---A line that does not parse, or is longer than shell.max_line_bytes, is
---an error: catch it with pcall, and ask rather than let it through.
---@param line string
---@return shell.Command[]
function shell.parse(line) end

---For a line that does not parse whole: the commands of its lines, and of
---the parts between unquoted ;, && and || of a line, that do parse, and
---the parts that do not. A line that parses gives its commands and no
---unparsed part. Longer than shell.max_line_bytes: an error.
---@param line string
---@return {commands: shell.Command[], unparsed: string[]}
function shell.salvage(line) end

---A PowerShell line rewritten as the POSIX line that runs the same
---commands on the same paths, for shell.parse: backslashes made slashes,
---$env:USERPROFILE as ~, $x = CMD as CMD, script blocks' statements on
---lines of their own. Longer than shell.max_line_bytes: an error.
---@param line string
---@return string
function shell.powershell(line) end

---The shell words of `line` after quote removal, nothing expanded. An
---operator (|, ;, &&, >) is an error.
---@param line string
---@return string[]
function shell.split(line) end

---Whether a command passes a flag: `short` is one character ("r" or "-r"),
---`long` a name ("recursive" or "--recursive"); give either or both (pass
---nil for `short` to give only `long`). Case-sensitive; understands
---combined short flags (-rf), prefixes of long ones (--rec), flags after
---operands, and stops at "--". It sees static words only: check
---cmd.dynamic too.
---@param cmd shell.Command|string[]
---@param short? string
---@param long? string
---@return boolean
function shell.has_flag(cmd, short, long) end

---The role of each word of argv, as shell.parse gives them in a
---command's roles: for a command a guard builds itself (the words after
---a launcher it does not know).
---@param argv shell.Command|string[]
---@return string[]
function shell.roles(argv) end

---The calls in `code`, a program in `lang` ("python", "perl", "ruby",
---"node", "php" or "lua"), that delete files or run commands, in source
---order. A scanner, not a parser: code built at run time is not seen.
---An unknown language, code over 16 KiB or more than 64 such calls is
---an error.
---@param lang string
---@param code string
---@return shell.Call[]
function shell.code_calls(lang, code) end

--------------------------------------------------------------------------
-- tool: local tool = require("tool")
--------------------------------------------------------------------------

---@alias tool.Kind
---| '"shell"'  # runs a shell line (Bash, run_shell_command, exec, shell, …)
---| '"write"'  # creates or overwrites a file (Write, write_file, create, save, …)
---| '"edit"'   # changes part of a file (Edit, MultiEdit, replace, edit_file, …)
---| '"patch"'  # applies a patch body naming its files (apply_patch)
---| '"read"'   # reads, lists or searches local files (Read, read_file, Grep, …)
---| '"fetch"'  # fetches a URL (WebFetch, web_fetch, …)
---| '"search"' # searches the web (WebSearch, google_web_search, …)
---| '"mcp"'    # an MCP server's tool (mcp__server__tool, mcp_server_tool, MCP:tool)
---| '"other"'  # anything else, including every unknown name

---@class tool.MCPName
---@field server string the server ("" for Cursor's MCP:tool)
---@field tool string the tool's own name

---What an agent's tool call is, whatever the agent calls its tools. One
---table knows the tool names of every agent hookhost speaks to (see
---docs/stdlib.md#tool).
---@class tool
local tool = {}

---The kind of a tool, matched case-insensitively; unknown names are
---"other", never an error. `config` (a pack's ctx.config) adds names: the
---list under "<kind>_tools" (shell_tools, write_tools, …, other_tools).
---@param tool_name? string
---@param config? table
---@return tool.Kind
function tool.kind(tool_name, config) end

---The shell line of a shell call: params.command, cmd or script as a
---string; an argv list such as {"bash", "-lc", LINE} as LINE, any other
---list as its words quoted; gptme's content. nil when there is none.
---@param params? table|string
---@return string|nil
function tool.command(params) end

---Which shell runs a shell tool's lines: "powershell" (Copilot CLI's
---powershell tool: backslashes are path separators there), "sh" for any
---other shell tool (config's shell_tools too), nil for a tool that is not
---a shell.
---@param tool_name? string
---@param config? table
---@return "powershell"|"sh"|nil
function tool.shell(tool_name, config) end

---The directory a shell call says it runs in, as given (relative to the
---payload's cwd when not absolute): workdir, working_directory,
---dir_path, directory or cwd, whichever its agent uses. nil when none.
---@param params? table|string
---@return string|nil
function tool.dir(params) end

---The files a call writes or reads, each once, absolute against `cwd`
---when given (a path starting with ~ is kept as written): file_path,
---path, absolute_path, filename, notebook_path and kin, MultiEdit's
---edits, gptme's first argument, and the files of an apply_patch body.
---@param tool_name? string
---@param params? table|string
---@param cwd? string
---@param config? table
---@return string[]
function tool.paths(tool_name, params, cwd, config) end

---The server and tool of an MCP tool's name, or nil.
---@param tool_name? string
---@return tool.MCPName|nil
function tool.mcp(tool_name) end

--------------------------------------------------------------------------
-- setting: local setting = require("setting")
--------------------------------------------------------------------------

---Checks of a pack's settings that more than one pack makes. A setting a
---guard cannot use is an error, never ignored (see docs/stdlib.md#setting).
---@class setting
local setting = {}

---`value` (a pack's ctx.config.verdicts), a map of name to "deny", "ask"
---or "allow", checked against the names the pack knows: an unknown name
---or verdict is an error naming the choices. nil gives an empty map. `of`
---says what a name is, for the message ("theme"; default "name").
---@param value? table<string, '"deny"'|'"ask"'|'"allow"'>
---@param names string[]
---@param of? string
---@return table<string, '"deny"'|'"ask"'|'"allow"'>
function setting.verdicts(value, names, of) end

--------------------------------------------------------------------------
-- time: local time = require("time")
--------------------------------------------------------------------------

---A layout for time.format: a name, or a Go layout in terms of
---"Mon Jan 2 15:04:05 2006" (at most 128 bytes).
---@alias time.Layout
---| '"rfc3339"'   # 2006-01-02T15:04:05Z (the default)
---| '"rfc3339ms"' # 2006-01-02T15:04:05.000Z
---| '"date"'      # 2006-01-02
---| '"time"'      # 15:04:05
---| '"datetime"'  # 2006-01-02 15:04:05
---| string        # a Go layout, such as "15" (the hour) or "Mon" (the weekday)

---The host's clock. Points in time are integers, Unix milliseconds (UTC);
---durations are integer milliseconds.
---@class time
local time = {}

---The current time in Unix milliseconds.
---@return integer
function time.now() end

---`d` in milliseconds: "1m30s" is 90000. Negative durations are an error.
---@param d hookhost.Duration
---@return integer
function time.parse_duration(d) end

---Milliseconds from `t` (Unix milliseconds) to now; negative for a future t.
---@param t integer
---@return integer
function time.since(t) end

---`t` (Unix milliseconds) as UTC text. An unknown name ("iso") or a layout
---with no time fields is an error.
---@param t integer
---@param layout? time.Layout
---@return string
function time.format(t, layout) end

--------------------------------------------------------------------------
-- log: local log = require("log")
--------------------------------------------------------------------------

---Structured logging into the host's log. Every line carries hook=<id>,
---then the attributes sorted by key. Messages are cut at 4096 bytes,
---values at 1024, attributes after the first 32; the key "hook" is
---reserved (an error).
---@class log
local log = {}

---Logs `msg` at debug level with the attributes of `attrs`.
---@param msg string
---@param attrs? table<string, any>
function log.debug(msg, attrs) end

---Logs `msg` at info level with the attributes of `attrs`.
---@param msg string
---@param attrs? table<string, any>
function log.info(msg, attrs) end

---Logs `msg` at warn level with the attributes of `attrs`.
---@param msg string
---@param attrs? table<string, any>
function log.warn(msg, attrs) end

---Logs `msg` at error level with the attributes of `attrs`.
---@param msg string
---@param attrs? table<string, any>
function log.error(msg, attrs) end

--------------------------------------------------------------------------
-- state: local state = require("state")
--------------------------------------------------------------------------

---The outcome of state.rate.
---@class state.Rate
---@field allowed boolean  whether this event fits in the window (only allowed events are counted)
---@field remaining integer  how many more events the window allows now
---@field reset_ms integer  milliseconds until the oldest counted event leaves the window

---A key-value store shared by all hooks of one host, in memory only (lost
---on restart). Keys: non-empty, at most 256 bytes. Values: at most 64 KiB
---as JSON; 10000 keys and 32 MiB in all. Values are copied in and out.
---@class state
local state = {}

---The value under `key`, or nil when absent or expired. An error if the
---key holds a rate window.
---@param key string
---@return any
function state.get(key) end

---Stores a copy of `value` under `key`, expiring after `ttl` if given; a
---nil value deletes the key.
---@param key string
---@param value hookhost.Value
---@param ttl? hookhost.Duration  positive
function state.set(key, value, ttl) end

---Removes `key`; true if it held anything.
---@param key string
---@return boolean
function state.delete(key) end

---Adds `by` (default 1) to the integer under `key` and returns the sum. An
---absent key counts from 0 and gets `ttl`; an existing one keeps its
---expiry. An error if the key holds anything but an integer.
---@param key string
---@param by? integer
---@param ttl? hookhost.Duration
---@return integer
function state.incr(key, by, ttl) end

---Counts one event if fewer than `limit` (1 to 10000) were counted in the
---last `window` (a sliding window).
---@param key string
---@param limit integer
---@param window hookhost.Duration
---@return state.Rate
function state.rate(key, limit, window) end

--------------------------------------------------------------------------
-- expect: local expect = require("expect")  (test files only)
--------------------------------------------------------------------------

---Assertions for test files. Each returns nothing when it holds and
---raises an error starting with "expect.<name>: " when it does not; the
---optional `msg` is put in front of the error's text. Values compare as
---the host sees them (a whole number equals its float, tables by content).
---@class expect
local expect = {}

---`got` equals `want`.
---@param got any
---@param want any
---@param msg? string
function expect.eq(got, want, msg) end

---`got` differs from `unwanted`.
---@param got any
---@param unwanted any
---@param msg? string
function expect.ne(got, unwanted, msg) end

---`value` is true: not nil, false, 0, "" or an empty table.
---@param value any
---@param msg? string
function expect.truthy(value, msg) end

---`value` is false: nil, false, 0, "" or an empty table.
---@param value any
---@param msg? string
function expect.falsy(value, msg) end

---`value` contains `part`: a substring of a string, an element of a list,
---a key of a map.
---@param value string|table
---@param part any
---@param msg? string
function expect.contains(value, part, msg) end

---The fire's decision is `action` ("deny", "allow", "continue", ...).
---@param result hook.FireResult
---@param action hook.Action
---@param msg? string
function expect.action(result, action, msg) end

---The decision's reason contains `text`.
---@param result hook.FireResult
---@param text string
---@param msg? string
function expect.reason_contains(result, text, msg) end

---The decision is hook `id`'s ("guard.lua:no-rm-root").
---@param result hook.FireResult
---@param id string
---@param msg? string
function expect.hook(result, id, msg) end

---Hook `id` ran during the fire (it is in the trace).
---@param result hook.FireResult
---@param id string
---@param msg? string
function expect.ran(result, id, msg) end

---A message the hooks added contains `text`.
---@param result hook.FireResult
---@param text string
---@param msg? string
function expect.message_contains(result, text, msg) end

---Calling `fn` raises an error whose message contains `text`.
---@param fn fun()
---@param text? string
function expect.fails(fn, text) end
