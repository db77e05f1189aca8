/** `fn` remembering its answer for each text it was asked about (one run's worth: texts repeat, the work doesn't). */
export function memoize<T>(fn: (text: string) => T): (text: string) => T {
  const answers = new Map<string, T>();
  return (text) => {
    if (answers.has(text)) return answers.get(text)!;
    const answer = fn(text);
    answers.set(text, answer);
    return answer;
  };
}
