// In the CLI bundle, this module stands in for "better-sqlite3" (see build() in scripts/cli.mjs): the package, a
// CommonJS one with a native addon, loaded with `require`. Imported as an ES module, it made Node's ES loader resolve
// the bare name (the package has no "exports", so its legacy main lookup tries candidate after candidate, ~6 ms) and
// wrap it as an ES module (its source scanned for the names it exports, ~4 ms) at every start, `skill list` included.
import { createRequire } from "node:module";

export default createRequire(import.meta.url)("better-sqlite3");
