/** Domain errors raised by the data layer, so callers never see Prisma's. */
export class NotFoundError extends Error {
  override name = "NotFoundError";
  constructor(readonly entity: string, readonly id: number | string) {
    super(`${entity} ${id} not found`);
  }
}

/** Another live process holds the run's lease. */
export class RunBusyError extends Error {
  override name = "RunBusyError";
}
