import { createRequire } from "node:module";

type Crypto = typeof import("node:crypto");
let crypto: Crypto | undefined;

/**
 * node:crypto, loaded on first use: importing it costs a few milliseconds of start-up that a build without
 * a session never needs.
 */
function lazyCrypto(): Crypto {
  crypto ??= createRequire(import.meta.url)("node:crypto") as Crypto;
  return crypto;
}

export const sha256 = (text: string): string => lazyCrypto().createHash("sha256").update(text).digest("hex");
export const randomHex = (bytes: number): string => lazyCrypto().randomBytes(bytes).toString("hex");
