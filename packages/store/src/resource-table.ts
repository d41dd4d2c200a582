import { Prisma } from "./generated/prisma/client.ts";

/**
 * Where one kind of realized resource keeps its rows. The table carries the status block beside
 * the kind's desired state: `id uuid` (the key its jobs name), `generation int`,
 * `observed_generation int NULL`, `pending_creates jsonb NULL`, `phase "Phase"`, `message text NULL`
 * and `status_updated_at timestamptz`. Its observations live in a table of their own: the key
 * column (a uuid referencing the resource), `message text NULL`, `details jsonb` and
 * `observed_at timestamptz`. The generic status SQL (resource-status.ts, resource-phase.ts,
 * resource-journal.ts, resource-observations.ts) is written against these columns.
 */
export interface ResourceTable {
  /** Its job kind and its entity type in the change log, e.g. "binding". */
  readonly kind: string;
  /** The quoted identifiers of the two tables and the observations' key column. */
  readonly table: SqlIdentifier;
  readonly observations: SqlIdentifier;
  readonly observationKey: SqlIdentifier;
}

declare const identifierBrand: unique symbol;

/** A quoted SQL identifier, to interpolate into a statement as a name (never as a value). */
export interface SqlIdentifier {
  readonly [identifierBrand]: "sql identifier";
}

/** A plain, lower-case SQL identifier: nothing that needs quoting, so nothing that can inject. */
const IDENTIFIER = /^[a-z_][a-z0-9_]{0,62}$/;

/**
 * Names the tables of a resource kind. Table names never come from input: kinds are defined in
 * code, and each name must be a plain identifier (it is quoted as well), so the status SQL can be
 * shared by every kind without a migration of the tables that already exist.
 */
export function defineResourceTable(names: {
  kind: string;
  table: string;
  observationTable: string;
  observationKey: string;
}): ResourceTable {
  const identifier = (name: string) => {
    if (!IDENTIFIER.test(name)) {
      throw new Error(`resource table: "${name}" is not a plain lower-case SQL identifier`);
    }
    return Prisma.raw(`"${name}"`) as unknown as SqlIdentifier;
  };
  return {
    kind: names.kind,
    table: identifier(names.table),
    observations: identifier(names.observationTable),
    observationKey: identifier(names.observationKey),
  };
}
