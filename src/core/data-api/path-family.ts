/**
 * The one owner of the Data API's path prefix. The public API serves the same operations under
 * `/v1/icm` (current) and `/v1/teleporter` (deprecated); a deployment may serve only one. A data
 * source starts with its preferred family and, when an operation answers 404, the client tries the
 * other one; the family that answered is remembered for every later request to that base URL.
 */
export const PATH_FAMILIES = { icm: '/v1/icm', teleporter: '/v1/teleporter' } as const;
export type PathFamily = keyof typeof PATH_FAMILIES;

export const otherFamily = (f: PathFamily): PathFamily => (f === 'icm' ? 'teleporter' : 'icm');

export class PathFamilyChoice {
  private family: PathFamily;

  constructor(
    /** The base URL's own path (e.g. '' or '/glacier'), without a trailing slash. */
    readonly basePath: string,
    preferred: PathFamily,
    private readonly onSwitch?: (from: PathFamily, to: PathFamily) => void,
  ) {
    this.family = preferred;
  }

  get current(): PathFamily {
    return this.family;
  }

  /** The path prefix of a family (the current one by default), e.g. `/v1/icm`. */
  prefix(family: PathFamily = this.family): string {
    return this.basePath + PATH_FAMILIES[family];
  }

  /** A request in `family` succeeded: later requests use it. */
  confirm(family: PathFamily): void {
    if (family === this.family) return;
    const from = this.family;
    this.family = family;
    this.onSwitch?.(from, family);
  }
}
