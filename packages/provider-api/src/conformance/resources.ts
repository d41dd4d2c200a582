import { describe, expect, it } from "vitest";
import type { ConnectorManager, ConnectorRequest, ConnectorTarget } from "../connectors.ts";
import { ResourceConflictError } from "../errors.ts";
import { bindingManager, type BindingRequest, type BindingTarget } from "../infrastructure.ts";
import type { OperationContext } from "../operation.ts";
import type { ReplicationRequest } from "../replication.ts";
import {
  RESOURCE_MANAGER_METHODS,
  type ResourceManager,
  type ResourceObservation,
} from "../resource-manager.ts";
import { expectJson, expectObservation, expectProviderError, rejection, within } from "./checks.ts";
import type { ConformanceTarget, ResourceSample } from "./target.ts";

/** One realized kind of a provider as the suite exercises it, through the generic contract. */
export interface ResourceSubject<Request, Target> {
  /** How messages name it: "binding", "stream source", ... */
  kind: string;
  manager: ResourceManager<Request, ResourceObservation, Target>;
  /** A request the provider accepts, for a resource no other test uses. */
  request(): Request | Promise<Request>;
  target(request: Request): Target;
  /** A request for the same resource that differs (see ResourceSample.conflicting). */
  conflicting?(request: Request): Request;
  /** Whether `conflicting` must be given: for bindings of real infrastructure. */
  conflictRequired: boolean;
  observesRealInfrastructure: boolean;
  /** How long a call given an already-aborted signal may take to reject. */
  abortTimeoutMs: number;
}

/** A subject of any request and target types: each check is a generic function it is given to. */
export type Subject = <T>(check: <Request, Target>(subject: ResourceSubject<Request, Target>) => T) => T;

const subject =
  <Request, Target>(s: ResourceSubject<Request, Target>): Subject =>
  (check) =>
    check(s);

/** The optional kinds a provider may support besides bindings, by their key in StreamProvider. */
const OPTIONAL_KINDS = ["sources", "sinks", "replication"] as const;

/** Every realized kind the target's provider supports: bindings, then the optional ones it has. */
export function subjectsOf(t: ConformanceTarget, streamName: () => string): Subject[] {
  const { provider, cluster, conflictingStream, observesRealInfrastructure } = t;
  const common = { observesRealInfrastructure, abortTimeoutMs: t.abortTimeoutMs ?? 2_000 };
  const subjects = [
    subject<BindingRequest, BindingTarget>({
      kind: "binding",
      manager: bindingManager(provider.infrastructure),
      request: () => ({
        streamName: streamName(),
        cluster,
        configMaps: t.validStream,
        producerConfig: {},
        consumerConfig: {},
      }),
      target: (request) => ({ streamName: request.streamName, cluster: request.cluster }),
      conflicting: conflictingStream && ((request) => ({ ...request, configMaps: conflictingStream })),
      conflictRequired: observesRealInfrastructure,
      ...common,
    }),
  ];
  const connector = (kind: string, manager?: ConnectorManager, sample?: ResourceSample<ConnectorRequest>) => {
    if (!manager || !sample) return;
    subjects.push(
      subject<ConnectorRequest, ConnectorTarget>({
        kind,
        manager,
        request: () => sample.request(),
        target: (request) => ({ name: request.name, cluster: request.cluster }),
        conflicting: sample.conflicting && ((request) => sample.conflicting!(request)),
        conflictRequired: false,
        ...common,
      }),
    );
  };
  connector("stream source", provider.sources, t.sources);
  connector("stream sink", provider.sinks, t.sinks);
  const replication = t.replication;
  if (provider.replication && replication) {
    subjects.push(
      subject<ReplicationRequest, ReplicationRequest>({
        kind: "replication",
        manager: provider.replication,
        request: () => replication.request(),
        target: (request) => request,
        conflicting: replication.conflicting && ((request) => replication.conflicting!(request)),
        conflictRequired: false,
        ...common,
      }),
    );
  }
  return subjects;
}

const ctx = (): OperationContext => ({ signal: new AbortController().signal });

/** Runs `work` on `count` fresh requests, removing what it made even when it failed half-way. */
async function withResources<Request, Target>(
  s: ResourceSubject<Request, Target>,
  count: number,
  work: (requests: Request[]) => Promise<void>,
): Promise<void> {
  const requests: Request[] = [];
  try {
    for (let i = 0; i < count; i++) requests.push(await s.request());
    await work(requests);
  } finally {
    for (const request of requests) await s.manager.remove(s.target(request), ctx()).catch(() => {});
  }
}

const withResource = <Request, Target>(
  s: ResourceSubject<Request, Target>,
  work: (request: Request) => Promise<void>,
) => withResources(s, 1, (requests) => work(requests[0]!));

async function createsAndObserves<Request, Target>(s: ResourceSubject<Request, Target>) {
  await withResource(s, async (request) => {
    const { manager, kind } = s;
    expectObservation(await manager.create(request, ctx()), `${kind}: create`);
    expectObservation(await manager.create(request, ctx()), `${kind}: second create`);
    const observed = await manager.observe(s.target(request), ctx());
    expectObservation(observed, `${kind}: observe`);
    if (s.observesRealInfrastructure) expect(observed, `${kind} observed after create`).not.toBeNull();
  });
}

async function updates<Request, Target>(s: ResourceSubject<Request, Target>) {
  await withResource(s, async (request) => {
    const { manager, kind } = s;
    await manager.create(request, ctx());
    expectObservation(await manager.update(request, ctx()), `${kind}: update`);
    expectObservation(await manager.update(request, ctx()), `${kind}: second update`);
    if (s.observesRealInfrastructure) {
      expect(await manager.observe(s.target(request), ctx()), `${kind} after update`).not.toBeNull();
    }
  });
}

async function removes<Request, Target>(s: ResourceSubject<Request, Target>) {
  await withResource(s, async (request) => {
    const { manager, kind } = s;
    const target = s.target(request);
    await manager.create(request, ctx());
    await manager.remove(target, ctx());
    await manager.remove(target, ctx());
    const observed = await manager.observe(target, ctx());
    expectObservation(observed, `${kind}: observe after delete`);
    if (s.observesRealInfrastructure) expect(observed, `${kind} observed after delete`).toBeNull();
  });
}

async function refusesConflicts<Request, Target>(s: ResourceSubject<Request, Target>) {
  const { conflicting, manager, kind } = s;
  if (!conflicting) {
    // Only a provider that realizes nothing may have no conflicting binding; another kind may have
    // nothing to compare (a replication's request is all it is).
    expect(s.conflictRequired, `a target with real resources gives a conflicting ${kind} request`).toBe(
      false,
    );
    return;
  }
  await withResource(s, async (request) => {
    const target = s.target(request);
    await manager.create(request, ctx());
    const before = await manager.observe(target, ctx());
    const error = await rejection(
      10_000,
      `${kind}: create(conflicting)`,
      manager.create(conflicting(request), ctx()),
    );
    expect(error, `the refusal of the ${kind}`).toBeInstanceOf(ResourceConflictError);
    expectProviderError(error, false);
    const after = await manager.observe(target, ctx());
    expect(after?.details, `the ${kind} after the refused create`).toEqual(before?.details);
  });
}

async function removesTheNeverMade<Request, Target>(s: ResourceSubject<Request, Target>) {
  const target = s.target(await s.request());
  await s.manager.remove(target, ctx());
  const observed = await s.manager.observe(target, ctx());
  if (s.observesRealInfrastructure) expect(observed, `${s.kind} never made`).toBeNull();
  else expectJson(observed, `${s.kind}: observe of a missing one`);
}

/** Each call rejects promptly when its signal is already aborted, and creates nothing. */
export async function rejectsWhenAborted<Request, Target>(s: ResourceSubject<Request, Target>) {
  await withResource(s, async (request) => {
    const { manager, kind, abortTimeoutMs: bound } = s;
    const target = s.target(request);
    const controller = new AbortController();
    controller.abort(new Error("conformance: aborted"));
    const aborted = { signal: controller.signal };
    await rejection(bound, `${kind}: create(aborted)`, manager.create(request, aborted));
    await rejection(bound, `${kind}: update(aborted)`, manager.update(request, aborted));
    await rejection(bound, `${kind}: observe(aborted)`, manager.observe(target, aborted));
    await rejection(bound, `${kind}: remove(aborted)`, manager.remove(target, aborted));
    if (s.observesRealInfrastructure) {
      expect(await within(15_000, `${kind}: observe`, manager.observe(target, ctx()))).toBeNull();
    }
  });
}

/** Outcomes of a batch call: one per request, in order, each a success. */
function expectBatch(outcomes: readonly { ok: boolean; error?: unknown }[], count: number, what: string) {
  expect(outcomes, `${what}: one outcome per request`).toHaveLength(count);
  for (const outcome of outcomes) {
    expect(outcome.ok, `${what}: ${outcome.ok ? "" : String(outcome.error)}`).toBe(true);
  }
}

async function batches<Request, Target>(s: ResourceSubject<Request, Target>) {
  const { manager, kind } = s;
  if (!manager.createMany && !manager.removeMany) return;
  await withResources(s, 2, async (requests) => {
    const targets = requests.map((request) => s.target(request));
    for (const round of ["createMany", "second createMany"]) {
      if (!manager.createMany) break;
      const outcomes = await manager.createMany(requests, ctx());
      expectBatch(outcomes, requests.length, `${kind}: ${round}`);
      for (const outcome of outcomes) if (outcome.ok) expectObservation(outcome.value, `${kind}: ${round}`);
    }
    if (!manager.createMany) for (const request of requests) await manager.create(request, ctx());
    if (s.observesRealInfrastructure) {
      for (const target of targets) expect(await manager.observe(target, ctx())).not.toBeNull();
    }
    if (!manager.removeMany) return;
    for (const round of ["removeMany", "second removeMany"]) {
      expectBatch(await manager.removeMany(targets, ctx()), targets.length, `${kind}: ${round}`);
    }
    if (s.observesRealInfrastructure) {
      for (const target of targets) expect(await manager.observe(target, ctx())).toBeNull();
    }
  });
}

/**
 * The section every provider runs for every realized kind it supports (bindings always; stream
 * sources, sinks and replication where it has their managers): one set of checks over the generic
 * ResourceManager contract.
 */
export function defineResourceSection(target: () => ConformanceTarget, subjects: () => Subject[]): void {
  const each = async (check: <Request, Target>(s: ResourceSubject<Request, Target>) => Promise<void>) => {
    for (const one of subjects()) await one(check);
  };
  describe("realized kinds", () => {
    it("has every method and a sample for each optional kind it supports, and lists its types", async () => {
      const t = target();
      for (const key of OPTIONAL_KINDS) {
        const manager = t.provider[key] as Record<string, unknown> | undefined;
        expect(t[key] !== undefined, `a provider with ${key} needs a ${key} sample, and only it`).toBe(
          manager !== undefined,
        );
        for (const method of manager ? RESOURCE_MANAGER_METHODS : []) {
          expect(typeof manager?.[method], `${key}.${method}`).toBe("function");
        }
      }
      const { sources, sinks } = t.provider;
      const lists = [
        { kind: "stream source", sample: t.sources, manager: sources },
        { kind: "stream sink", sample: t.sinks, manager: sinks },
      ];
      for (const { kind, sample, manager } of lists) {
        if (!manager || !sample) continue;
        const offered = (await manager.types(t.cluster, ctx())).types.map((type) => type.name);
        expect(offered.length, `${kind} types of the reachable cluster`).toBeGreaterThan(0);
        expect(offered, `${kind} types`).toContain((await sample.request()).type);
      }
    });

    it("creates idempotently and observes what it created", () => each(createsAndObserves));
    it("updates idempotently", () => each(updates));
    it("deletes idempotently, and a deleted resource is not observed", () => each(removes));
    it("refuses, as a conflict, to create over an existing resource that differs, leaving it as it is", () =>
      each(refusesConflicts));
    it("deletes a resource that never existed, and does not observe it", () => each(removesTheNeverMade));
    it("creates and deletes in batches as it does one by one, where it has batch calls", () => each(batches));
  });
}
