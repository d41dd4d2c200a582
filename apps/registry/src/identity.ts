import {
  openRegistrySettings,
  pathOf,
  readRegistrySettings,
  type DbClient,
  type RegistrySettings,
} from "@stream-registry/store";
import { lineageOf, type Lineage } from "@stream-registry/core";
import { Periodic } from "./periodic.ts";

/** How often a registry re-reads its identity, for a change another process sharing its database made. */
const REFRESH_MS = 5_000;

/**
 * This registry's identity: its id, its namespace path (its name below its parent's path) and its
 * ancestors, read from its database and kept in memory, since every request and every binding's
 * name needs the path. A declaration here
 * `apply`s the new settings at once; one made by another process sharing a PostgreSQL database is
 * seen within REFRESH_MS.
 */
export class RegistryIdentity {
  private readonly refresh: Periodic;

  private constructor(
    private readonly db: DbClient,
    private settings: RegistrySettings,
    private readonly shared: boolean,
    onError: (error: unknown) => void,
  ) {
    let lastError: string | undefined;
    this.refresh = new Periodic(
      REFRESH_MS,
      async () => {
        this.apply(await readRegistrySettings(this.db));
        lastError = undefined;
      },
      (error) => {
        // Once per distinct failure: a database away for an hour is one warning, not 720.
        const message = error instanceof Error ? error.message : String(error);
        if (message !== lastError) onError(error);
        lastError = message;
      },
    );
  }

  /**
   * `shared`: other processes may use the same database (PostgreSQL), so its settings are re-read;
   * a PGlite directory is this process's alone.
   */
  static async load(
    db: DbClient,
    shared: boolean,
    onError: (error: unknown) => void,
  ): Promise<RegistryIdentity> {
    return new RegistryIdentity(db, await openRegistrySettings(db), shared, onError);
  }

  get registryId(): string {
    return this.settings.registryId;
  }

  /**
   * The namespace this registry owns: "/" for a vanilla registry, "/us-reg1-xyz" once named,
   * "/aws/us-reg1-xyz" below a parent that owns "/aws".
   */
  get path(): string {
    return pathOf(this.settings);
  }

  /** Its namespace segment; null for a registry never named (the root "/"). */
  get name(): string | null {
    return this.settings.name;
  }

  /** The registry ids of its ancestors, the root first: the chain a registration must not close. */
  get ancestors(): readonly string[] {
    return this.settings.ancestors;
  }

  /** This registry and its ancestors as they are now, with `oidcIssuer`: how principals are qualified. */
  lineage(oidcIssuer: string | undefined): Lineage {
    const { registryId: id, ancestors, parentPath } = this.settings;
    return lineageOf({ id, path: this.path, parentPath, ancestors }, oidcIssuer);
  }

  /** Takes settings just read or written; an older generation (a slow refresh) is ignored. */
  apply(settings: RegistrySettings): void {
    if (settings.generation >= this.settings.generation) this.settings = settings;
  }

  start(): void {
    if (this.shared) this.refresh.start();
  }

  stop(): Promise<void> {
    return this.refresh.stop(1_000);
  }
}
