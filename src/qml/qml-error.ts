import type { EnvelopeProblem } from '../common/error-envelope.js';
import { InputError } from '../common/input-error.js';

/**
 * A QML document the compiler rejects. `path` names the element (or attribute) at fault, like
 * `/qml/statement/query/where/compositeCondition[1]/condition[2]/operator`, so the caller can
 * find it in a template of hundreds of lines; the service answers it with 400.
 */
export class QmlError extends InputError {
  constructor(
    readonly path: string,
    readonly reason: string,
  ) {
    super(path ? `${path}: ${reason}` : reason);
    this.name = 'QmlError';
  }
}

/** The limits a caller can set (see QmlLimits); `boundValues` is PostgreSQL's own. */
export type QmlLimitName = 'maxTables' | 'maxSelectItems' | 'maxListValues' | 'maxNesting' | 'boundValues';

/**
 * A document (or one execution of it) past a size limit: a QmlError that also says which
 * limit, so the service can name the setting that raises it.
 */
export class QmlLimitError extends QmlError {
  constructor(
    path: string,
    reason: string,
    readonly limit: QmlLimitName,
  ) {
    super(path, reason);
    this.name = 'QmlLimitError';
  }
}

/** One problem of a template: the element (or attribute) at fault and what is wrong. */
export interface QmlProblem {
  path: string;
  reason: string;
}

/**
 * A template with several problems, all found in one pass (unknown classes, properties,
 * references …): its path and reason are the first problem's, `problems` holds them all.
 */
export class QmlProblems extends QmlError {
  constructor(readonly problems: QmlProblem[]) {
    super(problems[0].path, problems[0].reason);
    this.name = 'QmlProblems';
  }

  override answer(): { message: string; problems: EnvelopeProblem[] } {
    const more = this.problems.length - 1;
    return {
      message: `${this.message} (and ${more} more problem${more === 1 ? '' : 's'}, listed in "problems")`,
      problems: this.problems.map((p) => ({ path: p.path, message: p.reason })),
    };
  }
}
