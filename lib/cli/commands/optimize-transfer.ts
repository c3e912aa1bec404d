/** `optimize export ID --format skillopt --out DIR` and `optimize import DIR`: SkillOpt's own output layout. */
import type { Db } from "../../db";
import { CliInputError } from "../io";

export async function optimizeTransferCommand(_db: () => Db, action: "export" | "import", args: string[]): Promise<number> {
  void args;
  throw new CliInputError(`optimize ${action}: not available yet`);
}
