package main

import (
	"github.com/urfave/cli/v2"

	"github.com/hookhost/hookhost/cmd/hookhost/internal/adapter/codex"
)

func newCodexCommand() *cli.Command {
	return newAgentCommand(agentCommand{dialect: codex.Dialect{}, agent: "Codex CLI", settings: "~/.codex/hooks.json"})
}
