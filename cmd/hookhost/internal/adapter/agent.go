package adapter

// An Agent is what hookhost knows of an agent besides its wire: the name
// people know it by and where its hooks are configured. Each dialect
// declares its own (CommandDialect.Agent), the one home of these facts
// for the agent's command, its help and doctor.
type Agent struct {
	// Title is the agent's name for people ("Claude Code").
	Title string
	// SettingsFile is where the block --print-settings prints goes, as
	// the agent's documentation names it (".claude/settings.json",
	// "~/.codex/hooks.json").
	SettingsFile string
	// SettingsFiles lists the files the agent reads hooks from, for the
	// user's home directory and the project's, in the order the agent
	// reads them (a pattern where it reads every file of a directory).
	SettingsFiles func(home, project string) []string
	// ManagedDirs is where an administrator puts the agent's managed
	// settings, by GOOS; nil for an agent without them. ManagedFiles lists
	// the files read from such a directory, in the order the agent merges
	// them (patterns for drop-in directories). Managed settings win over
	// the user's and the project's.
	ManagedDirs  map[string]string
	ManagedFiles func(dir string) []string
	// EventFlag, for an agent whose input does not name its event, lists
	// the names the agent's command accepts for --event; nil for the
	// others.
	EventFlag []string
}
