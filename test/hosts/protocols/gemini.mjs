// Gemini API (Gemini CLI): POST /v1beta/models/MODEL:generateContent or :streamGenerateContent?alt=sse.
const data = (value) => `data: ${JSON.stringify(value)}\n\n`;

function candidate(answer) {
  const parts = answer.text !== null ? [{ text: answer.text }] : answer.tools.map((t) => ({ functionCall: { name: t.name, args: t.input, id: t.id } }));
  return {
    candidates: [{ content: { role: "model", parts }, finishReason: "STOP", index: 0 }],
    usageMetadata: { promptTokenCount: 100, candidatesTokenCount: 10, totalTokenCount: 110 },
    modelVersion: answer.model,
  };
}

export const gemini = {
  handles: (path) => /:(streamGenerateContent|generateContent|countTokens)$/.test(path),
  special: (path) => (path.endsWith(":countTokens") ? { totalTokens: 100 } : null),
  offersTools: (json) => Array.isArray(json?.tools) && json.tools.some((t) => (t.functionDeclarations?.length ?? 0) > 0),
  streams: (_json, url) => url.includes(":streamGenerateContent"),
  plain: candidate,
  *stream(answer) {
    yield data(candidate(answer));
  },
};
