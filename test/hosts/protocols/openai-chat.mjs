// OpenAI Chat Completions (opencode's openai-compatible provider): POST /v1/chat/completions.
const usage = { prompt_tokens: 100, completion_tokens: 10, total_tokens: 110 };
const data = (value) => `data: ${JSON.stringify(value)}\n\n`;
// A tool whose input is a string is a custom (freeform) tool, as Copilot CLI offers apply_patch to GPT models.
const toolCalls = (answer) =>
  answer.tools.map((t, index) =>
    typeof t.input === "string"
      ? { index, id: t.id, type: "custom", custom: { name: t.name, input: t.input } }
      : { index, id: t.id, type: "function", function: { name: t.name, arguments: JSON.stringify(t.input) } },
  );
const finish = (answer) => (answer.tools.length > 0 ? "tool_calls" : "stop");

export const openaiChat = {
  handles: (path) => path.endsWith("/chat/completions"),
  offersTools: (json) => Array.isArray(json?.tools) && json.tools.length > 0,
  streams: (json) => json?.stream === true,
  plain: (answer) => ({
    id: `chatcmpl-${answer.id}`,
    object: "chat.completion",
    created: 1_700_000_000,
    model: answer.model,
    choices: [
      {
        index: 0,
        message: { role: "assistant", content: answer.text, ...(answer.tools.length > 0 && { tool_calls: toolCalls(answer) }) },
        finish_reason: finish(answer),
      },
    ],
    usage,
  }),
  *stream(answer) {
    const chunk = (delta, finish_reason = null, extra = {}) =>
      data({
        id: `chatcmpl-${answer.id}`,
        object: "chat.completion.chunk",
        created: 1_700_000_000,
        model: answer.model,
        choices: [{ index: 0, delta, finish_reason }],
        ...extra,
      });
    yield chunk({ role: "assistant", content: "" });
    if (answer.text !== null) yield chunk({ content: answer.text });
    else yield chunk({ tool_calls: toolCalls(answer) });
    yield chunk({}, finish(answer), { usage });
    yield "data: [DONE]\n\n";
  },
};
