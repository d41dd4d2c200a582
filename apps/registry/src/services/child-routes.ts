import type { ChildRoute } from "@stream-registry/store";

/** How long the routes read are used: a forwarded request or a fan-out reads no row. */
const KEPT_MS = 1_000;

/**
 * Where each child is reached, read from the database at most once a KEPT_MS (or at once after
 * `forget`): every forwarded operation and every fan-out asks. A registration or unregistration
 * through this process forgets them at once; one through another process sharing the database is
 * seen within KEPT_MS.
 */
export class ChildRoutes {
  private kept: { routes: ChildRoute[]; byName: Map<string, ChildRoute>; until: number } | undefined;
  /** Counts `forget`s: a read that began before one is not kept. */
  private epoch = 0;

  constructor(private readonly read: () => Promise<ChildRoute[]>) {}

  async all(now = Date.now()): Promise<ChildRoute[]> {
    return (await this.current(now)).routes;
  }

  async find(name: string, now = Date.now()): Promise<ChildRoute | null> {
    return (await this.current(now)).byName.get(name) ?? null;
  }

  forget(): void {
    this.kept = undefined;
    this.epoch++;
  }

  private async current(now: number): Promise<NonNullable<ChildRoutes["kept"]>> {
    if (this.kept && this.kept.until > now) return this.kept;
    const epoch = this.epoch;
    const routes = await this.read();
    const read = {
      routes,
      byName: new Map(routes.map((route) => [route.name, route])),
      until: now + KEPT_MS,
    };
    if (epoch === this.epoch) this.kept = read;
    return read;
  }
}
