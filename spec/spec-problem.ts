/** One problem found in a description: where it is and what is wrong. */
export interface SpecProblem {
  /** What kind of check found it: syntax, structure, reference or semantics. */
  rule:
    | 'syntax'
    | 'structure'
    | 'reference'
    | 'operation-id'
    | 'path-parameter'
    | 'required-property'
    | 'link'
    | 'security'
    | 'example';
  /** A JSON Pointer into the description, or `line:column` for syntax errors. */
  location: string;
  message: string;
}
