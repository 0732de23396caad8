// Package tool is the script module "tool": what an agent's tool call
// is, whatever the agent calls its tools and however it shapes their
// parameters, the same in Lua and Starlark.
//
// Every agent hookhost speaks to names its tools its own way: a shell
// command is Bash for Claude Code, run_shell_command for Gemini CLI,
// exec for PicoClaw and OpenClaw, shell for gptme and Codex's model,
// Shell for Cursor, bash for bub and Copilot CLI; the file it writes is
// file_path, path, absolute_path or the first of gptme's args; Codex's
// shell tool sends an argv list such as ["bash", "-lc", "…"] and its
// apply_patch a patch body that names the files. One table ([Agents])
// holds those names, and the functions read calls through it, so that a
// guard written once works for every agent.
//
// # Functions
//
//	kind(tool_name, config?)   "shell", "write", "edit", "patch", "read",
//	                           "fetch", "search", "mcp" or "other". Names
//	                           match case-insensitively; MCP tools
//	                           (mcp__server__tool, mcp_server_tool,
//	                           MCP:tool, server/tool, and for a name not in
//	                           the table server-tool) are "mcp"; any other
//	                           unknown name is "other", never an error.
//	                           config, a pack's settings (ctx.config), adds
//	                           names: the list under "<kind>_tools"
//	                           (shell_tools, write_tools, …, other_tools)
//	                           gives those names that kind, ahead of the
//	                           table.
//	command(params)            the shell line of a shell call: command, cmd
//	                           or script as a string; an argv list
//	                           ["bash", "-lc", LINE] as LINE, any other
//	                           list as its words quoted; gptme's content.
//	                           nil when there is none (or when command
//	                           holds an apply_patch body). params may be
//	                           JSON text holding an object.
//	paths(tool_name, params, cwd?, config?)
//	                           the files a call writes or reads, in order,
//	                           each once: file_path, path, absolute_path,
//	                           filename, notebook_path and kin, paths
//	                           lists, every file of a MultiEdit's edits,
//	                           gptme's first argument, and the files an
//	                           apply_patch body names. Made absolute
//	                           against cwd when it is given (a path
//	                           starting with ~ is left as it is). A shell
//	                           call gives only the files of an apply_patch
//	                           it carries (the shell module finds the
//	                           rest); fetch and search calls give none.
//	mcp(tool_name?)            {server = …, tool = …} of an MCP tool's
//	                           name, or nil.
//
// # Limits
//
// Parameters are anyone's: command and paths read them without
// backtracking, params given as text are decoded only up to the json
// module's size limit, and paths returns at most [MaxPaths] names.
//
// The module holds no state and is safe for concurrent use.
package tool
