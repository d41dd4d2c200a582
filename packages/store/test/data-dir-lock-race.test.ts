import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { once } from "node:events";
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const contenderScript = fileURLToPath(new URL("./fixtures/lock-contender.ts", import.meta.url));
const CONTENDERS = 5;
const ROUNDS = 50;

/** A process running lock-contender.ts, answering one line per command. */
function startContender(dataDir: string) {
  const child = spawn(process.execPath, ["--import", "tsx", contenderScript, dataDir], {
    stdio: ["pipe", "pipe", "inherit"],
  });
  const lines: string[] = [];
  const waiting: ((line: string) => void)[] = [];
  createInterface({ input: child.stdout }).on("line", (line) => {
    const waiter = waiting.shift();
    if (waiter) waiter(line);
    else lines.push(line);
  });
  return {
    pid: child.pid!,
    child,
    send: (command: string) => child.stdin.write(`${command}\n`),
    next: () =>
      lines.length > 0
        ? Promise.resolve(lines.shift()!)
        : new Promise<string>((resolve) => waiting.push(resolve)),
  };
}

describe("a stale data directory lock, contended by processes started together", () => {
  let dataDir: string;
  let deadPid: number;
  let contenders: ReturnType<typeof startContender>[] = [];

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), "sr-lock-race-"));
    const gone = spawn(process.execPath, ["-e", ""]);
    await once(gone, "exit");
    deadPid = gone.pid!;
    contenders = Array.from({ length: CONTENDERS }, () => startContender(dataDir));
    expect(await Promise.all(contenders.map((c) => c.next()))).toEqual(Array(CONTENDERS).fill("ready"));
  });

  afterAll(async () => {
    for (const c of contenders) c.child.kill("SIGKILL");
    await rm(dataDir, { recursive: true, force: true });
  });

  it(`is taken over by exactly one of ${CONTENDERS} processes, ${ROUNDS} times in a row`, async () => {
    const lockFile = path.join(dataDir, "registry.lock");
    const rounds: { winners: number; lockNamesWinner: boolean; leftBehind: string[] }[] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      // A crashed owner's lock, alternately as this version and as older versions (a bare pid) wrote it.
      await writeFile(lockFile, round % 2 ? `${deadPid} ${randomUUID()}\n` : String(deadPid));
      for (const c of contenders) c.send("take");
      const answers = await Promise.all(contenders.map((c) => c.next()));
      expect(answers.filter((a) => a !== "won" && a !== "in-use")).toEqual([]);
      const winners = contenders.filter((_, i) => answers[i] === "won");
      const owner = Number.parseInt(await readFile(lockFile, "utf8"), 10);
      for (const c of contenders) c.send("give back");
      await Promise.all(contenders.map((c) => c.next()));
      rounds.push({
        winners: winners.length,
        lockNamesWinner: winners.length === 1 && winners[0]!.pid === owner,
        leftBehind: await readdir(dataDir),
      });
    }
    expect(rounds.filter((r) => r.winners !== 1)).toEqual([]);
    expect(rounds.every((r) => r.lockNamesWinner)).toBe(true);
    // Released, with no takeover claim or temporary file left behind.
    expect(rounds.flatMap((r) => r.leftBehind)).toEqual([]);
  }, 60_000);
});
