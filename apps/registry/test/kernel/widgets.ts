import type { ResourceStatus } from "@stream-registry/core";
import {
  defineResourceTable,
  enqueueJob,
  findResourcesToObserve,
  writeResourcePhase,
  writeTransaction,
  type Database,
  type Db,
  type Tx,
} from "@stream-registry/store";
import type { ReconcileHandler } from "../../src/reconciler/handler.ts";
import type { FakePlatform } from "./fake-platform.ts";
import { prismaOf } from "@stream-registry/store/testing";

/**
 * A second resource kind, defined by the test alone: a table with the status block beside its
 * desired state (a `spec`), its observations, its writes and its handler. Nothing in src knows it.
 */
export const WIDGETS = defineResourceTable({
  kind: "test_widget",
  table: "test_widget",
  observationTable: "test_widget_observation",
  observationKey: "widget_id",
});

interface Widget extends ResourceStatus {
  name: string;
  spec: { size: number };
}

export async function createWidgetTables(db: Database): Promise<void> {
  await prismaOf(db.prisma).$executeRawUnsafe(`
    CREATE TABLE test_widget (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      name text NOT NULL UNIQUE,
      spec jsonb NOT NULL,
      generation int NOT NULL DEFAULT 1,
      observed_generation int,
      pending_creates jsonb DEFAULT '[]',
      phase "Phase" NOT NULL DEFAULT 'PENDING',
      message text,
      status_updated_at timestamptz(3) NOT NULL DEFAULT now())`);
  await prismaOf(db.prisma).$executeRawUnsafe(`
    CREATE TABLE test_widget_observation (
      widget_id uuid PRIMARY KEY REFERENCES test_widget (id) ON DELETE CASCADE,
      message text,
      details jsonb NOT NULL DEFAULT '{}',
      observed_at timestamptz(3) NOT NULL)`);
}

async function loadWidget(db: Db, by: { id: string } | { name: string }): Promise<Widget | null> {
  const rows = await prismaOf(db).$queryRaw<
    {
      id: string;
      name: string;
      spec: { size: number };
      generation: number;
      observed_generation: number | null;
      phase: Widget["phase"];
      pending_creates: Widget["pendingCreates"];
    }[]
  >`SELECT id::text AS id, name, spec, generation, observed_generation, phase, pending_creates
      FROM test_widget WHERE ${"id" in by ? by.id : null}::uuid = id OR ${"name" in by ? by.name : null} = name`;
  const row = rows[0];
  return row
    ? {
        id: row.id,
        name: row.name,
        spec: row.spec,
        generation: row.generation,
        observedGeneration: row.observed_generation,
        phase: row.phase,
        pendingCreates: row.pending_creates,
      }
    : null;
}

/** The widget kind's writes: each a new desired state with its job, in one transaction. */
export function widgetWrites(db: Database) {
  const change = (name: string, write: (tx: Tx, widget: Widget) => Promise<void>) =>
    writeTransaction(db.prisma, async (tx) => {
      const widget = (await loadWidget(tx, { name }))!;
      await write(tx, widget);
      await enqueueJob(tx, WIDGETS.kind, widget.id);
    });
  return {
    async create(name: string, size: number): Promise<string> {
      return writeTransaction(db.prisma, async (tx) => {
        const [row] = await prismaOf(tx).$queryRaw<{ id: string }[]>`
          INSERT INTO test_widget (name, spec) VALUES (${name}, ${JSON.stringify({ size })}::jsonb)
            RETURNING id::text AS id`;
        await enqueueJob(tx, WIDGETS.kind, row!.id);
        return row!.id;
      });
    },
    change: (name: string, size: number) =>
      change(name, async (tx, widget) => {
        await prismaOf(tx).$executeRaw`UPDATE test_widget SET spec = ${JSON.stringify({ size })}::jsonb,
          generation = generation + 1 WHERE id = ${widget.id}::uuid`;
        await writeResourcePhase(
          tx,
          WIDGETS,
          { id: widget.id },
          { from: widget.phase, event: "desired-changed" },
        );
      }),
    remove: (name: string) =>
      change(name, async (tx, widget) => {
        await writeResourcePhase(
          tx,
          WIDGETS,
          { id: widget.id },
          { from: widget.phase, event: "delete-requested" },
        );
      }),
  };
}

export function widgetHandler(db: Database, platform: FakePlatform): ReconcileHandler<Widget> {
  return {
    resource: WIDGETS,
    load: (id) => loadWidget(db.prisma, { id }),
    name: (widget) => widget.name,
    location: () => `platform "fake"`,
    journaled: () => true,
    createRequest: (widget) => ({ spec: widget.spec }),
    create: (widget, request, { signal }) => platform.create(widget.name, request.spec, signal),
    batchKey: () => "fake",
    createMany: (items, { signal }) =>
      platform.createMany(
        items.map(({ r, request }) => ({ name: r.name, spec: request.spec })),
        signal,
      ),
    update: (widget, { signal }) => platform.update(widget.name, widget.spec, signal),
    observe: (widget, { signal }) => platform.observe(widget.name, signal),
    remove: (widget, { signal }) => platform.remove(widget.name, signal),
    removeMany: (widgets, { signal }) =>
      platform.removeMany(
        widgets.map((widget) => widget.name),
        signal,
      ),
    async findToObserve(query) {
      const ids = await findResourcesToObserve(db.prisma, WIDGETS, query);
      const widgets = await Promise.all(ids.map((id) => loadWidget(db.prisma, { id })));
      return widgets.filter((widget) => widget !== null);
    },
  };
}
