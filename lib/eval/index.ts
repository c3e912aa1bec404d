export { normalizeAnswer } from "./normalize";
export { extractAnswer } from "./extract";
export {
  type EvalResult,
  exactMatch,
  tokenF1,
  substringMatch,
  evaluate,
  emFailReason,
  evaluationRecord,
} from "./evaluate";
