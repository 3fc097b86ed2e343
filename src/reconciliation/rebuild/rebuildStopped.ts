// Why a rebuild stopped on purpose, as the code its ledger row and the operator see (errorCode). Other
// failures (an engine down, a cancelled run) keep the code of their own error.
//   VALIDATION_FAILED    the shadow did not match the authoritative stores; readers never switched
//   SCOPE_TOO_BUSY       the table changed faster than the catch-up may apply (REBUILD_ROWS_PER_SECOND)
//   VERIFICATION_FAILED  after the swap, the live table did not reconcile; the retired table is kept
export type RebuildStopCode = 'VALIDATION_FAILED' | 'SCOPE_TOO_BUSY' | 'VERIFICATION_FAILED';

export class RebuildStoppedError extends Error {
  constructor(
    readonly code: RebuildStopCode,
    message: string,
  ) {
    super(message);
    this.name = 'RebuildStoppedError';
  }
}

export const rebuildStopped = (code: RebuildStopCode, message: string): RebuildStoppedError => new RebuildStoppedError(code, message);
