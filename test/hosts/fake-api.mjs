// A fake model API on 127.0.0.1 for the real-host suites: it records every request body and answers the agent's
// requests from a script (text, or tool calls), in the protocol the request was sent in, streaming (SSE) or
// plain JSON as asked. One server speaks every protocol the suites need; each lives in protocols/.
import { createServer } from "node:http";
import { anthropic } from "./protocols/anthropic.mjs";
import { gemini } from "./protocols/gemini.mjs";
import { openaiChat } from "./protocols/openai-chat.mjs";
import { openaiResponses } from "./protocols/openai-responses.mjs";

const PROTOCOLS = [anthropic, openaiChat, openaiResponses, gemini];

/**
 * script: replies for the agent's requests (those that offer tools), in order; each { text } or { tool: { name,
 * input } } (several tools: { tools: [...] }). A step with `when` (or `unless`) answers only a request whose body
 * holds (or does not hold) that text: a main agent and a subagent run at the same time. Requests without tools
 * (titles, summaries) get a short text and take nothing from the script. When the script runs out: "Done."
 */
export function startFakeApi(script) {
  const requests = [];
  const queue = [...script];
  const ids = { next: 0 };
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
      const path = (req.url ?? "").split("?")[0];
      requests.push({ method: req.method, url: req.url, body: json });
      const protocol = PROTOCOLS.find((p) => p.handles(path, req.method));
      if (!protocol) return send(res, 404, { error: { type: "not_found_error", message: `the fake API has no ${req.method} ${path}` } });
      const special = protocol.special?.(path, json);
      if (special) return send(res, 200, special);
      const reply = protocol.offersTools(json) ? (take(queue, body) ?? { text: "Done." }) : { text: "ok" };
      const tools = reply.tools ?? (reply.tool ? [reply.tool] : []);
      const answer = {
        text: tools.length > 0 ? null : (reply.text ?? "Done."),
        tools: tools.map((t) => ({ ...t, id: `call_${++ids.next}` })),
        id: ++ids.next,
        model: json?.model ?? "fake-model",
      };
      if (protocol.streams(json, req.url ?? "")) {
        res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", "request-id": "req_fake" });
        for (const chunk of protocol.stream(answer)) res.write(chunk);
        return res.end();
      }
      send(res, 200, protocol.plain(answer));
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
