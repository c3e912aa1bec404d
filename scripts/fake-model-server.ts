/**
 * The test suite's OpenAI-compatible server as a standalone process, for benchmarks and trying the
 * CLI without a model: `tsx scripts/fake-model-server.ts [--port N] [--latency-ms L]`.
 * Prints its base URL on stdout once listening; answers with the first [TLE] title of the context.
 */
import { parseArgs } from "node:util";
import { startFakeOpenAIServer } from "../tests/support/fake-openai-server";

const { values } = parseArgs({ options: { port: { type: "string", default: "0" }, "latency-ms": { type: "string", default: "0" } } });
const server = await startFakeOpenAIServer({ latencyMs: Number(values["latency-ms"]), port: Number(values.port), recordRequests: false });
process.stdout.write(`${server.baseURL}\n`);
const stop = () => void server.close().then(() => process.exit(0));
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
