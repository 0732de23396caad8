// Fire a hookhost event from the OpenClaw bridge, failing closed.
//
// This module knows nothing about OpenClaw: it sends one
// `POST /v1/fire/{event}` to `hookhost serve` and returns the answer, or
// throws a HookhostError whose message names the cause. It uses Node's
// standard library only (global fetch over TCP, node:http over a Unix
// socket, node:crypto for hookhost's proof).
//
// Authentication follows hookhost's own clients:
// - over a Unix socket the socket file must belong to this user or root
//   (Node offers no SO_PEERCRED, so the owner of the socket file is what
//   is checked, once connected and before anything is sent); the token, if
//   set, then goes as a bearer token;
// - over TCP with a token, the token is never sent: the request carries
//   hookhost's proof (version 1) and the answer's Hookhost-Mac is checked
//   before any of it is used;
// - over TCP without a token the answer cannot be authenticated, so fire()
//   marks it `authenticated: false` and restrict() lets it only make a
//   call stricter.

import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { statSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { connect as netConnect } from "node:net";

export const DEFAULT_URL = "http://127.0.0.1:7878";
export const DEFAULT_TIMEOUT_MS = 5000;
// OpenClaw gives a before_tool_call handler 15 s; the fire must end first
// so that the refusal carries hookhost's reason, not OpenClaw's timeout.
export const MAX_TIMEOUT_MS = 13000;
export const MAX_ANSWER = 16 << 20; // bytes; a larger answer is refused

// Actions that block the guarded call.
export const BLOCKING = new Set(["deny", "abort_turn", "hard_abort"]);

/** hookhost could not give a usable answer; the message names why. */
export class HookhostError extends Error {
  constructor(message) {
    super(message);
    this.name = "HookhostError";
  }
}

/**
 * Where and how to reach serve: the plugin's own config (OpenClaw's
 * plugins.entries.hookhost.config: url, token, timeoutMs) wins over the
 * environment (HOOKHOST_URL, HOOKHOST_TOKEN, HOOKHOST_TIMEOUT in seconds).
 * Throws HookhostError for a value that cannot be used.
 */
export function resolveConfig(pluginConfig = {}, env = process.env) {
  const cfg = pluginConfig && typeof pluginConfig === "object" ? pluginConfig : {};
  const url = str(cfg.url) || str(env.HOOKHOST_URL) || DEFAULT_URL;
  const token = str(cfg.token) || str(env.HOOKHOST_TOKEN);
  let timeoutMs = DEFAULT_TIMEOUT_MS;
  let source = "";
  if (cfg.timeoutMs !== undefined && cfg.timeoutMs !== null) {
    timeoutMs = Number(cfg.timeoutMs);
    source = `the plugin's timeoutMs=${JSON.stringify(cfg.timeoutMs)}`;
    if (!Number.isFinite(timeoutMs)) throw new HookhostError(`${source} is not a number of milliseconds`);
  } else if (str(env.HOOKHOST_TIMEOUT)) {
    const raw = str(env.HOOKHOST_TIMEOUT);
    source = `HOOKHOST_TIMEOUT=${JSON.stringify(raw)}`;
    const seconds = Number(raw);
    if (!Number.isFinite(seconds)) throw new HookhostError(`${source} is not a number of seconds`);
    timeoutMs = seconds * 1000;
  }
  if (timeoutMs <= 0) throw new HookhostError(`${source} must be positive`);
  if (timeoutMs > MAX_TIMEOUT_MS) {
    throw new HookhostError(
      `${source} is more than ${MAX_TIMEOUT_MS / 1000}s: OpenClaw gives a before_tool_call hook 15s`,
    );
  }
  if (!url.startsWith("unix:")) {
    let parsed;
    try {
      parsed = new URL(url);
    } catch {
      parsed = undefined;
    }
    if (!parsed || parsed.protocol !== "http:" || !parsed.hostname) {
      throw new HookhostError(`hookhost url ${JSON.stringify(url)}: want http://HOST:PORT or unix:/path`);
    }
  }
  return { url, token, timeoutMs, timeoutSource: source || "HOOKHOST_TIMEOUT" };
}

function str(v) {
  return typeof v === "string" ? v.trim() : "";
}

/**
 * Fire `event` with `payload`; resolve to the answer
 * ({action, reason, result, payload, messages, authenticated}) or reject
 * with a HookhostError naming the cause.
 */
export async function fire(event, payload, config) {
  const body = Buffer.from(JSON.stringify(payload ?? {}), "utf8");
  const path = "/v1/fire/" + encodeURIComponent(event);
  const unix = config.url.startsWith("unix:");
  const { status, mac, data, nonce } = unix
    ? await exchangeUnix(config, path, body)
    : await exchangeTCP(config, path, body);
  if (nonce !== undefined) checkAnswerMac(config.token, nonce, status, mac, data);
  if (status < 200 || status > 299) {
    throw new HookhostError(`hookhost at ${config.url} answered ${status}: ${errorText(data)}`);
  }
  return parse(data, nonce !== undefined || unix);
}

/**
 * Keep only what an unauthenticated answer may do: make a call stricter.
 * An allow becomes no opinion, a modify becomes ask (without the change),
 * a respond becomes deny; payload changes and messages are dropped.
 */
export function restrict(answer) {
  if (answer.authenticated) return answer;
  const action = { allow: "continue", modify: "ask", respond: "deny" }[answer.action] ?? answer.action;
  let reason = answer.reason;
  if (action !== answer.action) {
    reason =
      `hookhost's ${answer.action} is not trusted: the server cannot be authenticated without a token` +
      (reason ? ` (${reason})` : "");
  }
  return { action, reason, result: undefined, payload: {}, messages: [], authenticated: false };
}

function timeoutError(config) {
  return new HookhostError(
    `hookhost at ${config.url} did not answer within ${config.timeoutMs / 1000}s (${config.timeoutSource})`,
  );
}

async function exchangeTCP(config, path, body) {
  const headers = { "Content-Type": "application/json" };
  let nonce;
  if (config.token) {
    nonce = b64url(randomBytes(32));
    Object.assign(headers, requestProof(config.token, nonce, String(Math.floor(Date.now() / 1000)), "POST", path, body));
  }
  const target = new URL(path, config.url);
  const signal = AbortSignal.timeout(config.timeoutMs);
  try {
    // redirect "manual": a redirect is an answer other than 2xx, never a
    // reason to send the request (and its proof) somewhere else.
    const resp = await fetch(target, { method: "POST", headers, body, signal, redirect: "manual" });
    const data = await readLimited(resp.body, config);
    return { status: resp.status, mac: resp.headers.get("Hookhost-Mac"), data, nonce };
  } catch (err) {
    if (err instanceof HookhostError) throw err;
    if (signal.aborted) throw timeoutError(config);
    throw new HookhostError(`hookhost is not reachable at ${config.url}: ${causeText(err)}`);
  }
}

async function readLimited(stream, config) {
  const chunks = [];
  let size = 0;
  if (!stream) return Buffer.alloc(0);
  for await (const chunk of stream) {
    size += chunk.length;
    if (size > MAX_ANSWER) {
      throw new HookhostError(`hookhost at ${config.url} answered more than ${MAX_ANSWER} bytes`);
    }
    chunks.push(Buffer.from(chunk));
  }
  return Buffer.concat(chunks);
}

function causeText(err) {
  const cause = err?.cause;
  if (cause?.message) return cause.message;
  return err?.message ?? String(err);
}

function exchangeUnix(config, path, body) {
  const socketPath = config.url.slice("unix:".length);
  return new Promise((resolve, reject) => {
    let settled = false;
    let sock;
    let req;
    const finish = (fn, value) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      fn(value);
    };
    const fail = (err) => {
      req?.destroy();
      sock?.destroy();
      finish(reject, err instanceof HookhostError ? err : new HookhostError(`hookhost is not reachable at ${config.url}: ${causeText(err)}`));
    };
    const timer = setTimeout(() => fail(timeoutError(config)), config.timeoutMs);
    sock = netConnect(socketPath);
    sock.once("error", fail);
    sock.once("connect", () => {
      try {
        checkSocketOwner(socketPath);
      } catch (err) {
        fail(err);
        return;
      }
      const headers = { "Content-Type": "application/json", "Content-Length": String(body.length), Host: "localhost" };
      if (config.token) headers.Authorization = "Bearer " + config.token;
      req = httpRequest({ method: "POST", path, headers, createConnection: () => sock }, (resp) => {
        const chunks = [];
        let size = 0;
        resp.on("data", (chunk) => {
          size += chunk.length;
          if (size > MAX_ANSWER) {
            fail(new HookhostError(`hookhost at ${config.url} answered more than ${MAX_ANSWER} bytes`));
            return;
          }
          chunks.push(chunk);
        });
        resp.on("end", () => {
          sock.destroy();
          finish(resolve, { status: resp.statusCode, mac: resp.headers["hookhost-mac"] ?? null, data: Buffer.concat(chunks), nonce: undefined });
        });
        resp.on("error", fail);
      });
      req.on("error", fail);
      req.end(body);
    });
  });
}

// Refuse a socket served by another user, before anything is sent to it.
function checkSocketOwner(socketPath) {
  const me = process.getuid();
  const uid = statSync(socketPath).uid;
  if (uid !== me && uid !== 0) {
    throw new HookhostError(
      `the peer at ${socketPath} is not the hookhost server it claims to be: the socket belongs to uid ${uid}, ` +
        `not to this user (uid ${me}) or root; nothing was sent to it`,
    );
  }
}

function b64url(raw) {
  return Buffer.from(raw).toString("base64url");
}

function sha256hex(data) {
  return createHash("sha256").update(data).digest("hex");
}

function key(token) {
  return createHash("sha256").update(token.trim(), "utf8").digest();
}

/** The four headers of hookhost's proof (version 1) for one request. */
export function requestProof(token, nonce, when, method, target, body) {
  const digest = sha256hex(body);
  const lines = ["hookhost-auth-v1 request", nonce, when, method, target, digest].join("\n");
  const mac = createHmac("sha256", key(token)).update(lines, "utf8").digest();
  return {
    "Hookhost-Nonce": nonce,
    "Hookhost-Time": when,
    "Hookhost-Content-Sha256": digest,
    "Hookhost-Mac": b64url(mac),
  };
}

/** The Hookhost-Mac a genuine serve puts on its answer. */
export function answerMac(token, nonce, status, body) {
  const lines = ["hookhost-auth-v1 response", nonce, String(status).padStart(3, "0"), sha256hex(body)].join("\n");
  return b64url(createHmac("sha256", key(token)).update(lines, "utf8").digest());
}

function checkAnswerMac(token, nonce, status, got, body) {
  if (got === null || got === undefined) {
    throw new HookhostError(
      `the peer is not the hookhost server it claims to be: no proof of the token (no Hookhost-Mac header; ` +
        `it answered ${status}); it does not hold the configured token (an impostor, a serve run with another ` +
        `token or none, or one older than this bridge): its answer is not used`,
    );
  }
  const want = Buffer.from(answerMac(token, nonce, status, body));
  const have = Buffer.from(String(got).trim());
  if (have.length !== want.length || !timingSafeEqual(have, want)) {
    throw new HookhostError(
      "the peer is not the hookhost server it claims to be: its Hookhost-Mac does not match the configured " +
        "token: its answer is not used",
    );
  }
}

// serve's error message, or the start of whatever came back.
function errorText(data) {
  try {
    const doc = JSON.parse(data.toString("utf8"));
    if (doc && typeof doc.error === "string") return doc.error;
  } catch {
    // not JSON: show the start of it
  }
  return data.subarray(0, 200).toString("utf8").trim() || "(no body)";
}

// Read serve's fire answer; anything unexpected is an error.
function parse(data, authenticated) {
  let doc;
  try {
    doc = JSON.parse(data.toString("utf8"));
  } catch (err) {
    throw new HookhostError(`hookhost's answer is not JSON: ${err.message}`);
  }
  const decision = isObject(doc) ? doc.decision : undefined;
  const action = isObject(decision) ? decision.action : undefined;
  if (typeof action !== "string" || action === "") {
    throw new HookhostError("hookhost's answer has no decision.action");
  }
  const messages = doc.messages ?? [];
  if (!Array.isArray(messages)) throw new HookhostError("hookhost's answer has messages that are not a list");
  return {
    action,
    reason: decision.reason ? String(decision.reason) : "",
    result: decision.result,
    payload: isObject(doc.payload) ? doc.payload : {},
    messages: messages.filter(isObject),
    authenticated,
  };
}

function isObject(v) {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}
