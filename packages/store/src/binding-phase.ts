import { nextPhase, Phase, type ConfigMaps, type PhaseEvent } from "@stream-registry/core";
import type { Tx } from "./transaction.ts";
import { open } from "./open-db.ts";

/** A phase change as core's state machine names it: where the binding was, and what happened. */
export interface PhaseTransition {
  from: Phase;
  event: PhaseEvent;
}

/** The binding a phase write applies to; the write is skipped if the row no longer matches. */
export interface PhaseTarget {
  id: string;
  /** The generation the caller read: a newer desired state has its own job and must not be overwritten. */
  generation?: number;
  /** Only while the row is (or is not) in this phase. */
  phase?: Phase | { not: Phase };
}

/** What is written beside the phase; never the phase itself, which only the transition decides. */
export interface PhaseWriteFields {
  message?: string | null;
  generation?: { increment: number };
  isDefault?: boolean;
  config?: ConfigMaps;
  producerConfig?: ConfigMaps;
  consumerConfig?: ConfigMaps;
}

/**
 * The only way a binding's phase is written (a test scans for others): the new phase is what
 * core's `nextPhase` gives, so an invalid transition, an edit of a binding being deleted, throws
 * BEING_DELETED instead of being written.
 */
export async function writeBindingPhase(
  tx: Tx,
  target: PhaseTarget,
  transition: PhaseTransition,
  fields: PhaseWriteFields = {},
): Promise<{ phase: Phase; written: boolean }> {
  const phase = nextPhase(transition.from, transition.event);
  const { count } = await open(tx).binding.updateMany({
    where: {
      id: target.id,
      ...(target.generation === undefined ? {} : { generation: target.generation }),
      ...(target.phase === undefined ? {} : { phase: target.phase }),
    },
    data: { ...fields, phase, statusUpdatedAt: new Date() },
  });
  return { phase, written: count > 0 };
}

/**
 * The same rule for set-based SQL: `CASE <column> WHEN 'PENDING' THEN 'PENDING' ... END`, one
 * branch per phase in `from`, each computed by `nextPhase`. Callers filter rows to `from`, so a
 * phase the machine refuses `event` for is never written (listing one in `from` throws here).
 */
export function phaseCaseSql(column: string, event: PhaseEvent, from: readonly Phase[]): string {
  const branches = from.map((phase) => `WHEN '${phase}' THEN '${nextPhase(phase, event)}'`);
  return `CASE ${column} ${branches.join(" ")} END::"Phase"`;
}

/** Phases in which a binding is not being deleted: its desired state may still change. */
export const LIVE_PHASES: readonly Phase[] = [Phase.PENDING, Phase.ONLINE, Phase.FAILED];
