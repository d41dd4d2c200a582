import { readFile } from "node:fs/promises";
import { PGlite } from "@electric-sql/pglite";
import type { SqlDriverAdapter, SqlMigrationAwareDriverAdapterFactory } from "@prisma/driver-adapter-utils";
import { bindMigrationAwareSqlAdapterFactory } from "@prisma/driver-adapter-utils";
import * as bindings from "@prisma/schema-engine-wasm/schema_engine_bg";
import type { SchemaEngine } from "@prisma/schema-engine-wasm/schema_engine_bg";
import { PrismaPGlite } from "pglite-prisma-adapter";

/**
 * Prisma's schema engine compiled to WASM: the native engine cannot be downloaded here. Its
 * databases, including the shadow database it replays the migrations on, are in-memory PGlite
 * instances, so generating a migration needs no PostgreSQL server.
 *
 * Use one engine per process, for one call: a second call (or a second engine) fails inside the
 * WASM bindings (see PLATFORM.md).
 */
export async function openSchemaEngine(datamodels: [path: string, content: string][]): Promise<SchemaEngine> {
  await instantiateWasm();
  return bindings.SchemaEngine.new(
    { datamodels },
    () => {},
    bindMigrationAwareSqlAdapterFactory(inMemoryPGliteFactory()),
  );
}

// Node has WebAssembly, but neither lib ES2023 nor @types/node 20 declares it.
declare const WebAssembly: {
  instantiate(
    bytes: Uint8Array,
    imports: object,
  ): Promise<{ instance: { exports: { __wbindgen_start(): void } } }>;
};

// The package's own entry point imports the .wasm as an ES module, which Node cannot do.
async function instantiateWasm(): Promise<void> {
  const bindingsUrl = import.meta.resolve("@prisma/schema-engine-wasm/schema_engine_bg");
  const wasm = await readFile(new URL("schema_engine_bg.wasm", bindingsUrl));
  const { instance } = await WebAssembly.instantiate(wasm, { "./schema_engine_bg.js": bindings });
  bindings.__wbg_set_wasm(instance.exports);
  instance.exports.__wbindgen_start();
}

function inMemoryPGliteFactory(): SqlMigrationAwareDriverAdapterFactory {
  return {
    provider: "postgres",
    adapterName: "stream-registry-pglite-memory",
    connect: () => connectInMemory(),
    connectToShadowDb: () => connectInMemory(),
  };
}

async function connectInMemory(): Promise<SqlDriverAdapter> {
  const pglite = await PGlite.create();
  // pglite-prisma-adapter is typed against the PGlite copy it resolves (0.4.x, pinned by the
  // prisma CLI), this package uses 0.5.x; the adapter only calls query/exec/transaction.
  const adapter = await new PrismaPGlite(pglite).connect();
  // pglite-prisma-adapter 0.7.2 starts the script without awaiting it: a failing migration
  // would escape as an unhandled rejection instead of reaching the engine as its error.
  adapter.executeScript = async (script) => void (await pglite.exec(script));
  adapter.dispose = () => pglite.close();
  return adapter;
}
