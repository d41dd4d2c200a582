import type { SchemaRegistryDeps } from "./schema-deps.ts";
import { SchemaDeletes } from "./schema-deletes.ts";
import { SchemaReads } from "./schema-reads.ts";
import { SchemaRegistrations } from "./schema-registrations.ts";
import { SchemaSettings } from "./schema-settings.ts";

/**
 * The built-in schema registry (issue 12; docs/schemas.md): schemas in the registry's own
 * database, with Confluent's rules. Its REST API (rest/) and the SchemaManager the seed defines
 * (built-in-schema-manager.ts) are two faces of it. It checks no access: its callers do.
 */
export interface SchemaRegistry {
  registrations: SchemaRegistrations;
  reads: SchemaReads;
  deletes: SchemaDeletes;
  settings: SchemaSettings;
}

export function createSchemaRegistry(deps: SchemaRegistryDeps): SchemaRegistry {
  return {
    registrations: new SchemaRegistrations(deps),
    reads: new SchemaReads(deps),
    deletes: new SchemaDeletes(deps),
    settings: new SchemaSettings(deps),
  };
}
