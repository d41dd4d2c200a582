import { spawn } from "node:child_process";
import { mkdtemp, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";

import { formatSecretKey, generateSecretKey } from "@stream-registry/core";
import { migrate, openDatabase } from "@stream-registry/store";
import {
  BINDING,
  CREATE_BINDING,
  CREATE_STREAM,
  createTestDatabase,
  DECLARE_CLUSTER,
  databaseKinds,
  eventually,
  launchRegistry,
  mutate,
  registryClient,
  testRegistryEnv,
  type BindingView,
  type DatabaseKind,
  type LaunchedRegistry,
  type TestDatabase,
} from "@stream-registry/testkit";
import { prismaOf } from "@stream-registry/store/testing";

// Each test starts registry processes or runs secrets:rotate; under the full suite they pass 30 s.
vi.setConfig({ testTimeout: 180_000 });

const repoRoot = path.resolve(import.meta.dirname, "../../..");
const k1 = formatSecretKey(generateSecretKey("k1"));
const k2 = formatSecretKey(generateSecretKey("k2"));
const SEALED = /^\*{8}:[0-9a-f]{12}$/;
/** Every secret given here; none may be found in a row or a log line. */
const SECRETS = ["pw-process-1", "tok-process-2", "pw-url-process-3", "pw-before-4"];
const config = {
  "test.provider": {},
  vault: { password: "pw-process-1", token: "tok-process-2", url: "postgresql://u:pw-url-process-3@db/x" },
};

const started: LaunchedRegistry[] = [];
const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const registry of started) if (registry.running()) registry.kill("SIGKILL");
  for (const cleanup of cleanups) await cleanup();
});

/** A fresh database of `kind` and the environment that points a registry at it (PGlite: a directory). */
async function freshDatabase(
  kind: DatabaseKind,
): Promise<{ database: TestDatabase; where: Record<string, string> }> {
  const database = await createTestDatabase(kind, "secretkeys");
  const dataDir = database.url ? undefined : await mkdtemp(path.join(tmpdir(), "sr-secret-keys-"));
  cleanups.push(async () => {
    await database.drop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });
  return { database, where: database.url ? { DATABASE_URL: database.url } : { REGISTRY_DATA_DIR: dataDir! } };
}

async function start(env: Record<string, string>) {
  const launched = launchRegistry({ ...testRegistryEnv, ...env });
  started.push(launched);
  const url = await launched.started;
  if (!url) throw new Error(`registry exited during start-up:\n${launched.logs.join("\n")}`);
  const stop = async () => {
    launched.kill("SIGTERM");
    await launched.exited;
  };
  return { ...registryClient(url), launched, stop };
}

/** `npm run secrets:rotate` with `env`, as an operator runs it. */
function rotate(env: Record<string, string>): Promise<{ code: number | null; out: string }> {
  const child = spawn("npm", ["run", "--silent", "secrets:rotate"], {
    cwd: repoRoot,
    env: { ...process.env, NODE_ENV: "production", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (out += chunk.toString()));
  return new Promise((resolve) => child.once("exit", (code) => resolve({ code, out })));
}

async function bindOnline(r: ReturnType<typeof registryClient>, stream: string, cluster: string) {
  await mutate(r, CREATE_STREAM, { input: { name: stream } });
  await mutate(r, CREATE_BINDING, { input: { stream, cluster } });
  return eventually(async () => {
    const { binding } = await r.query<{ binding: BindingView }>(BINDING, { stream, cluster });
    return binding.status.phase === "ONLINE" ? binding : undefined;
  }, 30_000);
}

function expectNoSecret(text: string): void {
  for (const secret of SECRETS) expect(text).not.toContain(secret);
}

// Each test starts registry processes (some twice) or runs secrets:rotate: minutes on a busy machine.
describe("the keys secrets are sealed with", () => {
  it("are generated for the embedded default at first start (mode 0600, path logged) and kept", async () => {
    const { where } = await freshDatabase("pglite");
    const first = await start(where);
    const file = path.join(where.REGISTRY_DATA_DIR!, "secret-keys");
    expect(((await stat(file)).mode & 0o777).toString(8)).toBe("600");
    const text = await readFile(file, "utf8");
    expect(text).toMatch(/^k\d{8}:[A-Za-z0-9+/]{43}=$/m);
    expect(first.launched.entries()).toContainEqual(
      expect.objectContaining({
        file,
        msg: expect.stringContaining("generated a key to encrypt secrets at rest"),
      }),
    );
    const { cluster } = await mutate<{ cluster: { config: { vault: Record<string, string> } } }>(
      first,
      DECLARE_CLUSTER,
      {
        input: { name: "gen-c", provider: "test", config },
      },
    );
    expect(cluster.config.vault.password).toMatch(SEALED);
    await first.stop();
    // The next start reads the same key: the secret still opens (the binding reaches the cluster).
    const second = await start(where);
    expect(await readFile(file, "utf8")).toBe(text);
    await bindOnline(second, "s_gen", "gen-c");
    expectNoSecret([...first.launched.logs, ...second.launched.logs].join("\n"));
    await second.stop();
  });

  it("are required with PostgreSQL: the registry refuses to start, saying how to make one", async () => {
    const { where } = await freshDatabase("postgres");
    const launched = launchRegistry({ ...testRegistryEnv, ...where });
    started.push(launched);
    expect(await launched.started).toBeUndefined();
    expect(await launched.exited).toBe(1);
    const log = launched.logs.join("\n");
    expect(log).toContain("DATABASE_URL is set but no key to encrypt secrets at rest with");
    expect(log).toContain("openssl rand -base64 32");
  });

  it("refuse a malformed REGISTRY_SECRET_KEYS, naming the entry, never its material", async () => {
    const short = Buffer.alloc(16, 9).toString("base64");
    const launched = launchRegistry({ ...testRegistryEnv, REGISTRY_SECRET_KEYS: `${k1},k9:${short}` });
    started.push(launched);
    expect(await launched.exited).toBe(1);
    const log = launched.logs.join("\n");
    expect(log).toMatch(
      /REGISTRY_SECRET_KEYS: entry 2 \(key id \\?"k9\\?"\): the key has 16 bytes; it must have 32/,
    );
    expect(log).not.toContain(short);
    expect(log).not.toContain(k1.slice(3));
  });
});

describe.each(databaseKinds)("secrets stored in clear before (%s)", (kind) => {
  it("are sealed at the first start, without a new generation or change-log entry", async () => {
    const { database, where } = await freshDatabase(kind);
    // A database from before secrets were sealed: its cluster row holds them in clear.
    const db = await openDatabase({ url: database.url, dataDir: where.REGISTRY_DATA_DIR });
    await migrate(db);
    await prismaOf(db.prisma).$executeRaw`
      INSERT INTO cluster (id, name, provider, config, generation, created_at, updated_at)
      VALUES (gen_random_uuid(), 'old-c', 'test', ${JSON.stringify({ ...config, vault: { ...config.vault, password: "pw-before-4" } })}::jsonb, 2, now(), now())`;
    await db.close();

    const keys: Record<string, string> = kind === "postgres" ? { REGISTRY_SECRET_KEYS: k1 } : {};
    const r = await start({ ...where, ...keys });
    expect(r.launched.entries()).toContainEqual(
      expect.objectContaining({
        clusters: ["old-c"],
        msg: "sealed the secrets these clusters held in clear",
      }),
    );
    const { cluster } = await r.query<{
      cluster: { config: { vault: Record<string, string> }; generation: number };
    }>(`{ cluster(name: "old-c") { config generation } }`);
    expect(cluster.generation).toBe(2);
    expect(cluster.config.vault.password).toMatch(SEALED);
    await bindOnline(r, "s_old", "old-c");
    await r.stop();

    const after = await openDatabase({ url: database.url, dataDir: where.REGISTRY_DATA_DIR });
    try {
      const rows = await prismaOf(after.prisma).$queryRawUnsafe<{ row: string }[]>(`
        SELECT row_to_json(c)::text AS row FROM cluster c
        UNION ALL SELECT row_to_json(e)::text FROM secret_envelope e
        UNION ALL SELECT row_to_json(l)::text FROM change l`);
      expect(rows.length).toBeGreaterThan(2);
      expectNoSecret(rows.map((row) => row.row).join("\n"));
      expect(await prismaOf(after.prisma).change.count({ where: { entityKey: "old-c" } })).toBe(0);
    } finally {
      await after.close();
    }
    expectNoSecret(r.launched.logs.join("\n"));
  });
});

describe.each(databaseKinds)("npm run secrets:rotate (%s)", (kind) => {
  it("rewraps with the first key; old keys decrypt until then, the new one alone after", async () => {
    const { where } = await freshDatabase(kind);
    const keyFile = kind === "pglite" ? path.join(where.REGISTRY_DATA_DIR!, "secret-keys") : undefined;
    // PostgreSQL: the keys by variable; PGlite: the generated key file, to which a new key is added.
    const oldKeys: Record<string, string> = kind === "postgres" ? { REGISTRY_SECRET_KEYS: k1 } : {};
    const first = await start({ ...where, ...oldKeys });
    await mutate(first, DECLARE_CLUSTER, { input: { name: "rot-c", provider: "test", config } });
    await first.stop();
    const old = keyFile
      ? (await readFile(keyFile, "utf8")).split("\n").find((line) => /^k\d/.test(line))!
      : k1;

    // Both keys, the new one first: the old secret still opens, and a new cluster is wrapped with k2.
    const both = { REGISTRY_SECRET_KEYS: `${k2},${old}` };
    const second = await start({ ...where, ...both });
    await bindOnline(second, "s_rot_1", "rot-c");
    await mutate(second, DECLARE_CLUSTER, { input: { name: "rot-d", provider: "test", config } });
    await second.stop();

    // Without the old key the rotation cannot rewrap, and says which key is missing.
    const missing = await rotate({ ...where, REGISTRY_SECRET_KEYS: k2 });
    expect(missing.code).toBe(1);
    expect(missing.out).toContain(
      'rewrapped 0 data key(s) with key "k2"; 1 used it already; 1 could not be rewrapped',
    );
    expect(missing.out).toMatch(/not configured but in use: k\w+; add them to REGISTRY_SECRET_KEYS/);

    const rotated = await rotate({ ...where, ...both });
    expect(rotated).toEqual({
      code: 0,
      out: expect.stringContaining(
        'rewrapped 1 data key(s) with key "k2"; 1 used it already; 0 could not be rewrapped',
      ),
    });
    expect(rotated.out).toContain("key ids in use: k2 (2)");
    expect(rotated.out).toMatch(/no longer in use: k\w+; remove them from REGISTRY_SECRET_KEYS/);

    // The new key alone reads every secret.
    const third = await start({ ...where, REGISTRY_SECRET_KEYS: k2 });
    await bindOnline(third, "s_rot_2", "rot-c");
    await bindOnline(third, "s_rot_3", "rot-d");
    expect(third.launched.logs.join("\n")).not.toContain("cannot be decrypted");
    expectNoSecret(
      [...first.launched.logs, ...second.launched.logs, ...third.launched.logs, rotated.out].join("\n"),
    );
    await third.stop();
  });
});
