import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ConfigMaps } from "@stream-registry/core";
import { INFRASTRUCTURE_METHODS, type BindingRequest, type OperationContext } from "../infrastructure.ts";
import { ResourceConflictError } from "../errors.ts";
import type { ConfigScope } from "../provider.ts";
import {
  expectJson,
  expectObservation,
  expectProbe,
  expectProviderError,
  rejection,
  within,
} from "./checks.ts";
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
 * - bindings: create, update and delete are idempotent (each called twice); observations are plain
 *   JSON; with real infrastructure, a binding is observed after create and not after delete, and
 *   a create of `conflictingStream` over an existing binding is a ResourceConflictError that
 *   leaves it as it is;
 * - cancellation: a call given an already-aborted signal rejects promptly and creates nothing;
 * - `close()` may be called twice. It runs last: the provider is closed when the suite ends.
 *
 * The factory runs once, in `beforeAll`; `dispose` runs in `afterAll`. Bindings made by a test are
 * deleted by that test.
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
    const request = (streamName: string, configMaps: ConfigMaps = t().validStream): BindingRequest => ({
      streamName,
      cluster: t().cluster,
      configMaps,
      producerConfig: {},
      consumerConfig: {},
    });
    /** Deletes what a test created even when it failed half-way. */
    const withBinding = async (work: (streamName: string) => Promise<void>) => {
      const streamName = name();
      try {
        await work(streamName);
      } finally {
        await t()
          .provider.infrastructure.deleteStreamBinding(streamName, t().cluster, ctx())
          .catch(() => {});
      }
    };

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

    describe("bindings", () => {
      it("creates idempotently and observes what it created", () =>
        withBinding(async (streamName) => {
          const infra = t().provider.infrastructure;
          expectObservation(await infra.createStreamBinding(request(streamName), ctx()), "create");
          expectObservation(await infra.createStreamBinding(request(streamName), ctx()), "second create");
          const observed = await infra.observeStreamBinding(streamName, t().cluster, ctx());
          expectObservation(observed, "observe");
          if (t().observesRealInfrastructure) expect(observed, "observed after create").not.toBeNull();
        }));

      it("updates idempotently", () =>
        withBinding(async (streamName) => {
          const infra = t().provider.infrastructure;
          await infra.createStreamBinding(request(streamName), ctx());
          expectObservation(await infra.updateStreamBinding(request(streamName), ctx()), "update");
          expectObservation(await infra.updateStreamBinding(request(streamName), ctx()), "second update");
          if (t().observesRealInfrastructure) {
            expect(await infra.observeStreamBinding(streamName, t().cluster, ctx())).not.toBeNull();
          }
        }));

      it("deletes idempotently, and a deleted binding is not observed", () =>
        withBinding(async (streamName) => {
          const infra = t().provider.infrastructure;
          await infra.createStreamBinding(request(streamName), ctx());
          await infra.deleteStreamBinding(streamName, t().cluster, ctx());
          await infra.deleteStreamBinding(streamName, t().cluster, ctx());
          const observed = await infra.observeStreamBinding(streamName, t().cluster, ctx());
          expectObservation(observed, "observe after delete");
          if (t().observesRealInfrastructure) expect(observed, "observed after delete").toBeNull();
        }));

      it("refuses, as a conflict, to create over an existing resource that differs, leaving it as it is", async () => {
        const { conflictingStream } = t();
        if (!conflictingStream) {
          // Only a provider that realizes nothing may have nothing to conflict with.
          expect(
            t().observesRealInfrastructure,
            "a target with real resources gives a conflictingStream",
          ).toBe(false);
          return;
        }
        await withBinding(async (streamName) => {
          const infra = t().provider.infrastructure;
          await infra.createStreamBinding(request(streamName), ctx());
          const before = await infra.observeStreamBinding(streamName, t().cluster, ctx());
          const error = await rejection(
            10_000,
            "createStreamBinding(conflicting)",
            infra.createStreamBinding(request(streamName, conflictingStream), ctx()),
          );
          expect(error, "the refusal").toBeInstanceOf(ResourceConflictError);
          expectProviderError(error, false);
          const after = await infra.observeStreamBinding(streamName, t().cluster, ctx());
          expect(after?.details, "the resource after the refused create").toEqual(before?.details);
        });
      });

      it("deletes a binding that never existed, and does not observe it", async () => {
        const infra = t().provider.infrastructure;
        const streamName = name();
        await infra.deleteStreamBinding(streamName, t().cluster, ctx());
        const observed = await infra.observeStreamBinding(streamName, t().cluster, ctx());
        if (t().observesRealInfrastructure) expect(observed).toBeNull();
        else expectJson(observed, "observe of a missing binding");
      });
    });

    describe("cancellation", () => {
      it("rejects promptly when the signal is already aborted, creating nothing", () =>
        withBinding(async (streamName) => {
          const { provider, cluster } = t();
          const infra = provider.infrastructure;
          const bound = t().abortTimeoutMs ?? 2_000;
          const controller = new AbortController();
          controller.abort(new Error("conformance: aborted"));
          const aborted = { signal: controller.signal };
          await rejection(bound, "probeCluster(aborted)", infra.probeCluster(cluster, aborted));
          await rejection(
            bound,
            "createStreamBinding(aborted)",
            infra.createStreamBinding(request(streamName), aborted),
          );
          await rejection(
            bound,
            "updateStreamBinding(aborted)",
            infra.updateStreamBinding(request(streamName), aborted),
          );
          await rejection(
            bound,
            "observeStreamBinding(aborted)",
            infra.observeStreamBinding(streamName, cluster, aborted),
          );
          await rejection(
            bound,
            "deleteStreamBinding(aborted)",
            infra.deleteStreamBinding(streamName, cluster, aborted),
          );
          if (t().observesRealInfrastructure) {
            expect(
              await within(15_000, "observe", infra.observeStreamBinding(streamName, cluster, ctx())),
            ).toBeNull();
          }
        }));
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
