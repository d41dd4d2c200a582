import { afterEach, describe, expect, it } from "vitest";
import {
  databaseKinds,
  seed,
  testPlatform,
  BINDING,
  type BindingView,
  eventually,
} from "@stream-registry/testkit";
import { healthView } from "../src/health/cluster-health.ts";
import { useTestRegistry, type TestRegistry } from "./support/test-registry.ts";

const CLUSTER_HEALTH = `query($name: String!) { cluster(name: $name) {
  health { status checkedAt latencyMs brokerCount details lastError lastErrorAt lastUpAt } } }`;

interface HealthView {
  status: string;
  checkedAt: string | null;
  latencyMs: number | null;
  brokerCount: number | null;
  details: unknown;
  lastError: string | null;
  lastErrorAt: string | null;
  lastUpAt: string | null;
}

async function health(r: TestRegistry, name: string): Promise<HealthView> {
  const { cluster } = await r.query<{ cluster: { health: HealthView } | null }>(CLUSTER_HEALTH, { name });
  if (!cluster) throw new Error(`cluster ${name} not found`);
  return cluster.health;
}

function healthWhen(r: TestRegistry, name: string, accept: (h: HealthView) => boolean, what: string) {
  return eventually(
    async () => {
      const h = await health(r, name);
      return accept(h) ? h : undefined;
    },
    10_000,
    what,
  );
}

describe.each(databaseKinds)("cluster health on %s", (kind) => {
  const registry = useTestRegistry(kind, { REGISTRY_HEALTH_INTERVAL_MS: "200" });
  afterEach(() => testPlatform().down.clear());

  it("is UP for a registry-only cluster from the declaration on, and probed again periodically", async () => {
    const r = registry();
    await seed(r).cluster({ name: `up_${kind}` });
    const first = await health(r, `up_${kind}`);
    expect(first).toMatchObject({ status: "UP", latencyMs: 0, lastError: null, lastErrorAt: null });
    expect(first.lastUpAt).toBe(first.checkedAt);
    const later = await healthWhen(
      r,
      `up_${kind}`,
      (h) => h.checkedAt! > first.checkedAt!,
      "a periodic probe",
    );
    expect(later.status).toBe("UP");
  });

  it("turns DOWN with the provider's error during an outage, and UP again after it", async () => {
    const r = registry();
    const name = `outage_${kind}`;
    await seed(r).cluster({ name, provider: "test", config: { "test.provider": {} } });
    const declared = await health(r, name);
    expect(declared).toMatchObject({ status: "UP", latencyMs: 1, brokerCount: 1 });

    testPlatform().down.add(name);
    const down = await healthWhen(r, name, (h) => h.status === "DOWN", "DOWN");
    expect(down.lastError).toBe(`cannot reach cluster "${name}"`);
    expect(down.lastErrorAt).toBe(down.checkedAt);
    expect(down).toMatchObject({ latencyMs: null, brokerCount: null, lastUpAt: declared.lastUpAt });

    testPlatform().down.delete(name);
    const up = await healthWhen(r, name, (h) => h.status === "UP", "UP again");
    expect(up.details).toEqual({ platform: "test" });
    // The last error stays visible after recovery, with its time.
    expect(up).toMatchObject({ lastError: down.lastError, lastErrorAt: down.lastErrorAt });
    expect(up.lastUpAt! > down.checkedAt!).toBe(true);
  });

  it("accepts a binding on a cluster that is down, and realizes it once the cluster is back", async () => {
    const r = registry();
    const [name, stream] = [`deferred_${kind}`, `deferred_s_${kind}`];
    await seed(r).cluster({ name, provider: "test", config: { "test.provider": {} } });
    await seed(r).stream({ name: stream, config: { "test.provider": { partitions: 2 } } });
    testPlatform().down.add(name);
    // The cluster-fit check cannot run; the desired state is recorded all the same.
    const binding = await seed(r).binding({ stream, cluster: name });
    expect(binding.status.phase).toBe("PENDING");
    const pending = await eventually(
      async () => {
        const { binding } = await r.query<{ binding: BindingView }>(BINDING, { stream, cluster: name });
        return binding.status.message ? binding : undefined;
      },
      10_000,
      "the reconciler's message",
    );
    expect(pending.status).toMatchObject({ phase: "PENDING" });
    expect(pending.status.message).toContain(`cannot reach cluster "${name}"`);
    testPlatform().down.delete(name);
    await eventually(
      async () => {
        const { binding } = await r.query<{ binding: BindingView }>(BINDING, { stream, cluster: name });
        return binding.status.phase === "ONLINE" ? true : undefined;
      },
      15_000,
      "ONLINE once the cluster is back",
    );
  });

  it("logs a change of health once, not every probe", async () => {
    const r = registry();
    const name = `logged_${kind}`;
    await seed(r).cluster({ name, provider: "test", config: { "test.provider": {} } });
    testPlatform().down.add(name);
    const down = await healthWhen(r, name, (h) => h.status === "DOWN", "DOWN");
    await healthWhen(r, name, (h) => h.checkedAt! > down.checkedAt!, "another probe");
    const lines = r.logs.filter((l) => l.includes(`"cluster":"${name}"`) && l.includes('"status":"DOWN"'));
    expect(lines).toHaveLength(1);
  });
});

describe("health view", () => {
  const row = {
    status: "UP" as const,
    checkedAt: new Date("2026-01-01T00:00:00Z"),
    latencyMs: 3,
    brokerCount: 3,
    details: {},
    lastError: null,
    lastErrorAt: null,
    lastUpAt: new Date("2026-01-01T00:00:00Z"),
  };

  it("is UNKNOWN before the first probe", () => {
    expect(healthView(undefined, 90_000).status).toBe("UNKNOWN");
  });

  it("is UNKNOWN once the last probe is older than the stale bound, and keeps its facts", () => {
    expect(healthView(row, 90_000, new Date("2026-01-01T00:01:00Z")).status).toBe("UP");
    const stale = healthView(row, 90_000, new Date("2026-01-01T00:02:00Z"));
    expect(stale).toMatchObject({ status: "UNKNOWN", latencyMs: 3, checkedAt: row.checkedAt });
    expect(healthView(row, undefined, new Date("2030-01-01T00:00:00Z")).status).toBe("UP");
  });
});
