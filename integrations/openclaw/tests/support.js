// Test support for the OpenClaw bridge: a real `hookhost serve` built
// from this checkout ($HOOKHOST_BIN when set, as .ci/run does; else
// `go build` into a temporary directory), a fake server for answers serve
// never gives, and the refused-answer table every bridge's tests share
// (integrations/testsupport/refused_answers.json).

import { execFileSync, spawn } from "node:child_process";
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { createServer as createNetServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";

export const HERE = dirname(fileURLToPath(import.meta.url));
export const PLUGIN_DIR = resolve(HERE, "..");
export const REPO = resolve(HERE, "../../..");
export const TESTSUPPORT = join(REPO, "integrations", "testsupport");
export const GUARD = join(TESTSUPPORT, "guard.lua");

let built;

/** The hookhost binary to test against (built once per process). */
export function hookhostBinary() {
  if (process.env.HOOKHOST_BIN) return process.env.HOOKHOST_BIN;
  if (!built) {
    built = join(mkdtempSync(join(tmpdir(), "hookhost-bin-")), "hookhost");
    execFileSync("go", ["build", "-o", built, "./cmd/hookhost"], { cwd: REPO, stdio: "inherit" });
  }
  return built;
}

/** The refused-answer cases: {name, status, body, delay, token, refusal, env}. */
export function refusedAnswers() {
  return JSON.parse(readFileSync(join(TESTSUPPORT, "refused_answers.json"), "utf8")).cases;
}

/**
 * Start `hookhost serve` with `guards` (paths of hook files; default the
 * shared guard.lua) on a free loopback port or a Unix socket; resolves to
 * {url, token, dir, close()} once serve says where it listens.
 */
export async function startServe({ token = "", unix = false, guards = [GUARD] } = {}) {
  const dir = mkdtempSync(join(tmpdir(), "hookhost-serve-"));
  mkdirSync(join(dir, "hooks"));
  for (const g of guards) copyFileSync(g, join(dir, "hooks", g.split("/").pop()));
  const args = ["serve", "--dir", join(dir, "hooks"), "--http", unix ? `unix:${dir}/s.sock` : "127.0.0.1:0"];
  if (token) {
    writeFileSync(join(dir, "token"), token);
    chmodSync(join(dir, "token"), 0o600);
    args.push("--token-file", join(dir, "token"));
  }
  const env = { ...process.env };
  delete env.HOOKHOST_TOKEN;
  const proc = spawn(hookhostBinary(), args, { env, stdio: ["ignore", "ignore", "pipe"] });
  const stderr = [];
  const url = await new Promise((resolveUrl, reject) => {
    const lines = createInterface({ input: proc.stderr });
    lines.on("line", (line) => {
      stderr.push(line);
      const m = /listening on (\S+?)"/.exec(line);
      if (m) resolveUrl(m[1]);
    });
    proc.on("exit", (code) => reject(new Error(`hookhost serve exited ${code}:\n${stderr.join("\n")}`)));
    proc.on("error", reject);
  });
  return {
    url,
    token,
    dir,
    stderr,
    async close() {
      if (proc.exitCode === null) {
        const exited = new Promise((r) => proc.once("exit", r));
        proc.kill("SIGTERM");
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A loopback URL nobody listens on (a port just bound and released). */
export async function freeDeadUrl() {
  const server = createNetServer();
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  const port = server.address().port;
  await new Promise((r) => server.close(r));
  return `http://127.0.0.1:${port}`;
}

/**
 * A loopback HTTP server answering every request with `status` and `body`
 * after `delay` seconds; resolves to {url, requests, close()}.
 */
export async function startFakeServer({ status, body, delay = 0 }) {
  const timers = new Set();
  const requests = [];
  const server = createServer((req, res) => {
    const chunks = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      requests.push({ method: req.method, url: req.url, headers: req.headers, body: Buffer.concat(chunks).toString("utf8") });
      const t = setTimeout(() => {
        timers.delete(t);
        res.writeHead(status, { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(body) });
        res.end(body);
      }, delay * 1000);
      timers.add(t);
    });
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    requests,
    async close() {
      for (const t of timers) clearTimeout(t);
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}
