/**
 * npm run stress:tree [-- --skip-corpus]
 *
 * The hostile tree run of issue 19, repeatable: a production tree of registry processes on
 * loopback (NODE_ENV=production, authentication on, REGISTRY_CONNECT_ALLOW=127.0.0.1, PostgreSQL
 * at DATABASE_TEST_URL, /aws2 on PGlite as the corpus has it), attacked as an attacker would.
 *
 * 1. The security corpus's tree (/, /aws, /aws2; apps/registry/test/support/security-corpus*.ts)
 *    gets every corpus case, asserted as security-corpus.test.ts asserts it, and after each
 *    category the tree must be as it was.
 * 2. The tree grows to /, /aws, /aws/us, /gcp (and /aws2); /aws/us and /gcp grant their ancestors'
 *    admins nothing. Then issue 19's findings, each as a category of probes: principals of the
 *    same name in two registries, groups minted below a registry's trust, a copy of a child's
 *    database and registrations without proof, redirects and addresses past the allow-list,
 *    secrets by name and by value, credentials in query strings and logs, deep and wide values,
 *    cursors of other lists, a database dropped and re-created, SIGTERM under keep-alive writers.
 *
 * Prints, per category, how many probes held and how many failed, then each failure; exits 1 if
 * any failed (a setup step that fails counts as a failed probe of its category). Every process
 * and database it made is removed at the end, whatever happened. Takes a few minutes.
 * Not part of `npm test`: the corpus and the findings' own tests are; this runs them as one attack.
 */
import { parseArgs } from "node:util";
import { corpusCases } from "../test/support/security-corpus-cases.ts";
import {
  expectAnsweredAs,
  send,
  startCorpusWorld,
  type CorpusWorld,
} from "../test/support/security-corpus.ts";
import { expect } from "vitest";
import { startRedirectTrap } from "@stream-registry/testkit";
import { databaseProbes, shutdownProbes } from "./tree-stress-faults.ts";
import { logProbes, queryStringProbes, secretProbes } from "./tree-stress-leaks.ts";
import { redirectProbes, registrationProbes } from "./tree-stress-registration.ts";
import { cursorProbes, shapeProbes } from "./tree-stress-shape.ts";
import { Tally } from "./tree-stress-tally.ts";
import { groupProbes, identityProbes } from "./tree-stress-trust.ts";
import { CONNECT_ALLOW, growTree, type Cleanups, type TreeWorld } from "./tree-stress-world.ts";

const { values } = parseArgs({ options: { "skip-corpus": { type: "boolean", default: false } } });
const started = performance.now();
const tally = new Tally();
const cleanups: Cleanups = [];

/** Every corpus case, category after category; the tree compared with `before` after each category. */
async function runCorpus(w: CorpusWorld): Promise<void> {
  const before = await w.snapshot();
  const cases = corpusCases();
  for (const [i, c] of cases.entries()) {
    const category = `corpus: ${c.category}`;
    await tally.probe(category, c.name, async () => expectAnsweredAs(c, await send(w, c)));
    if (cases[i + 1]?.category !== c.category)
      await tally.probe(category, "the tree is as it was", async () =>
        expect(await w.snapshot()).toEqual(before),
      );
  }
}

/** One category of the findings; a throw outside its probes (its setup) counts as a failure of it. */
async function category(name: string, run: () => Promise<void>): Promise<void> {
  try {
    await run();
  } catch (error) {
    tally.setupFailed(name, error);
  }
}

try {
  const trap = await startRedirectTrap(307, "127.0.0.2");
  cleanups.push(async () => trap[Symbol.asyncDispose]());
  const w = await startCorpusWorld({ REGISTRY_CONNECT_ALLOW: CONNECT_ALLOW });
  cleanups.push(() => w.dispose());
  console.error(
    `tree.stress: the corpus's tree is up (${((performance.now() - started) / 1000).toFixed(0)} s)`,
  );
  if (!values["skip-corpus"]) await runCorpus(w);
  const t: TreeWorld = await growTree(w, cleanups);
  console.error(
    `tree.stress: /aws/us and /gcp are up (${((performance.now() - started) / 1000).toFixed(0)} s)`,
  );
  await category("identity (finding 1)", () => identityProbes(t, tally));
  await category("groups (finding 2)", () => groupProbes(t, tally));
  await category("registration and database copies (findings 3, 11)", () =>
    registrationProbes(t, tally, cleanups),
  );
  await category("redirects and the allow-list (finding 4)", () => redirectProbes(t, tally, trap));
  await category("secrets by name and by value (finding 5)", () => secretProbes(t, tally));
  await category("logs (finding 6)", () => queryStringProbes(t, tally));
  await category("depth and shape (finding 7)", () => shapeProbes(t, tally));
  await category("cursors (finding 10)", () => cursorProbes(t, tally));
  await category("database dropped and re-created (finding 9)", () => databaseProbes(t, tally));
  await category("SIGTERM under keep-alive writers (finding 8)", () => shutdownProbes(t, tally));
  // Last: the logs of every process the run started, those stopped on the way included.
  await category("logs (finding 6)", () => logProbes(t, tally));
} catch (error) {
  tally.setupFailed("setup", error);
} finally {
  for (const cleanup of cleanups.reverse())
    await cleanup().catch((error: unknown) => console.error("cleanup:", error));
}

const rows = [...tally.counts].map(([name, { held, failed }]) => ({ category: name, held, failed }));
const total = rows.reduce((sum, row) => ({ held: sum.held + row.held, failed: sum.failed + row.failed }), {
  held: 0,
  failed: 0,
});
console.table([...rows, { category: "total", ...total }]);
for (const failure of tally.failures) console.error(`FAILED ${failure}`);
console.log(
  `tree.stress: ${total.held} held, ${total.failed} failed in ${((performance.now() - started) / 1000).toFixed(0)} s`,
);
process.exit(total.failed > 0 ? 1 : 0);
