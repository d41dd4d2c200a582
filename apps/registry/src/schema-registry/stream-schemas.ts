import {
  ErrorCode,
  needsRecordName,
  quote,
  RegistryError,
  subjectName,
  subjectNameStrategyOf,
  type CompatibilityLevel,
  type SchemaRole,
  type Stream,
  type SubjectVersion,
} from "@stream-registry/core";
import { isSchemaManagerError, type SchemaContext } from "@stream-registry/provider-api";
import { findStream, listStreamSubjects, recordStreamSubject } from "@stream-registry/store";
import type { Actor, Caller, ServiceDeps } from "../services/deps.ts";
import { builtInSchemaManager } from "./built-in-schema-manager.ts";
import { parseCandidate, schemaInputOf, type CandidateInput } from "./schema-candidate.ts";
import { withSchemaErrors } from "./schema-graphql-errors.ts";
import { schemaManagerFor, type ChosenSchemaManager } from "./schema-manager-for.ts";
import type { SchemaRegistry } from "./schema-registry.ts";

export interface RegisterSchemaInput extends CandidateInput {
  stream: string;
  /** Absent: the stream's key schema. */
  typeName?: string | null;
}

/** A subject holding one of a stream's schemas, with its live versions and level. */
export interface StreamSchemaSubject {
  subject: string;
  typeName: string | null;
  versions: SubjectVersion[];
  compatibility: CompatibilityLevel;
}

/** What a call to the chosen registry needs: the manager, and the context it is called with. */
export interface SchemaCall extends ChosenSchemaManager {
  context: SchemaContext;
}

/**
 * A stream's key and type schemas (issue 12, Musts 4 and 5): registered under the subject the
 * stream's strategy names, in the schema registry its schemas go to (schemaManagerFor), and
 * remembered as the stream's so that they can be listed whatever the strategy.
 */
export class StreamSchemas {
  readonly builtIn;

  constructor(
    private readonly deps: ServiceDeps,
    readonly registry: SchemaRegistry,
  ) {
    this.builtIn = builtInSchemaManager(registry);
  }

  get db() {
    return this.deps.db.prisma;
  }

  /** The schema registry of `stream` (a stream of this registry), or the built-in one without a stream. */
  async callFor(stream: Stream | undefined, actor?: Actor): Promise<SchemaCall> {
    const chosen = await schemaManagerFor(this.deps, this.builtIn, stream);
    const context: SchemaContext = {
      cluster: chosen.cluster,
      signal: AbortSignal.timeout(30_000),
      ...(actor ? { actor: actor.actor } : {}),
    };
    return { ...chosen, context };
  }

  async register(input: RegisterSchemaInput, caller: Caller): Promise<SubjectVersion> {
    const role: SchemaRole =
      input.typeName === undefined || input.typeName === null
        ? { role: "key" }
        : { role: "type", typeName: input.typeName };
    const what = role.role === "key" ? "a key schema" : `type schema ${quote(role.typeName)}`;
    caller.access.require("writer", "", `registering ${what} on stream ${quote(input.stream)}`, input.stream);
    if (role.role === "type" && !/^[A-Za-z_][A-Za-z0-9_.]*$/.test(role.typeName)) {
      throw new RegistryError(
        ErrorCode.INVALID_INPUT,
        `type name ${quote(role.typeName)}: letters, digits, "_" and "." only, not starting with a digit`,
        ["input", "typeName"],
      );
    }
    const stream = await this.liveStream(input.stream, ["input", "stream"]);
    const call = await this.callFor(stream, caller);
    const schema = schemaInputOf(input);
    const parsed = await parseCandidate(schema, call.manager, call.context, ["input"]);
    const subject = await this.subjectOf(stream, role, parsed.recordName, ["input"]);
    const registered = await withSchemaErrors(["input"], () =>
      call.manager.registerSchema(subject, schema, call.context),
    );
    await recordStreamSubject(this.deps.db.prisma, stream.id, {
      subject,
      role: role.role,
      typeName: role.role === "type" ? role.typeName : "",
    });
    return withSchemaErrors(["input"], () =>
      call.manager.getSchema(subject, registered.version, call.context),
    );
  }

  /** The subject a key or type schema of `stream` goes to; TOPIC_NAME holds one type only. */
  async subjectOf(stream: Stream, role: SchemaRole, recordName: string | undefined, at: string[]) {
    const strategy = subjectNameStrategyOf(stream.config);
    const subject = subjectName(stream.name, strategy, role, recordName);
    if (subject === undefined || (needsRecordName(strategy, role) && recordName === undefined)) {
      throw new RegistryError(
        ErrorCode.INVALID_INPUT,
        `stream ${quote(stream.name)} names subjects by ${strategy}, which needs a schema with a record name (an Avro named type, a JSON Schema title, a Protobuf message)`,
        [...at, "schema"],
      );
    }
    if (strategy === "TOPIC_NAME" && role.role === "type") {
      const other = (await listStreamSubjects(this.deps.db.prisma, stream.id)).find(
        (s) => s.role === "type" && s.typeName !== role.typeName,
      );
      if (other) {
        throw new RegistryError(
          ErrorCode.INVALID_INPUT,
          `stream ${quote(stream.name)} names subjects by TOPIC_NAME: one type schema only, and it has ${quote(other.typeName)}`,
          [...at, "typeName"],
        );
      }
    }
    return subject;
  }

  /** The stream's key subject and type subjects with their live versions (a subject deleted since is left out). */
  async subjectsOf(stream: Stream): Promise<StreamSchemaSubject[]> {
    const entries = await listStreamSubjects(this.deps.db.prisma, stream.id);
    if (entries.length === 0) return [];
    const call = await this.callFor(stream);
    const found = await Promise.all(
      entries.map((entry) =>
        this.subjectAt(call, entry.subject, entry.role === "key" ? null : entry.typeName),
      ),
    );
    return found.filter((s) => s !== undefined);
  }

  /** `subject` of the registry `call` goes to, with its live versions; undefined when it has none. */
  async subjectAt(
    call: SchemaCall,
    subject: string,
    typeName: string | null,
  ): Promise<StreamSchemaSubject | undefined> {
    const versions = await this.liveVersions(call, subject);
    if (versions.length === 0) return undefined;
    const compatibility = await withSchemaErrors([], () =>
      call.manager.getCompatibility(subject, call.context),
    );
    return { subject, typeName, versions, compatibility };
  }

  private async liveVersions(call: SchemaCall, subject: string): Promise<SubjectVersion[]> {
    try {
      const numbers = await call.manager.getSubjectVersions(subject, call.context);
      return await Promise.all(numbers.map((n) => call.manager.getSchema(subject, n, call.context)));
    } catch (error) {
      if (isSchemaManagerError(error) && error.reason === "SUBJECT_NOT_FOUND") return [];
      return withSchemaErrors([], () => Promise.reject(error));
    }
  }

  /** A stream of this registry that is not being deleted; NOT_FOUND naming `field` otherwise. */
  async liveStream(name: string, field: string[]): Promise<Stream> {
    const stream = await findStream(this.deps.db.prisma, name);
    if (!stream || stream.deleting) {
      throw new RegistryError(
        ErrorCode.NOT_FOUND,
        `stream ${quote(name)} ${stream ? "is being deleted" : "does not exist"}`,
        field,
      );
    }
    return stream;
  }
}
