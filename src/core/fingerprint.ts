/**
 * A 106-bit fingerprint of a text (two 53-bit cyrb53 hashes with different seeds), as 28 hex characters. Sessions use
 * it to tell "this file changed since it was injected" and to name record files: not for security, and loading
 * node:crypto for sha256 cost 4–7 ms of every hook call.
 */
export function fingerprint(text: string): string {
  return half(text, 0x9e3779b9).padStart(14, "0") + half(text, 0x85ebca6b).padStart(14, "0");
}

function half(text: string, seed: number): string {
  let h1 = 0xdeadbeef ^ seed;
  let h2 = 0x41c6ce57 ^ seed;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(16);
}
