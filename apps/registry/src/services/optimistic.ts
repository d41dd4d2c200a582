/** The object changed between reading it and writing it: the whole operation is run again. */
export class StaleRead extends Error {
  constructor() {
    super("the object changed while this operation ran");
    this.name = "StaleRead";
  }
}

/**
 * Runs an operation that reads outside its write transaction (validation may call a provider,
 * which must not happen inside a write transaction, holding row locks) and re-checks what it read when it writes.
 */
export async function retryOnStale<T>(operation: () => Promise<T>, attempts = 5): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await operation();
    } catch (error) {
      if (!(error instanceof StaleRead) || attempt >= attempts) throw error;
    }
  }
}
