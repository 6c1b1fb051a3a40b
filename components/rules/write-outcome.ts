/** What the page says after a write: where it happened and, for global files, that every project is affected. */
export interface WriteOutcome {
  message: string;
  warning?: string;
}
