import type { SubjectVersion } from "@stream-registry/core";
import type { VersionSelector } from "@stream-registry/provider-api";
import {
  deleteSubjectVersions,
  findReferrers,
  listSubjectVersions,
  lockSubjects,
  readSchemaConfigs,
  writeSchemaConfig,
  writeTransaction,
  type Tx,
} from "@stream-registry/store";
import { refuse } from "./refusals.ts";
import type { SchemaRegistryDeps } from "./schema-deps.ts";
import { checkSubject } from "./schema-input.ts";
import { pickVersion } from "./schema-reads.ts";
import { effectiveSettings } from "./schema-settings.ts";

interface DeleteOptions {
  permanent?: boolean;
  actor: string;
}

/**
 * Confluent's two-step deletes: a soft delete hides a version (its id stays readable, and it no
 * longer counts for compatibility); a permanent delete, only of what was soft-deleted first,
 * removes it. Nothing referenced by another schema is deleted (42206): by a live one for a soft
 * delete, by any for a permanent one, since a soft-deleted schema is still read by its id.
 */
export class SchemaDeletes {
  constructor(private readonly deps: SchemaRegistryDeps) {}

  /** Deletes one version (`latest`: the newest live one, or the newest of all when permanent); returns its number. */
  async deleteVersion(subject: string, selector: VersionSelector, options: DeleteOptions): Promise<number> {
    const permanent = options.permanent ?? false;
    return this.write(subject, async (tx, versions) => {
      const candidates = permanent || selector !== "latest" ? versions : versions.filter((v) => !v.deleted);
      const version = pickVersion(subject, candidates, selector);
      if (!permanent && version.deleted) throw refuse.versionSoftDeleted(subject, version.version);
      if (permanent && !version.deleted) throw refuse.versionNotSoftDeleted(subject, version.version);
      await refuseIfReferenced(tx, [version], permanent, subject);
      await deleteSubjectVersions(tx, subject, [version.version], { permanent, actor: options.actor });
      return version.version;
    });
  }

  /**
   * Deletes a subject: soft, its live versions (40404 if there are none left); permanent, all its
   * versions, once none is live (40405). Its compatibility level and mode go with it.
   */
  async deleteSubject(subject: string, options: DeleteOptions): Promise<number[]> {
    const permanent = options.permanent ?? false;
    return this.write(subject, async (tx, versions) => {
      const live = versions.filter((v) => !v.deleted);
      if (!permanent && live.length === 0) throw refuse.subjectSoftDeleted(subject);
      if (permanent && live.length > 0) throw refuse.subjectNotSoftDeleted(subject);
      const doomed = permanent ? versions : live;
      await refuseIfReferenced(tx, doomed, permanent, subject);
      const numbers = doomed.map((v) => v.version);
      await deleteSubjectVersions(tx, subject, numbers, { permanent, actor: options.actor });
      const { subject: settings } = await readSchemaConfigs(tx, subject);
      if (settings.compatibility !== undefined || settings.mode !== undefined) {
        await writeSchemaConfig(tx, subject, { compatibility: null, mode: null }, options.actor);
      }
      return numbers;
    });
  }

  /** Runs a delete of `subject` under its lock, with its versions; 40401 when it has none, 42205 when read-only. */
  private write<T>(subject: string, fn: (tx: Tx, versions: SubjectVersion[]) => Promise<T>): Promise<T> {
    checkSubject(subject);
    return writeTransaction(this.deps.db.prisma, async (tx) => {
      await lockSubjects(tx, [subject]);
      const versions = await listSubjectVersions(tx, subject);
      if (versions.length === 0) throw refuse.subjectNotFound(subject);
      const { mode } = await effectiveSettings(tx, subject);
      if (mode === "READONLY")
        throw refuse.notPermitted(`Subject ${JSON.stringify(subject)} is in read-only mode`);
      return fn(tx, versions);
    });
  }
}

/**
 * 42206 when another schema references one of `versions`: a live one, or with `permanent` any.
 * Versions of the subject being deleted whole do not hold each other.
 */
async function refuseIfReferenced(
  tx: Tx,
  versions: readonly SubjectVersion[],
  permanent: boolean,
  subject: string,
): Promise<void> {
  const doomed = new Set(versions.map((v) => v.version));
  for (const version of versions) {
    const referrers = (await findReferrers(tx, { subject, version: version.version }, permanent)).filter(
      (r) => !(r.subject === subject && doomed.has(r.version)),
    );
    if (referrers.length > 0) throw refuse.referenceExists(subject, version.version, referrers);
  }
}
