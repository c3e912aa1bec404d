/**
 * The test suite's OpenAI-compatible server as a standalone process, for benchmarks and trying the
 * CLI without a model: `tsx scripts/fake-model-server.ts [--port N] [--latency-ms L] [--optimizer]`.
 * Prints its base URL on stdout once listening; answers with the first [TLE] title of the context, or with
 * `--optimizer` plays the scripted SkillOpt optimizer and the skill-sensitive target (tests/support/fake-optimizer.ts).
 */
import { parseArgs } from "node:util";
import { startFakeOpenAIServer } from "../tests/support/fake-openai-server";
import { optimizerAnswer } from "../tests/support/fake-optimizer";

const { values } = parseArgs({
  options: { port: { type: "string", default: "0" }, "latency-ms": { type: "string", default: "0" }, optimizer: { type: "boolean", default: false } },
});
const server = await startFakeOpenAIServer({
  latencyMs: Number(values["latency-ms"]),
  port: Number(values.port),
  recordRequests: false,
  ...(values.optimizer ? { answer: (req) => optimizerAnswer(req) } : {}),
});
process.stdout.write(`${server.baseURL}\n`);
const stop = () => void server.close().then(() => process.exit(0));
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
