import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { INFRASTRUCTURE_METHODS } from "../infrastructure.ts";
import type { OperationContext } from "../operation.ts";
import type { ConfigScope } from "../provider.ts";
import { expectProbe, expectProviderError, rejection } from "./checks.ts";
import { defineResourceSection, rejectsWhenAborted, subjectsOf, type Subject } from "./resources.ts";
import type { ConformanceFactory, ConformanceTarget } from "./target.ts";

const SCOPES: readonly ConfigScope[] = ["cluster", "stream", "producer", "consumer"];
/**
 * A key no map can define. Not a well-formed name either: pass-through maps (raw Kafka topic
 * configs, judged by the broker) may accept any well-formed name, but must still check names.
 */
const UNKNOWN_KEY = "Conformance: unknown key!";

/**
 * The provider conformance suite: the same tests, run against every provider, with the
 * infrastructure the factory supplies. Call it at the top level of a test file:
 *
 * ```ts
 * defineProviderConformanceSuite(async () => ({
 *   provider: kafkaProvider,
 *   cluster: { namespace: "/", name: "c1", config: { "apache.kafka": { "bootstrap.servers": url } } },
 *   unreachableCluster: { namespace: "/", name: "down", config: { "apache.kafka": { "bootstrap.servers": "127.0.0.1:1" } } },
 *   validStream: { "apache.kafka": { partitions: 1, replication: 1 } },
 *   invalidStream: { configMaps: { "apache.kafka": { partitions: 0 } }, field: ["apache.kafka", "partitions"] },
 *   conflictingStream: { "apache.kafka": { partitions: 2, replication: 1 } },
 *   observesRealInfrastructure: true,
 * }));
 * ```
 *
 * What it checks (every test can fail):
 * - shape: kind, description, config-map definitions (unique names, descriptions, valid
 *   `requiredIn` scopes), every infrastructure method present; the target's own configs pass the
 *   provider's validators; a key nobody knows (nor could: it is not a well-formed name) is refused
 *   in every owned map, in every scope;
 * - clusters: `validateCluster` and `probeCluster` answer for the reachable cluster with a sane
 *   probe; the unreachable one is refused with a retriable ProviderError within a bound;
 * - streams: `validateStream` accepts `validStream` and refuses `invalidStream` with a
 *   non-retriable ProviderError whose issues name the expected field;
 * - realized kinds, one section over the generic ResourceManager contract, run for every kind the
 *   provider supports (bindings, through `bindingManager`; `sources`, `sinks` and `replication`
 *   where it has them, each with the target's sample, which it must give for those and only
 *   those): create, update and remove are idempotent (each called twice); observations are plain
 *   JSON; with real infrastructure, a resource is observed after create and not after remove, and
 *   a create of the conflicting request over an existing resource is a ResourceConflictError that
 *   leaves it as it is; the batch calls, where it has them, answer one success per request and
 *   are idempotent too; sources and sinks list the sample's type for the reachable cluster;
 * - cancellation: a call given an already-aborted signal (a probe, and each call of each kind)
 *   rejects promptly and creates nothing;
 * - `close()` may be called twice. It runs last: the provider is closed when the suite ends.
 *
 * The factory runs once, in `beforeAll`; `dispose` runs in `afterAll`. Resources made by a test
 * are removed by that test.
 */
export function defineProviderConformanceSuite(
  factory: ConformanceFactory,
  options: { title?: string } = {},
): void {
  describe(options.title ?? "stream provider conformance", () => {
    let target: ConformanceTarget | undefined;
    const t = (): ConformanceTarget => {
      if (!target) throw new Error("conformance factory failed (see beforeAll)");
      return target;
    };
    beforeAll(async () => {
      target = await factory();
    });
    afterAll(async () => {
      await target?.dispose?.();
    });

    const ctx = (): OperationContext => ({ signal: new AbortController().signal });
    const name = () =>
      t().streamName?.() ?? `conformance_${Date.now().toString(36)}_${randomBytes(4).toString("hex")}`;
    /** Every realized kind the provider supports, each through the generic contract. */
    let kinds: Subject[] | undefined;
    const subjects = () => (kinds ??= subjectsOf(t(), name));

    describe("shape", () => {
      it("has a kind, a description and every infrastructure method", () => {
        const { provider } = t();
        expect(provider.kind).toMatch(/^[a-z0-9][a-z0-9.-]*$/);
        expect(provider.description.trim().length).toBeGreaterThan(0);
        for (const method of INFRASTRUCTURE_METHODS) {
          expect(typeof provider.infrastructure[method], `infrastructure.${method}`).toBe("function");
        }
      });

      it("documents each config map it owns once, with valid scopes", () => {
        const { configMaps } = t().provider;
        const names = configMaps.map((m) => m.name);
        expect(new Set(names).size, `duplicate config map names in ${names.join(", ")}`).toBe(names.length);
        for (const map of configMaps) {
          expect(map.name).toMatch(/^[a-z0-9][a-z0-9._-]*$/);
          expect(map.description.trim().length, `description of "${map.name}"`).toBeGreaterThan(0);
          for (const scope of map.requiredIn ?? []) expect(SCOPES).toContain(scope);
        }
      });

      it("accepts the target's own cluster and stream configs in its map validators", () => {
        const { provider, cluster, validStream } = t();
        for (const map of provider.configMaps) {
          const inCluster = cluster.config[map.name];
          if (inCluster)
            expect(map.validate?.(inCluster, "cluster") ?? [], `cluster ${map.name}`).toEqual([]);
          const inStream = validStream[map.name];
          if (inStream) expect(map.validate?.(inStream, "stream") ?? [], `stream ${map.name}`).toEqual([]);
        }
      });

      it("refuses an unknown key in every config map it owns, naming the key", () => {
        const { provider, cluster, validStream } = t();
        for (const map of provider.configMaps) {
          expect(typeof map.validate, `"${map.name}" needs a validator to refuse unknown keys`).toBe(
            "function",
          );
          const base = validStream[map.name] ?? cluster.config[map.name] ?? {};
          for (const scope of SCOPES) {
            const issues = map.validate!({ ...base, [UNKNOWN_KEY]: "x" }, scope);
            // Naming the key, or refusing the whole map in a scope where it does not belong.
            const named = issues.some((i) => i.field[0] === UNKNOWN_KEY || i.field.length === 0);
            expect(named, `"${map.name}" in scope ${scope}: ${JSON.stringify(issues)}`).toBe(true);
          }
        }
      });
    });

    describe("clusters", () => {
      it("validates the reachable cluster, returning a sane probe if any", async () => {
        const { provider, cluster } = t();
        const probe = await provider.infrastructure.validateCluster(cluster.name, cluster.config, ctx());
        if (probe) expectProbe(probe, "validateCluster");
      });

      it("probes the reachable cluster", async () => {
        const { provider, cluster } = t();
        expectProbe(await provider.infrastructure.probeCluster(cluster, ctx()), "probeCluster");
      });

      it("refuses an unreachable cluster with a retriable error within the bound", async () => {
        const { provider, unreachableCluster, observesRealInfrastructure } = t();
        if (!unreachableCluster) {
          // Only a provider that reaches nothing may go without an unreachable cluster.
          expect(
            observesRealInfrastructure,
            "a provider of real infrastructure needs unreachableCluster",
          ).toBe(false);
          return;
        }
        const bound = t().unreachableTimeoutMs ?? 15_000;
        const infra = provider.infrastructure;
        expectProviderError(
          await rejection(bound, "probeCluster(unreachable)", infra.probeCluster(unreachableCluster, ctx())),
          true,
        );
        const validation = infra.validateCluster(unreachableCluster.name, unreachableCluster.config, ctx());
        expectProviderError(await rejection(bound, "validateCluster(unreachable)", validation), true);
      }, 60_000);
    });

    describe("streams", () => {
      it("accepts the valid stream config, with and without a cluster", async () => {
        const { provider, cluster, validStream } = t();
        const streamName = name();
        await provider.infrastructure.validateStream(streamName, validStream, ctx());
        await provider.infrastructure.validateStream(streamName, validStream, { ...ctx(), cluster });
      });

      it("refuses the invalid stream config, naming the field, as not retriable", async () => {
        const { provider, cluster, invalidStream } = t();
        const infra = provider.infrastructure;
        if (!invalidStream) {
          // A provider without an invalid config must accept anything, even maps it never heard of.
          await infra.validateStream(name(), { "conformance.other": { anything: 1 } }, { ...ctx(), cluster });
          return;
        }
        const error = await rejection(
          10_000,
          "validateStream(invalid)",
          infra.validateStream(name(), invalidStream.configMaps, { ...ctx(), cluster }),
        );
        const refused = expectProviderError(error, false);
        const fields = refused.issues.map((i) => i.field);
        expect(fields, `issues of "${refused.message}"`).toContainEqual(invalidStream.field);
        for (const issue of refused.issues) expect(issue.message.length).toBeGreaterThan(0);
      });
    });

    defineResourceSection(t, subjects);

    describe("cancellation", () => {
      it("rejects promptly when the signal is already aborted, creating nothing", async () => {
        const { provider, cluster } = t();
        const controller = new AbortController();
        controller.abort(new Error("conformance: aborted"));
        const probe = provider.infrastructure.probeCluster(cluster, { signal: controller.signal });
        await rejection(t().abortTimeoutMs ?? 2_000, "probeCluster(aborted)", probe);
        for (const subject of subjects()) await subject(rejectsWhenAborted);
      });
    });

    describe("close", () => {
      it("can be closed twice", async () => {
        const { provider } = t();
        expect(["undefined", "function"]).toContain(typeof provider.close);
        await provider.close?.();
        await provider.close?.();
      });
    });
  });
}
