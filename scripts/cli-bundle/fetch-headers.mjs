// In the CLI bundle, every reference to the global `Headers` (the OpenAI SDK's, lib/model/read-only-headers.ts's) is
// this class: esbuild's `--inject` (see scripts/cli.mjs). Node's own is undici's, which a `run` would otherwise load
// before its first model request (lib/model/fetch-headers.ts says what that costs).
export { FetchHeaders as Headers } from "../../lib/model/fetch-headers";
