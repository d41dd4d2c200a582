import { healthCases } from "./tree-health.cases.ts";
import { partialAnswerCases } from "./tree-partial-answers.cases.ts";
import { routingCases } from "./tree-routing.cases.ts";
import { useSeedTree } from "./support/seed-tree.ts";

// One seed tree (five registry processes) for the cases that read it, add names of their own, or
// stop a registry and start it again, instead of one tree per file. In this order: routing lists
// the whole subtree, so it comes first; health expects no child but the tree's; the partial
// answers hang children under /aws, so they come last.
// tree-index.test.ts keeps a tree of its own: it counts every stream of the tree, re-parents a leaf
// and restores /aws's database from a backup. So does tree-registration.test.ts, which re-parents,
// moves and drops the tree's registries.
const seed = useSeedTree();
routingCases(seed);
healthCases(seed);
partialAnswerCases(seed);
