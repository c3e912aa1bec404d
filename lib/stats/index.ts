export { pairedBootstrapInterval, pairedBootstrapIntervals, type BootstrapInterval, type BootstrapOptions } from "./bootstrap";
export { mcnemarExactOneSidedPValue, mcnemarExactPValue } from "./mcnemar";
export { seededRandom } from "./random";
export { countOutcomes, pairedOutcome, type OutcomeCounts, type PairedOutcome, type ScoredPair } from "./paired-outcomes";
