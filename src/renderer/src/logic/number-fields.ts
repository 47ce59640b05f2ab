/** A form's number field: the value it edits, its label, the validator's path, its hint, the input's test id and a note under it. */
export interface NumberFieldSpec<K extends string = string> {
  key: K;
  label: string;
  field: string;
  placeholder: string;
  testid: string;
  /** A sentence under the input (its range, what it applies to). */
  note?: string;
}
