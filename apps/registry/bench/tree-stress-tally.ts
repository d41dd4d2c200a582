import type { GraphQLResponse } from "@stream-registry/testkit";

/** How many probes of a category held and how many failed. */
export interface CategoryCount {
  held: number;
  failed: number;
}

/**
 * The probes of npm run stress:tree, counted per category. A probe holds when its function
 * returns; it fails when it throws (an assertion, a refused setup step, a lost connection), and
 * its message is kept for the report.
 */
export class Tally {
  readonly counts = new Map<string, CategoryCount>();
  readonly failures: string[] = [];

  async probe(category: string, name: string, fn: () => unknown): Promise<boolean> {
    const count = this.counts.get(category) ?? { held: 0, failed: 0 };
    this.counts.set(category, count);
    try {
      await fn();
      count.held += 1;
      return true;
    } catch (error) {
      count.failed += 1;
      const message = error instanceof Error ? error.message : String(error);
      this.failures.push(`${category}: ${name}: ${message.slice(0, 600)}`);
      return false;
    }
  }

  /** Counts a whole category as one failed probe: its setup failed, so none of it ran. */
  setupFailed(category: string, error: unknown): void {
    const count = this.counts.get(category) ?? { held: 0, failed: 0 };
    this.counts.set(category, count);
    count.failed += 1;
    const message = error instanceof Error ? error.message : String(error);
    this.failures.push(`${category}: setup failed, no probe ran: ${message.slice(0, 600)}`);
  }

  failed(): number {
    return [...this.counts.values()].reduce((n, c) => n + c.failed, 0);
  }
}

/** Every code an answer carries: its errors' and its payloads' userErrors'. */
export function codesOf(answer: GraphQLResponse<unknown>): string[] {
  const userErrors = [...JSON.stringify(answer.data ?? null).matchAll(/"code":"([A-Z_]+)"/g)];
  return [
    ...(answer.errors ?? []).map((e) => String(e.extensions?.code ?? "(no code)")),
    ...userErrors.map((m) => m[1]!),
  ];
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
