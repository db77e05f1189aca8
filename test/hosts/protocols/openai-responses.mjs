// OpenAI Responses API (Codex): POST /v1/responses, typed SSE events.
const sse = (type, data) => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;

function items(answer) {
  if (answer.text !== null)
    return [
      {
        type: "message",
        id: `msg_${answer.id}`,
        role: "assistant",
        status: "completed",
        content: [{ type: "output_text", text: answer.text, annotations: [] }],
      },
    ];
  // A tool whose input is text is a custom (freeform) tool, as Codex's apply_patch is.
  return answer.tools.map((t) =>
    typeof t.input === "string"
      ? { type: "custom_tool_call", id: `ctc_${t.id}`, call_id: t.id, name: t.name, input: t.input, status: "completed" }
      : { type: "function_call", id: `fc_${t.id}`, call_id: t.id, name: t.name, arguments: JSON.stringify(t.input), status: "completed" },
  );
}

function response(answer, status) {
  return {
    id: `resp_${answer.id}`,
    object: "response",
    created_at: 1_700_000_000,
    status,
    model: answer.model,
    output: status === "completed" ? items(answer) : [],
    usage: {
      input_tokens: 100,
      input_tokens_details: { cached_tokens: 0 },
      output_tokens: 10,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: 110,
    },
  };
}

export const openaiResponses = {
  handles: (path) => path.endsWith("/responses"),
  offersTools: (json) => Array.isArray(json?.tools) && json.tools.length > 0,
  streams: (json) => json?.stream === true,
  plain: (answer) => response(answer, "completed"),
  *stream(answer) {
    yield sse("response.created", { response: response(answer, "in_progress") });
    for (const [output_index, item] of items(answer).entries()) {
      yield sse("response.output_item.added", {
        output_index,
        item: {
          ...item,
          ...(item.type === "message" ? { content: [] } : item.type === "custom_tool_call" ? { input: "" } : { arguments: "" }),
          status: "in_progress",
        },
      });
      if (item.type === "message") yield sse("response.output_text.delta", { output_index, item_id: item.id, content_index: 0, delta: item.content[0].text });
      yield sse("response.output_item.done", { output_index, item });
    }
    yield sse("response.completed", { response: response(answer, "completed") });
  },
};
