/** A form's number field: the value it edits, its label, the validator's path, its hint and the input's test id. */
export interface NumberFieldSpec<K extends string = string> {
  key: K;
  label: string;
  field: string;
  placeholder: string;
  testid: string;
}
