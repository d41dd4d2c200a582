import type { Database } from "@stream-registry/store";

/** What the built-in schema registry's parts share: built once per process. */
export interface SchemaRegistryDeps {
  db: Database;
}
