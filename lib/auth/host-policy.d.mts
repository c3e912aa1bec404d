// Types for host-policy.mjs (plain JavaScript so that scripts/start.mjs can import it with bare node).

export declare const DEFAULT_HOST: string;
export declare const DEFAULT_PORT: number;
export declare const MIN_TOKEN_LENGTH: number;
export declare const MIN_TOKEN_BITS: number;

export type StartPolicy = { ok: true; host: string; port: number } | { ok: false; message: string };

export declare function isLoopbackHost(host: string): boolean;
export declare function tokenProblem(token: string): string | undefined;
export declare function checkStartPolicy(env: Readonly<Record<string, string | undefined>>): StartPolicy;
