/** One incompatibility a format's checker found between a reader and a writer schema. */
export interface FormatIssue {
  readonly rule: string;
  readonly path: string;
  readonly detail: string;
}
