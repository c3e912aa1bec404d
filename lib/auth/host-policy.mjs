// Where the dashboard may listen, and whether it may start there without an access token.
//
// Plain JavaScript (types in host-policy.d.mts) because scripts/start.mjs imports it with bare `node`,
// before anything is built and without a TypeScript loader; TypeScript code imports it the same way.
// Pure: no Node or Next imports, so the proxy can use `isLoopbackHost` too.

export const DEFAULT_HOST = "127.0.0.1";
export const DEFAULT_PORT = 3000;
export const MIN_TOKEN_LENGTH = 16;
/** What a token's own characters must carry at least, counted by how often each occurs (see tokenProblem). */
export const MIN_TOKEN_BITS = 40;

/**
 * True for addresses only this machine can reach: 127.0.0.0/8, ::1 and `localhost`. A host may carry
 * IPv6 brackets ("[::1]"). IP literals are read the way the URL parser (and the system resolver) reads
 * them, so "127.1" and "0:0:0:0:0:0:0:1" count; anything else, including unparseable input, does not.
 */
export function isLoopbackHost(host) {
  const name = String(host).trim().toLowerCase().replace(/\.$/, "");
  if (name === "localhost") return true;
  // Only name and IP-literal characters: the URL parser below would otherwise accept "x@127.0.0.1".
  if (!/^[a-z0-9.:[\]-]+$/.test(name)) return false;
  const bare = name.replace(/^\[(.*)\]$/, "$1");
  const literal = bare.includes(":") ? `[${bare}]` : bare;
  let canonical;
  try {
    canonical = new URL(`http://${literal}/`).hostname;
  } catch {
    return false;
  }
  if (canonical === "[::1]") return true;
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(canonical);
}

/**
 * Why a token is too weak to protect the dashboard, or undefined when it will do. It needs at least
 * MIN_TOKEN_LENGTH characters other than spaces, and MIN_TOKEN_BITS of entropy as its character frequencies
 * estimate it (length × Shannon entropy per character), which a repeated character ("aaaa…"), a short cycle
 * ("abab…") or a run of one character with a few others cannot reach; 16 random hex digits do. The reason never
 * quotes the token.
 */
export function tokenProblem(token) {
  const characters = Array.from(String(token)).filter((character) => !/\s/u.test(character));
  if (characters.length < MIN_TOKEN_LENGTH) return `SKILLBOARD_TOKEN has fewer than ${MIN_TOKEN_LENGTH} characters other than spaces`;
  const counts = new Map();
  for (const character of characters) counts.set(character, (counts.get(character) ?? 0) + 1);
  let bitsPerCharacter = 0;
  for (const count of counts.values()) bitsPerCharacter -= (count / characters.length) * Math.log2(count / characters.length);
  if (bitsPerCharacter * characters.length < MIN_TOKEN_BITS) {
    return "SKILLBOARD_TOKEN is too predictable (a few characters, repeated)";
  }
  return undefined;
}

const TOKEN_ADVICE =
  `Set SKILLBOARD_TOKEN to a random secret of at least ${MIN_TOKEN_LENGTH} characters ` +
  "(for example: export SKILLBOARD_TOKEN=$(openssl rand -hex 32))";

/**
 * Whether the dashboard (`next start` or `next dev`) may run with this environment, and on which host and port.
 * Listening on a non-loopback address exposes model credits and data to the network, so it needs SKILLBOARD_TOKEN;
 * and a token that is set, on any host, must be one that protects something. Messages name variables, never values.
 */
export function checkStartPolicy(env) {
  const host = env.SKILLBOARD_HOST?.trim() || DEFAULT_HOST;
  const portText = env.PORT?.trim() || String(DEFAULT_PORT);
  if (!/^\d{1,5}$/.test(portText) || Number(portText) > 65535) {
    return { ok: false, message: `PORT must be a number from 0 to 65535, got "${portText}".` };
  }
  const port = Number(portText);
  const token = env.SKILLBOARD_TOKEN ?? "";
  const weakness = token ? tokenProblem(token) : undefined;
  if (weakness) {
    return {
      ok: false,
      message: `Refusing to listen on ${host}: ${weakness}, so it would not keep anyone out.\n${TOKEN_ADVICE},\nor unset it.`,
    };
  }
  if (isLoopbackHost(host) || token) return { ok: true, host, port };
  return {
    ok: false,
    message:
      `Refusing to listen on ${host}: it is not a loopback address and SKILLBOARD_TOKEN is not set.\n` +
      "Anyone who can reach this address could read your data and spend your model credits.\n" +
      `Either ${TOKEN_ADVICE.charAt(0).toLowerCase()}${TOKEN_ADVICE.slice(1)},\n` +
      "or unset SKILLBOARD_HOST to listen on 127.0.0.1 only.",
  };
}
