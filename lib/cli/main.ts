import module from "node:module";
import { setFlagsFromString } from "node:v8";
import { DatasetValidationError } from "../datasets";
import { CLI_CONNECTION, getDb, NotFoundError, RunBusyError, saveQueryPlans } from "../db";
import { CLI_HEAP_GROWING_PERCENT, limitHeapGrowth } from "../process/heap-growth";
import { CliInputError, flushOutput, logLine, STDOUT_CLOSED_EXIT_CODE, StdoutClosedError, stdoutWasClosed, writeOut } from "./io";
import { WARM_COMPILE_CACHE_COMMAND, warmCompileCache } from "./warm-compile-cache";

// V8 flags it takes after start (the ones it reads only at start: ./node-flags.ts).
limitHeapGrowth(CLI_HEAP_GROWING_PERCENT);
// Prisma's query compiler is a 1.9 MB WebAssembly module: compiled by the baseline compiler only, it costs ~13 MB less
// memory at start-up (`skill list` ~114 -> ~100 MB), and the few queries a command makes do not need optimised code.
setFlagsFromString("--liftoff-only");
// And each of its functions validated when it is first compiled, not all of them when the module is (a command calls few
// of them; the module is Prisma's own). `new WebAssembly.Module` of it, with --liftoff-only, three times each:
// 15.1-16.5 ms -> 8.8-9.5 ms, ahead of a run's first write and so of its first model request.
setFlagsFromString("--wasm-lazy-validation");
// No scavenges scheduled ahead as idle-time tasks (V8 starts one when the young generation is ~80 % full), only when it
// is full: a run is never idle long enough for them to save a pause, and each one copies the requests in flight as a
// full one would. 20,000 / 256 / 50, nine alternating pairs: user+sys 0.2 s lower on average (~2 %), lower in seven.
setFlagsFromString("--no-minor-gc-task");

const USAGE = `usage: npm run -s cli -- <command>   (or npx skillboard <command>)
  score                                   JSONL {"response","answers"} on stdin → scores on stdout
  prompt --skill FILE [--diagnostic-instruction TEXT]
                                          dataset items (JSONL) on stdin → {"id","system","user"}
  dataset import FILE [--name NAME]       store a dataset (JSON, JSONL, CSV); prints its id
  dataset list                            one JSON line per dataset (split parts: "split_of", "split_part")
  dataset split ID --ratio TRAIN:VAL:TEST [--seed S] | dataset split ID --manifest DIR
                                          split as SkillOpt does (ratio, seed 42 by default; or a split_dir of
                                          train/ val/ test/ id lists); prints {"train": ID, "val": ID, "test": ID}
  dataset export ID                       the dataset's items as JSONL, in order (what dataset import reads)
  skill add FILE [--name NAME] [--note T] store a skill version; prints its id
  skill list
  run --dataset FILE|ID --skill FILE|ID [--model M] [--base-url URL] [--backend openai|azure|baseline|agent]
      [--agent NAME [--keep-workspaces]]
      [--concurrency N] [--max-turns K] [--limit N | --sample N --seed S] [--exec-timeout S]
      [--task-timeout S] [--max-retries N] [--max-completion-tokens N] [--temperature T]
      [--diagnostic-instruction TEXT] [--adaptive-concurrency [--concurrency-floor N]] [--rpm N] [--tpm N] [--cache]
      [--trials K] [--name NAME] [--resume RUN_ID] [--detach]
                                          --detach: queue it for the workers, print {"run_id": ID} and return
  optimize start --train FILE|ID --val FILE|ID [--test FILE|ID] --skill FILE|ID [run's model options]
      [--optimizer-backend openai|azure] [--optimizer-model M] [--optimizer-base-url URL] [--optimizer-concurrency N]
      [--epochs N] [--batch-size N] [--accumulation N] [--minibatch-size N] [--merge-batch-size N]
      [--learning-rate N] [--min-learning-rate N] [--lr-scheduler constant|linear|cosine] [--failure-only]
      [--slow-update on|off] [--slow-update-samples N] [--slow-update-gate on|off] [--meta-skill on|off]
      [--gate strict|mcnemar|none] [--alpha A] [--approval auto|manual] [--seed S] [--preset seed|paper]
      [--max-target-calls N] [--max-optimizer-tokens N] [--max-wall-s S] [--name NAME] [--resume ID]
  optimize estimate …                     (start's options) the expected calls and tokens, nothing stored
  optimize list | status ID | cancel ID | approve ID [--skill FILE] | reject ID
  optimize export ID --format skillopt --out DIR | optimize import DIR
  cache info | cache clear               the response cache's size; empty it
  export RUN_ID --format csv|jsonl|seed
  import FILE [--dataset ID] [--skill FILE|ID] [--name NAME]
                                          a results file (seed results.jsonl or Skillboard JSONL) as a run; prints its id
  worker [--concurrency N] [--name NAME] [--drain-seconds N]
                                          execute queued runs and optimisations until stopped (what the dashboard
                                          starts); on PostgreSQL any number share every run, on any machines, and
                                          on SIGTERM the items in flight get N s to finish (SKILLBOARD_WORKER_DRAIN_S,
                                          default 20)`;

async function main(argv: string[]): Promise<number> {
  const [command, ...args] = argv;
  // Opened on first use: score and prompt never touch the database. Prisma's plans of its reads, and the empty migrated
  // database a new one is copied from, are kept beside V8's compiled code of the bundle (scripts/cli.mjs), and go with it.
  const db = () => getDb({ ...CLI_CONNECTION, queryPlanFolder: compileCacheFolder(), newDatabaseFolder: compileCacheFolder() });
  // Each command is loaded when it is run (scripts/cli.mjs bundles them as chunks of their own): `skill list` does not
  // load the rollout, the optimiser, the agents or the queue.
  switch (command) {
    case "score": return (await import("./commands/score")).scoreCommand();
    case "prompt": return (await import("./commands/prompt")).promptCommand(args);
    case "dataset": return (await import("./commands/catalog")).datasetCommand(db, args);
    case "skill": return (await import("./commands/catalog")).skillCommand(db, args);
    case "run": return (await import("./commands/run")).runCommand(db, args);
    case "optimize": return (await import("./commands/optimize")).optimizeCommand(db, args);
    case "cache": return (await import("./commands/cache")).cacheCommand(db, args);
    case "export": return (await import("./commands/export")).exportCommand(db, args);
    case "import": return (await import("./commands/import")).importCommand(db, args);
    case "worker": return (await import("./commands/worker")).workerCommand(db, args);
    case WARM_COMPILE_CACHE_COMMAND: return warmCompileCache(compileCacheFolder());
    case undefined:
      logLine(USAGE);
      return 2;
    // Asked for, the usage is the command's output: on stdout (`… help | less`).
    case "help": case "--help": case "-h":
      await writeOut(`${USAGE}\n`);
      return 0;
    default:
      throw new CliInputError(`unknown command "${command}"\n${USAGE}`);
  }
}

/** The folder of Node's compile cache, if it is on (Node 22.8+; @types/node is for Node 20). */
function compileCacheFolder(): string | undefined {
  return (module as { getCompileCacheDir?: () => string | undefined }).getCompileCacheDir?.();
}

function exitCodeFor(error: unknown): number {
  if (error instanceof StdoutClosedError) return STDOUT_CLOSED_EXIT_CODE;
  if (error instanceof CliInputError || error instanceof DatasetValidationError || error instanceof NotFoundError) return 2;
  if (error instanceof Error && (error as NodeJS.ErrnoException).code?.startsWith("ERR_PARSE_ARGS")) return 2;
  if (error instanceof RunBusyError) return 4;
  return 1;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    if (!(error instanceof StdoutClosedError)) logLine(`error: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = exitCodeFor(error);
  },
)
  .then(flushOutput)
  .finally(() => {
    // Also when the reader left after the command's last write: the output is incomplete, whatever the command said.
    if (stdoutWasClosed()) process.exitCode = STDOUT_CLOSED_EXIT_CODE;
    saveQueryPlans();
    // The Prisma client and timers would otherwise keep the process alive; the output is flushed by now.
    process.exit();
  });
