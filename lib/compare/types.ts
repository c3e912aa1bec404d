/** What a comparison needs of one item's result in one run: its scores and cost, nothing of its text. */
export interface ItemScore {
  itemId: string;
  datasetItemId: number;
  em: number;
  f1: number;
  subEm: number;
  /** correct | wrong | error | timeout */
  status: string;
  latencyMs: number;
  tokens: number;
}

/** The items two runs both scored, aligned index by index (in dataset order), and those only one of them scored. */
export interface PairedScores {
  itemIds: string[];
  datasetItemIds: number[];
  reference: ItemScore[];
  other: ItemScore[];
  onlyReference: string[];
  onlyOther: string[];
}

export type OutcomeGroup = "fixed" | "broken" | "both-right" | "both-wrong" | "f1-up" | "f1-down";
