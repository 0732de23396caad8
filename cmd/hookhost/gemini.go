package main

import (
	"github.com/urfave/cli/v2"

	"github.com/hookhost/hookhost/cmd/hookhost/internal/adapter/gemini"
)

func newGeminiCommand() *cli.Command {
	return newAgentCommand(agentCommand{dialect: gemini.Dialect{}, agent: "Gemini CLI", settings: ".gemini/settings.json"})
}
