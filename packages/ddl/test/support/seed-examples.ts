import { readFileSync } from "node:fs";

export interface SeedExample {
  /** 1-based position among the seed's examples. */
  index: number;
  /** Line of the `> ` prompt in the fixture file. */
  fixtureLine: number;
  /** The statement text without the `> ` prompt. */
  text: string;
}

const FIXTURE = new URL("../fixtures/seed-000-statements.sql", import.meta.url);

/** The seed's `> ` statement examples, split at the prompts. */
export function readSeedExamples(): SeedExample[] {
  const lines = readFileSync(FIXTURE, "utf8").split("\n");
  const examples: SeedExample[] = [];
  lines.forEach((line, i) => {
    if (line.startsWith("> ")) {
      examples.push({ index: examples.length + 1, fixtureLine: i + 1, text: line.slice(2) });
    } else if (examples.length > 0 && line !== "") {
      const last = examples.at(-1) as SeedExample;
      last.text += `\n${line}`;
    }
  });
  return examples;
}

/** A deep copy without `span` properties, for comparing trees parsed from different texts. */
export function withoutSpans<T>(value: T): T {
  return JSON.parse(JSON.stringify(value, (key, item: unknown) => (key === "span" ? undefined : item))) as T;
}
