// A fake OpenAI-compatible model server for OpenClaw's end-to-end tests:
// POST /v1/chat/completions plays the `exec` commands the test gave it,
// one tool call per model request: while the conversation holds fewer tool
// results than commands, it calls `exec` with the next command; then it
// ends the turn with a text quoting the results. (Each turn runs in a
// session of its own, so every tool result in a request is this turn's;
// OpenClaw puts its own context in a user message after them, so "after
// the last user message" would not do.) Every
// request is recorded so that a test can read what OpenClaw sent back as
// each tool's result (its output, or the reason it was blocked).

import { createServer } from "node:http";

export async function startFakeModel() {
  const state = { commands: [], requests: [] };
  const server = createServer((req, res) => {
    const chunks = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      let body = {};
      try {
        body = JSON.parse(Buffer.concat(chunks).toString("utf8") || "{}");
      } catch {
        body = {};
      }
      if (req.method === "GET" && req.url.endsWith("/models")) {
        send(res, 200, { object: "list", data: [{ id: "fake-model", object: "model" }] });
        return;
      }
      if (req.method !== "POST" || !req.url.endsWith("/chat/completions")) {
        send(res, 404, { error: { message: `fake model: no route ${req.method} ${req.url}` } });
        return;
      }
      state.requests.push(body);
      const messages = Array.isArray(body.messages) ? body.messages : [];
      const results = messages.filter((m) => m.role === "tool");
      const done = results.length >= state.commands.length;
      const message = done
        ? { role: "assistant", content: `FINAL: ${results.map((m) => contentText(m.content)).join(" | ")}` }
        : {
            role: "assistant",
            content: null,
            tool_calls: [
              {
                id: `call_${state.requests.length}`,
                type: "function",
                function: { name: "exec", arguments: JSON.stringify({ command: state.commands[results.length] }) },
              },
            ],
          };
      const finish = done ? "stop" : "tool_calls";
      if (body.stream) stream(res, body.model, message, finish);
      else send(res, 200, completion(body.model, message, finish));
    });
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}/v1`,
    state,
    /** The texts OpenClaw sent back as the tools' results in its last request. */
    toolResults() {
      const messages = state.requests.at(-1)?.messages ?? [];
      return messages.filter((m) => m.role === "tool").map((m) => contentText(m.content));
    },
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

function contentText(content) {
  if (typeof content === "string") return content;
  if (Array.isArray(content)) return content.map((p) => (typeof p === "string" ? p : p?.text ?? "")).join("");
  return JSON.stringify(content ?? "");
}

function completion(model, message, finish) {
  return {
    id: "chatcmpl-fake",
    object: "chat.completion",
    created: Math.floor(Date.now() / 1000),
    model: model ?? "fake-model",
    choices: [{ index: 0, message, finish_reason: finish }],
    usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
  };
}

function stream(res, model, message, finish) {
  res.writeHead(200, { "Content-Type": "text/event-stream", "Cache-Control": "no-cache" });
  const base = { id: "chatcmpl-fake", object: "chat.completion.chunk", created: Math.floor(Date.now() / 1000), model: model ?? "fake-model" };
  const delta = { role: "assistant" };
  if (message.content) delta.content = message.content;
  if (message.tool_calls) delta.tool_calls = message.tool_calls.map((c, index) => ({ index, ...c }));
  const events = [
    { ...base, choices: [{ index: 0, delta, finish_reason: null }] },
    { ...base, choices: [{ index: 0, delta: {}, finish_reason: finish }] },
    { ...base, choices: [], usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 } },
  ];
  for (const e of events) res.write(`data: ${JSON.stringify(e)}\n\n`);
  res.end("data: [DONE]\n\n");
}

function send(res, status, doc) {
  const body = JSON.stringify(doc);
  res.writeHead(status, { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(body) });
  res.end(body);
}
