// The bridge's handlers, registered by the plugin's own register(api)
// into a recording stand-in of OpenClaw's api, against a real hookhost
// serve built from this checkout (support.js) and against fake servers
// for the answers serve never gives. The end-to-end test through
// OpenClaw's real loader and hook runner is openclaw.test.js.

import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";

import plugin, { PRIORITY } from "../index.js";
import { freeDeadUrl, refusedAnswers, startFakeServer, startServe } from "./support.js";

const HOOK_ENV = ["HOOKHOST_URL", "HOOKHOST_TOKEN", "HOOKHOST_TIMEOUT"];

/** register(api) into a stand-in api; returns {hooks: name → {handler, opts}, logs}. */
function load(pluginConfig) {
  const hooks = new Map();
  const logs = [];
  const logger = {
    warn: (m) => logs.push(["warn", m]),
    error: (m) => logs.push(["error", m]),
    info: (m) => logs.push(["info", m]),
    debug: () => {},
  };
  plugin.register({
    id: "hookhost",
    pluginConfig,
    logger,
    config: {},
    on(name, handler, opts) {
      assert.ok(!hooks.has(name), `${name} registered twice`);
      hooks.set(name, { handler, opts });
    },
  });
  return { hooks, logs };
}

/** Run `fn` with the HOOKHOST_* environment set to `env` (others unset). */
async function withEnv(env, fn) {
  const saved = Object.fromEntries(HOOK_ENV.map((k) => [k, process.env[k]]));
  for (const k of HOOK_ENV) delete process.env[k];
  Object.assign(process.env, env);
  try {
    return await fn();
  } finally {
    for (const k of HOOK_ENV) {
      if (saved[k] === undefined) delete process.env[k];
      else process.env[k] = saved[k];
    }
  }
}

const ctx = { agentId: "main", sessionKey: "agent:main:main", sessionId: "s1", runId: "r1", toolName: "exec" };

/** before_tool_call for an exec of `command`, as OpenClaw's runner calls it. */
async function exec(pluginConfig, command) {
  const { hooks } = load(pluginConfig);
  const result = await hooks.get("before_tool_call").handler({ toolName: "exec", params: { command }, runId: "r1" }, ctx);
  return result;
}

describe("registration", () => {
  test("registers its hooks within OpenClaw's 15 s budget", () => {
    const { hooks, logs } = load({});
    assert.deepEqual([...hooks.keys()].sort(), ["after_tool_call", "before_tool_call", "session_end", "session_start"]);
    for (const [name, { opts }] of hooks) {
      assert.equal(opts.priority, PRIORITY, name);
      assert.ok(opts.timeoutMs > 5000 && opts.timeoutMs < 15000, `${name} timeoutMs ${opts.timeoutMs}`);
    }
    assert.deepEqual(logs, []);
  });

  test("a hook timeout follows the configured fire timeout", () => {
    const { hooks } = load({ timeoutMs: 2000 });
    assert.equal(hooks.get("before_tool_call").opts.timeoutMs, 3000);
  });

  test("a bad config is logged at load and blocks every call", async () => {
    const { hooks, logs } = load({ timeoutMs: 20000 });
    assert.ok(hooks.get("before_tool_call").opts.timeoutMs < 15000);
    assert.match(logs[0][1], /timeoutMs=20000 is more than 13s/);
    const result = await hooks.get("before_tool_call").handler({ toolName: "exec", params: { command: "ls" } }, ctx);
    assert.equal(result.block, true);
    assert.match(result.blockReason, /timeoutMs=20000 is more than 13s/);
  });
});

describe("with a token (hookhost's proof over TCP)", () => {
  let serve;
  let cfg;
  before(async () => {
    serve = await startServe({ token: "s3cret" });
    cfg = { url: serve.url, token: "s3cret", timeoutMs: 10000 };
  });
  after(() => serve.close());

  const cases = [
    // [command, what before_tool_call must return]
    ["allow-me", undefined],
    ["nothing-matches", undefined],
    ["deny-me", { block: true, blockReason: "denied by the test hook" }],
    ["abort-me", { block: true, blockReason: "aborted by the test hook" }],
    ["respond-me", { block: true, blockReason: "canned result" }],
    ["modify-me", { params: { command: "echo rewritten" } }],
    [
      "ask-me",
      {
        requireApproval: { title: "hookhost: approve exec?", description: "a person must approve this", severity: "warning" },
      },
    ],
  ];
  for (const [command, want] of cases) {
    test(command, async () => {
      assert.deepEqual(await exec(cfg, command), want);
    });
  }

  test("a hook slower than the timeout blocks", async () => {
    const result = await exec({ ...cfg, timeoutMs: 500 }, "spin-me");
    assert.equal(result.block, true);
    assert.match(result.blockReason, /did not answer within 0\.5s/);
  });

  test("a wrong token blocks with the 401", async () => {
    const result = await exec({ ...cfg, token: "other" }, "allow-me");
    assert.equal(result.block, true);
    assert.match(result.blockReason, /answered 401/);
  });

  test("the environment configures the bridge when the plugin config does not", async () => {
    const result = await withEnv({ HOOKHOST_URL: serve.url, HOOKHOST_TOKEN: "s3cret" }, () => exec({}, "deny-me"));
    assert.deepEqual(result, { block: true, blockReason: "denied by the test hook" });
  });

  test("the plugin config wins over the environment", async () => {
    const dead = await freeDeadUrl();
    const live = await withEnv({ HOOKHOST_URL: dead, HOOKHOST_TOKEN: "wrong" }, () => exec(cfg, "modify-me"));
    assert.deepEqual(live, { params: { command: "echo rewritten" } });
    const down = await withEnv({ HOOKHOST_URL: serve.url, HOOKHOST_TOKEN: "s3cret" }, () =>
      exec({ url: dead }, "allow-me"),
    );
    assert.equal(down.block, true);
    assert.match(down.blockReason, /not reachable/);
  });

  test("after_tool_call, session_start and session_end observe", async () => {
    const { hooks, logs } = load(cfg);
    const event = { toolName: "exec", params: { command: "ls" }, result: "a\nb", durationMs: 3 };
    assert.equal(await hooks.get("after_tool_call").handler(event, ctx), undefined);
    assert.equal(await hooks.get("session_start").handler({ sessionId: "s1", sessionKey: "k" }, ctx), undefined);
    assert.equal(await hooks.get("session_end").handler({ sessionId: "s1", reason: "idle" }, ctx), undefined);
    // guard.lua answers session.start with a message OpenClaw cannot show.
    assert.deepEqual(logs, [["warn", "hookhost: session.start: OpenClaw cannot add messages here; 1 dropped"]]);
  });
});

describe("without a token (unauthenticated TCP)", () => {
  let serve;
  let cfg;
  before(async () => {
    serve = await startServe();
    cfg = { url: serve.url, timeoutMs: 10000 };
  });
  after(() => serve.close());

  test("deny blocks; allow is no opinion", async () => {
    assert.deepEqual(await exec(cfg, "deny-me"), { block: true, blockReason: "denied by the test hook" });
    assert.equal(await exec(cfg, "allow-me"), undefined);
  });

  test("modify asks, without the change", async () => {
    const result = await exec(cfg, "modify-me");
    assert.equal(result.params, undefined);
    assert.match(result.requireApproval.description, /hookhost's modify is not trusted/);
  });

  test("respond becomes a block", async () => {
    const result = await exec(cfg, "respond-me");
    assert.equal(result.block, true);
    assert.match(result.blockReason, /hookhost's respond is not trusted/);
  });
});

describe("over a Unix socket", () => {
  let serve;
  let cfg;
  before(async () => {
    serve = await startServe({ unix: true });
    cfg = { url: serve.url, timeoutMs: 10000 };
  });
  after(() => serve.close());

  test("allow, deny, modify", async () => {
    assert.ok(serve.url.startsWith("unix:"), serve.url);
    assert.equal(await exec(cfg, "allow-me"), undefined);
    assert.deepEqual(await exec(cfg, "deny-me"), { block: true, blockReason: "denied by the test hook" });
    assert.deepEqual(await exec(cfg, "modify-me"), { params: { command: "echo rewritten" } });
  });

  test("a socket nobody listens on blocks", async () => {
    const result = await exec({ url: `unix:${serve.dir}/nobody.sock` }, "allow-me");
    assert.equal(result.block, true);
    assert.match(result.blockReason, /not reachable at unix:/);
  });
});

describe("failures block", () => {
  test("server down", async () => {
    const result = await exec({ url: await freeDeadUrl() }, "allow-me");
    assert.equal(result.block, true);
    assert.match(result.blockReason, /hookhost is not reachable at http:\/\/127\.0\.0\.1:\d+: .*ECONNREFUSED/);
  });

  test("a URL that is neither http:// nor unix:", async () => {
    const result = await exec({ url: "https://example.invalid" }, "allow-me");
    assert.equal(result.block, true);
    assert.match(result.blockReason, /want http:\/\/HOST:PORT or unix:\/path/);
  });

  test("a HOOKHOST_TIMEOUT that is not a number", async () => {
    const result = await withEnv({ HOOKHOST_TIMEOUT: "soon" }, () => exec({ url: "http://127.0.0.1:1" }, "ls"));
    assert.equal(result.block, true);
    assert.match(result.blockReason, /HOOKHOST_TIMEOUT="soon" is not a number of seconds/);
  });

  for (const c of refusedAnswers()) {
    test(`refused answer: ${c.name}`, async () => {
      const fake = await startFakeServer(c);
      try {
        const env = { HOOKHOST_URL: fake.url, HOOKHOST_TOKEN: c.token, ...c.env };
        const result = await withEnv(env, () => exec({}, "allow-me"));
        assert.equal(result?.block, true, JSON.stringify(result));
        assert.ok(result.blockReason.includes(c.refusal), `${result.blockReason} lacks ${c.refusal}`);
      } finally {
        await fake.close();
      }
    });
  }

  test("over TCP the token is never sent", async () => {
    const fake = await startFakeServer({ status: 200, body: '{"decision": {"action": "allow"}}' });
    try {
      const result = await exec({ url: fake.url, token: "s3cret-never-sent" }, "allow-me");
      assert.equal(result.block, true);
      assert.equal(fake.requests.length, 1);
      const seen = JSON.stringify(fake.requests[0]);
      assert.ok(!seen.includes("s3cret-never-sent"), seen);
      assert.ok(fake.requests[0].headers["hookhost-mac"], "the request carries hookhost's proof");
    } finally {
      await fake.close();
    }
  });

  test("the payloads carry hookhost's common names", async () => {
    const fake = await startFakeServer({ status: 200, body: '{"decision": {"action": "continue"}}' });
    try {
      const { hooks } = load({ url: fake.url });
      const params = { command: "ls", workdir: "/tmp/w" };
      await hooks.get("before_tool_call").handler({ toolName: "exec", params, runId: "r1", toolCallId: "c1" }, ctx);
      await hooks.get("after_tool_call").handler({ toolName: "exec", params, result: "out", error: "", durationMs: 7 }, ctx);
      await hooks.get("session_start").handler({ sessionId: "s1", sessionKey: "agent:main:main" }, ctx);
      const [pre, post, start] = fake.requests.map((r) => [r.url, JSON.parse(r.body)]);
      assert.equal(pre[0], "/v1/fire/tool.execute.pre");
      assert.deepEqual(pre[1], {
        tool_name: "exec",
        params,
        cwd: "/tmp/w",
        session_id: "s1",
        session_key: "agent:main:main",
        agent_id: "main",
        run_id: "r1",
        tool_call_id: "c1",
        source: "openclaw",
      });
      assert.equal(post[0], "/v1/fire/tool.execute.post");
      assert.equal(post[1].result, "out");
      assert.equal(post[1].duration_ms, 7);
      assert.equal(post[1].tool_name, "exec");
      assert.equal(start[0], "/v1/fire/session.start");
      assert.equal(start[1].session_id, "s1");
    } finally {
      await fake.close();
    }
  });

  test("a redirect is refused, not followed", async () => {
    const fake = await startFakeServer({ status: 307, body: "" });
    try {
      const result = await exec({ url: fake.url }, "allow-me");
      assert.equal(result.block, true);
      assert.match(result.blockReason, /answered 307/);
    } finally {
      await fake.close();
    }
  });
});
