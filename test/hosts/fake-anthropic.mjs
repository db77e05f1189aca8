// A fake Anthropic Messages API on 127.0.0.1 for the real-host suites: it records every request body and answers
// the agent's requests from a script (text, or tool calls), streaming (SSE) or plain JSON as asked.
import { createServer } from "node:http";

/**
 * script: replies for the agent's requests (those that offer tools), in order; each { text } or { tool: { name,
 * input } } (several tools: { tools: [...] }). A step with `when` (or `unless`) answers only a request whose body
 * holds (or does not hold) that text: a main agent and a subagent run at the same time. Requests without tools
 * (titles, summaries) get a short text and take nothing from the script. When the script runs out: "Done."
 */
export function startFakeAnthropic(script) {
  const requests = [];
  const queue = [...script];
  let ids = 0;
  const server = createServer((req, res) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (chunk) => (body += chunk));
    req.on("end", () => {
      let json = null;
      try {
        json = body ? JSON.parse(body) : null;
      } catch {
        json = null;
      }
      requests.push({ method: req.method, url: req.url, body: json });
      const path = (req.url ?? "").split("?")[0];
      if (path.endsWith("/count_tokens")) return send(res, 200, { input_tokens: 100 });
      if (!path.endsWith("/v1/messages")) return send(res, 404, { type: "error", error: { type: "not_found_error", message: "not here" } });
      const agentTurn = Array.isArray(json?.tools) && json.tools.length > 0;
      const reply = agentTurn ? (take(queue, body) ?? { text: "Done." }) : { text: "ok" };
      const blocks = (reply.tools ?? (reply.tool ? [reply.tool] : [])).map((t) => ({ type: "tool_use", id: `toolu_${++ids}`, name: t.name, input: t.input }));
      const content = blocks.length > 0 ? blocks : [{ type: "text", text: reply.text ?? "Done." }];
      const message = {
        id: `msg_${++ids}`,
        type: "message",
        role: "assistant",
        model: json?.model ?? "claude-fake",
        content,
        stop_reason: blocks.length > 0 ? "tool_use" : "end_turn",
        stop_sequence: null,
        usage: { input_tokens: 100, output_tokens: 10 },
      };
      if (json?.stream) return stream(res, message);
      send(res, 200, message);
    });
  });
  return new Promise((resolve) => {
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      resolve({ url: `http://127.0.0.1:${port}`, requests, close: () => new Promise((r) => server.close(() => r())) });
    });
  });
}

function take(queue, body) {
  const at = queue.findIndex((step) => (step.when === undefined || body.includes(step.when)) && (step.unless === undefined || !body.includes(step.unless)));
  return at === -1 ? undefined : queue.splice(at, 1)[0];
}

function send(res, status, value) {
  res.writeHead(status, { "content-type": "application/json", "request-id": "req_fake" });
  res.end(JSON.stringify(value));
}

function stream(res, message) {
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", "request-id": "req_fake" });
  const event = (type, data) => res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
  event("message_start", { message: { ...message, content: [], stop_reason: null, usage: { input_tokens: 100, output_tokens: 1 } } });
  message.content.forEach((block, index) => {
    if (block.type === "text") {
      event("content_block_start", { index, content_block: { type: "text", text: "" } });
      event("content_block_delta", { index, delta: { type: "text_delta", text: block.text } });
    } else {
      event("content_block_start", { index, content_block: { type: "tool_use", id: block.id, name: block.name, input: {} } });
      event("content_block_delta", { index, delta: { type: "input_json_delta", partial_json: JSON.stringify(block.input) } });
    }
    event("content_block_stop", { index });
  });
  event("message_delta", { delta: { stop_reason: message.stop_reason, stop_sequence: null }, usage: { output_tokens: 10 } });
  event("message_stop", {});
  res.end();
}
