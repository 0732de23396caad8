// The plugin through OpenClaw itself: `openclaw plugins install --link`
// into a temporary home, `plugins inspect --runtime --json` showing it
// loaded with its hooks, and real `openclaw agent --local` turns against a
// fake OpenAI-compatible model (fake_model.js) that calls `exec`, with a
// real hookhost serve deciding. run.sh installs OpenClaw and Node 24 and
// sets HOOKHOST_OPENCLAW_NODE and HOOKHOST_OPENCLAW_ENTRY; without them
// this test fails under CI=true and skips otherwise.

import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { after, before, describe, test } from "node:test";

import { startFakeModel } from "./fake_model.js";
import { HERE, PLUGIN_DIR, freeDeadUrl, startServe } from "./support.js";

const NODE = process.env.HOOKHOST_OPENCLAW_NODE;
const ENTRY = process.env.HOOKHOST_OPENCLAW_ENTRY;
const MISSING = NODE && ENTRY ? "" : "OpenClaw is not installed: run tests/run.sh (it installs Node 24 and OpenClaw)";
if (MISSING && process.env.CI === "true") {
  throw new Error(`${MISSING}; under CI=true this test must run`);
}

// OpenClaw is slow to start on a busy machine: generous bounds, never
// asserted on.
const COMMAND_TIMEOUT_MS = 15 * 60 * 1000;

const E2E_GUARD = join(HERE, "e2e_guard.lua");

describe("through OpenClaw's loader and hook runner", { skip: MISSING || false }, () => {
  let home;
  let work;
  let model;
  let serve;

  /** Run `openclaw ARGS` with the temporary home; resolves to {code, stdout, stderr}. */
  function openclaw(args) {
    const env = {
      PATH: `${dirname(NODE)}:${process.env.PATH}`,
      HOME: home,
      TMPDIR: process.env.TMPDIR ?? tmpdir(),
      LANG: "C.UTF-8",
      NO_COLOR: "1",
    };
    return new Promise((resolve, reject) => {
      const child = spawn(NODE, [ENTRY, ...args], { env, cwd: home, stdio: ["ignore", "pipe", "pipe"] });
      let stdout = "";
      let stderr = "";
      child.stdout.on("data", (d) => (stdout += d));
      child.stderr.on("data", (d) => (stderr += d));
      const timer = setTimeout(() => child.kill("SIGKILL"), COMMAND_TIMEOUT_MS);
      child.on("error", reject);
      child.on("close", (code, signal) => {
        clearTimeout(timer);
        resolve({ code, signal, stdout, stderr });
      });
    });
  }

  function configure(hookhostConfig) {
    const path = join(home, ".openclaw", "openclaw.json");
    const cfg = JSON.parse(readFileSync(path, "utf8"));
    cfg.models = {
      mode: "replace",
      providers: {
        fake: {
          baseUrl: model.url,
          apiKey: "fake-key",
          api: "openai-completions",
          models: [
            {
              id: "fake-model",
              name: "Fake model",
              reasoning: false,
              input: ["text"],
              cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
              contextWindow: 128000,
              maxTokens: 4096,
            },
          ],
        },
      },
    };
    cfg.agents = { defaults: { model: { primary: "fake/fake-model" }, workspace: join(home, "workspace") } };
    cfg.plugins.entries.hookhost.config = hookhostConfig;
    writeFileSync(path, JSON.stringify(cfg, null, 2));
  }

  let turns = 0;
  /** One `openclaw agent --local` turn in which the model runs `commands` with exec. */
  async function turn(commands) {
    model.state.commands = commands;
    model.state.requests.length = 0;
    turns += 1;
    const res = await openclaw([
      "agent", "--local", "--agent", "main", "--session-id", `hookhost-e2e-${turns}`, "--message", "run the commands", "--json",
    ]);
    assert.equal(res.code, 0, `openclaw agent exited ${res.code} ${res.signal ?? ""}:\n${res.stderr.slice(-4000)}`);
    return model.toolResults();
  }

  before(async () => {
    home = mkdtempSync(join(tmpdir(), "hookhost-openclaw-"));
    work = join(home, "marks");
    mkdirSync(work);
    mkdirSync(join(home, "workspace"));
    model = await startFakeModel();
    serve = await startServe({ token: "e2e-token", guards: [E2E_GUARD] });
  });

  after(async () => {
    await model?.close();
    await serve?.close();
    if (home) rmSync(home, { recursive: true, force: true });
  });

  test("plugins install --link accepts the plugin", async () => {
    const res = await openclaw(["plugins", "install", "--link", PLUGIN_DIR, "--force", "--accept-capabilities"]);
    assert.equal(res.code, 0, res.stdout + res.stderr);
    assert.match(res.stdout + res.stderr, /Linked plugin path: /);
    const path = join(home, ".openclaw", "openclaw.json");
    const cfg = JSON.parse(readFileSync(path, "utf8"));
    assert.equal(cfg.plugins.entries.hookhost.enabled, true);
    assert.ok(cfg.plugins.load.paths.includes(PLUGIN_DIR), JSON.stringify(cfg.plugins));
    // Only this plugin from here on: OpenClaw's other bundled plugins
    // (memory, channels, providers) have nothing to do in these tests and
    // make every command much slower.
    cfg.plugins.allow = ["hookhost"];
    writeFileSync(path, JSON.stringify(cfg, null, 2));
  });

  test("plugins inspect --runtime shows it loaded with its hooks", async () => {
    const res = await openclaw(["plugins", "inspect", "hookhost", "--runtime", "--json"]);
    assert.equal(res.code, 0, res.stderr);
    const report = JSON.parse(res.stdout);
    assert.equal(report.plugin.id, "hookhost");
    assert.equal(report.plugin.status, "loaded");
    assert.equal(report.plugin.rootDir, PLUGIN_DIR);
    assert.equal(report.shape, "hook-only");
    assert.deepEqual(report.plugin.dependencyStatus.dependencies, []);
    const hooks = Object.fromEntries(report.typedHooks.map((h) => [h.name, h.priority]));
    assert.deepEqual(hooks, { after_tool_call: 1000, before_tool_call: 1000, session_end: 1000, session_start: 1000 });
  });

  test("an agent turn: allowed exec runs, denied is blocked with the reason, modify runs the rewritten command, ask is not approved headless", async () => {
    configure({ url: serve.url, token: "e2e-token" });
    const allowed = join(work, "allowed.txt");
    const denied = join(work, "denied.txt");
    const modified = join(work, "modified.txt");
    const asked = join(work, "asked.txt");
    const results = await turn([
      `echo allowed-by-hookhost > ${allowed}`,
      `echo hookhost-deny-me > ${denied}`,
      `echo hookhost-modify-me > ${modified}`,
      `echo hookhost-ask-me > ${asked}`,
    ]);
    assert.equal(results.length, 4, JSON.stringify(results));
    assert.equal(readFileSync(allowed, "utf8").trim(), "allowed-by-hookhost");
    assert.ok(!existsSync(denied), "the denied command ran");
    assert.match(results[1], /denied by the e2e hook/);
    assert.equal(readFileSync(modified, "utf8").trim(), "rewritten-by-hookhost");
    // Nobody can approve in a non-interactive `agent --local` run.
    assert.ok(!existsSync(asked), "the command hookhost asked about ran unapproved");
    assert.match(results[3], /approval/i);
  });

  test("nothing runs when hookhost is down", async () => {
    const dead = await freeDeadUrl();
    configure({ url: dead, token: "e2e-token" });
    const down = join(work, "down.txt");
    const results = await turn([`echo ran-without-hookhost > ${down}`]);
    assert.ok(!existsSync(down), "a command ran while hookhost was down");
    assert.equal(results.length, 1, JSON.stringify(results));
    assert.match(results[0], new RegExp(`hookhost is not reachable at ${dead.replaceAll(".", "\\.")}`));
  });
});
