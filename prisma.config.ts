import { defineConfig } from "prisma/config";

// DATABASE_URL is only needed by Prisma's own CLI commands that talk to a database
// (e.g. `prisma migrate deploy` on a machine with the native engine). The registry applies
// migrations itself (packages/store), so generating the client needs no database.
export default defineConfig({
  schema: "prisma/schema.prisma",
  migrations: { path: "prisma/migrations" },
  datasource: { url: process.env.DATABASE_URL ?? "postgresql://localhost:5432/stream_registry" },
});
