package main

import (
	"github.com/urfave/cli/v2"

	"github.com/hookhost/hookhost/cmd/hookhost/internal/adapter/claude"
)

func newClaudeCommand() *cli.Command {
	return newAgentCommand(agentCommand{dialect: claude.Dialect{}, agent: "Claude Code", settings: ".claude/settings.json"})
}
