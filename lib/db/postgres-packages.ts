/**
 * The PostgreSQL driver packages (pg, Prisma's pg adapter, pg-boss), loaded the first time a PostgreSQL database is
 * opened instead of with the module: on SQLite, the default, they are never loaded (3 MB less at every CLI start).
 * All three are CommonJS packages, so they load synchronously, and openDatabase stays synchronous on both engines.
 */
import { createRequire } from "node:module";

const requireHere = createRequire(import.meta.url);

export const loadPg = (): typeof import("pg") => requireHere("pg");
export const loadPrismaPg = (): typeof import("@prisma/adapter-pg") => requireHere("@prisma/adapter-pg");
export const loadPgBoss = (): typeof import("pg-boss") => requireHere("pg-boss");
