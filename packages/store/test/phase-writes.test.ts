import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import ts from "typescript";
import { describe, expect, expectTypeOf, it } from "vitest";
import { ErrorCode, nextPhase, Phase } from "@stream-registry/core";
import { Phase as DatabasePhase } from "../src/generated/prisma/enums.ts";
import { LIVE_PHASES, phaseCaseSql } from "../src/binding-phase.ts";

const root = join(import.meta.dirname, "../../..");
/** Everything that talks to the database; the modules allowed to write a phase (both ask nextPhase). */
const scanned = ["packages/store/src", "apps/registry/src"];
const PHASE_WRITERS = ["packages/store/src/binding-phase.ts", "packages/store/src/resource-phase.ts"];
const PRISMA_WRITES = new Set(["create", "createMany", "update", "updateMany", "upsert"]);

function sourceFiles(dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith(".ts"))
    .map((entry) => relative(root, join(entry.parentPath, entry.name)))
    .filter((path) => !path.includes("/generated/"));
}

/** A `phase` key inside the `data` of a Prisma write call (`tx.binding.updateMany({ data: { phase } })`). */
function isPrismaPhaseWrite(node: ts.Node): boolean {
  if (!(ts.isPropertyAssignment(node) || ts.isShorthandPropertyAssignment(node))) return false;
  if (node.name.getText() !== "phase") return false;
  let insideData = false;
  for (let at: ts.Node = node.parent; !ts.isSourceFile(at); at = at.parent) {
    if (ts.isPropertyAssignment(at) && ["data", "create", "update"].includes(at.name.getText()))
      insideData = true;
    if (ts.isCallExpression(at)) {
      const callee = at.expression;
      return insideData && ts.isPropertyAccessExpression(callee) && PRISMA_WRITES.has(callee.name.text);
    }
  }
  return false;
}

/**
 * `phase = ...` in SQL, unless the value is `${phaseCaseSql(...)}`, which asks nextPhase. A
 * comparison right after WHERE, AND, OR or ON (`WHERE r.phase = 'ONLINE'`) reads, not writes.
 */
function sqlPhaseWrites(node: ts.Node): string[] {
  const assigns = /(?<!\b(?:WHERE|AND|OR|ON)\s+(?:\w+\.)?)\bphase\s*=(?!=)/i;
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) {
    return assigns.test(node.text) ? [node.text] : [];
  }
  if (!ts.isTemplateExpression(node)) return [];
  const parts = [node.head.text, ...node.templateSpans.map((span) => span.literal.text)];
  return parts.filter((text, index) => {
    if (!assigns.test(text)) return false;
    const next = node.templateSpans[index]?.expression;
    const viaMachine =
      /\bphase\s*=\s*$/.test(text) &&
      next !== undefined &&
      ts.isCallExpression(next) &&
      next.expression.getText() === "phaseCaseSql";
    return !viaMachine;
  });
}

function phaseWritesIn(path: string): string[] {
  const text = readFileSync(join(root, path), "utf8");
  const file = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    const line = file.getLineAndCharacterOfPosition(node.getStart()).line + 1;
    if (isPrismaPhaseWrite(node)) found.push(`${path}:${line}: ${node.getText()}`);
    for (const sql of sqlPhaseWrites(node)) found.push(`${path}:${line}: SQL ${sql.trim().slice(0, 80)}`);
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

describe("phase writes", () => {
  it("go only through writeBindingPhase, writeResourcePhase or phaseCaseSql, which ask core's nextPhase", () => {
    const files = scanned.flatMap(sourceFiles).filter((path) => !PHASE_WRITERS.includes(path));
    expect(files.length).toBeGreaterThan(20);
    expect(files.flatMap(phaseWritesIn)).toEqual([]);
  });

  it("are found by the scan when written directly, in Prisma or in SQL", () => {
    const probe = (source: string) => {
      const file = ts.createSourceFile("probe.ts", source, ts.ScriptTarget.Latest, true);
      const found: boolean[] = [];
      const visit = (node: ts.Node): void => {
        found.push(isPrismaPhaseWrite(node) || sqlPhaseWrites(node).length > 0);
        ts.forEachChild(node, visit);
      };
      visit(file);
      return found.some(Boolean);
    };
    expect(probe(`tx.binding.updateMany({ where: { id }, data: { phase: Phase.PENDING } })`)).toBe(true);
    expect(probe(`tx.binding.update({ where: { id }, data: { ...rest, phase } })`)).toBe(true);
    expect(probe("tx.$executeRawUnsafe(`UPDATE binding SET phase = 'PENDING' WHERE id = $1`)")).toBe(true);
    expect(probe("tx.$executeRaw`UPDATE binding SET message = NULL, phase = ${p}`")).toBe(true);
    expect(
      probe("tx.$executeRaw`UPDATE ${t} SET message = NULL,\n  phase = 'FAILED' WHERE id = ${id}`"),
    ).toBe(true);
    expect(probe("tx.$executeRaw`UPDATE ${t} SET phase = ${p} WHERE phase = 'ONLINE'`")).toBe(true);
    expect(probe(`tx.binding.findMany({ where: { phase: Phase.ONLINE } })`)).toBe(false);
    expect(probe("tx.$executeRaw`DELETE FROM ${t} WHERE id = ${id} AND phase = ${p}`")).toBe(false);
    expect(probe("db.$queryRaw`SELECT id FROM ${t} r WHERE r.phase = 'ONLINE'`")).toBe(false);
    expect(probe(`recordChange(tx, { data: { phase, message } })`)).toBe(false);
    expect(probe("`UPDATE binding b SET phase = ${phaseCaseSql('b.phase', 'realized', LIVE_PHASES)}`")).toBe(
      false,
    );
  });
});

describe("phaseCaseSql", () => {
  it("maps each listed phase to what nextPhase gives", () => {
    expect(phaseCaseSql("b.phase", "desired-changed", LIVE_PHASES)).toBe(
      `CASE b.phase WHEN 'PENDING' THEN 'PENDING' WHEN 'ONLINE' THEN 'PENDING' WHEN 'FAILED' THEN 'PENDING' END::"Phase"`,
    );
    expect(phaseCaseSql("phase", "failed", [Phase.ONLINE, Phase.DELETING])).toBe(
      `CASE phase WHEN 'ONLINE' THEN '${nextPhase(Phase.ONLINE, "failed")}' WHEN 'DELETING' THEN 'DELETING' END::"Phase"`,
    );
  });

  it("refuses a transition the state machine refuses", () => {
    expect(() => phaseCaseSql("b.phase", "desired-changed", [Phase.DELETING])).toThrow(
      expect.objectContaining({ code: ErrorCode.BEING_DELETED }) as Error,
    );
  });
});

describe("Phase", () => {
  it("is one type: the database's enum equals core's", () => {
    expectTypeOf<DatabasePhase>().toEqualTypeOf<Phase>();
    expect(Object.values(DatabasePhase)).toEqual(Object.values(Phase));
  });
});
