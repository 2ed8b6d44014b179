/**
 * A QML document the compiler rejects. `path` names the element (or attribute) at fault, like
 * `/qml/statement/query/where/compositeCondition[1]/condition[2]/operator`, so the caller can
 * find it in a template of hundreds of lines; the service answers it with 400.
 */
export class QmlError extends Error {
  constructor(
    readonly path: string,
    readonly reason: string,
  ) {
    super(path ? `${path}: ${reason}` : reason);
    this.name = 'QmlError';
  }
}
