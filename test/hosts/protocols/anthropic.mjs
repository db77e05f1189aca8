// Anthropic Messages API (Claude Code): POST /v1/messages, SSE events or one JSON message.
const sse = (type, data) => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;

function message(answer) {
  const blocks = answer.tools.map((t) => ({ type: "tool_use", id: `toolu_${t.id}`, name: t.name, input: t.input }));
  return {
    id: `msg_${answer.id}`,
    type: "message",
    role: "assistant",
    model: answer.model,
    content: blocks.length > 0 ? blocks : [{ type: "text", text: answer.text }],
    stop_reason: blocks.length > 0 ? "tool_use" : "end_turn",
    stop_sequence: null,
    usage: { input_tokens: 100, output_tokens: 10 },
  };
}

export const anthropic = {
  handles: (path) => path.endsWith("/v1/messages") || path.endsWith("/count_tokens"),
  special: (path) => (path.endsWith("/count_tokens") ? { input_tokens: 100 } : null),
  offersTools: (json) => Array.isArray(json?.tools) && json.tools.length > 0,
  streams: (json) => json?.stream === true,
  plain: message,
  *stream(answer) {
    const m = message(answer);
    yield sse("message_start", { message: { ...m, content: [], stop_reason: null, usage: { input_tokens: 100, output_tokens: 1 } } });
    for (const [index, block] of m.content.entries()) {
      if (block.type === "text") {
        yield sse("content_block_start", { index, content_block: { type: "text", text: "" } });
        yield sse("content_block_delta", { index, delta: { type: "text_delta", text: block.text } });
      } else {
        yield sse("content_block_start", { index, content_block: { type: "tool_use", id: block.id, name: block.name, input: {} } });
        yield sse("content_block_delta", { index, delta: { type: "input_json_delta", partial_json: JSON.stringify(block.input) } });
      }
      yield sse("content_block_stop", { index });
    }
    yield sse("message_delta", { delta: { stop_reason: m.stop_reason, stop_sequence: null }, usage: { output_tokens: 10 } });
    yield sse("message_stop", {});
  },
};
