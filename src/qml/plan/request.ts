import type { PlanRequest } from './plan-types.js';

/**
 * How the planner reads one request, so that the SQL it renders can be kept for other requests
 * (qml-query-cache.ts). Every request input (parameter values, the user, `now`, the readable
 * containers, the row limit) reaches the plan in one of two ways:
 *
 * - a shape read (`shape`, `ask`): the answer decides the SQL text, the types or an error (is a
 *   parameter set, how many parts an in-list has, whether a like pattern has a literal prefix,
 *   whether a value converts, is the caller an administrator …). Recording, the reader keeps the
 *   question and its answer: the trace of the execution.
 * - a bind read (`read`, `map`): the value only reaches a bound `$n` value or the parameters
 *   reported back. Recording, the value keeps the function that computes it from a request.
 *
 * Planning is a function of the template, the limits and the answers, so a request that gives
 * the same answers to a trace's questions gets the same text, and its values from the functions.
 */

/** An answer to a shape question: compared with `===`. */
export type Answer = string | number | boolean | null;

export interface Question {
  ask: (r: PlanRequest) => Answer;
  answer: Answer;
}

/** A value of this request, and (recording, when it depends on the request) how to compute it from another. */
export interface Derived<T> {
  readonly now: T;
  readonly of: ((r: PlanRequest) => T) | null;
}

/** A bound value of a cached query: computed from each request. */
export class Rebind {
  constructor(readonly of: (r: PlanRequest) => unknown) {}
}

export function fixed<T>(now: T): Derived<T> {
  return { now, of: null };
}

export class RequestReader {
  /** The shape questions asked so far, in order (null: not recording). */
  readonly trace: Question[] | null;

  private request: PlanRequest | null;

  constructor(req: PlanRequest, record: boolean) {
    this.request = req;
    this.trace = record ? [] : null;
  }

  /** The request being planned. */
  get req(): PlanRequest {
    if (!this.request) throw new Error('the request was released');
    return this.request;
  }

  /**
   * Forgets the request once planned: the functions a cache keeps may reach the reader, and should
   * not keep a caller's request alive with it.
   */
  release(): void {
    this.request = null;
  }

  get recording(): boolean {
    return this.trace !== null;
  }

  /** A bind read of the request. */
  read<T>(f: (r: PlanRequest) => T): Derived<T> {
    return { now: f(this.req), of: this.trace ? f : null };
  }

  /** A value computed from a derived one. */
  map<T, U>(d: Derived<T>, f: (t: T) => U): Derived<U> {
    const of = d.of;
    return { now: f(d.now), of: of && ((r) => f(of(r))) };
  }

  /** A shape read of a derived value: `f` of it, recorded when the value depends on the request. */
  shape<T, A extends Answer>(d: Derived<T>, f: (t: T) => A): A {
    const answer = f(d.now);
    const of = d.of;
    if (this.trace && of) this.trace.push({ ask: (r) => f(of(r)), answer });
    return answer;
  }

  /** A shape read of the request. */
  ask<A extends Answer>(f: (r: PlanRequest) => A): A {
    const answer = f(this.req);
    this.trace?.push({ ask: f, answer });
    return answer;
  }
}

/** The parameter values a planner reads: a text, or undefined when the request gives none. */
export interface ParamSource {
  text(name: string): Derived<string> | undefined;
}

const own = (values: Readonly<Record<string, string>>, name: string): boolean =>
  Object.prototype.hasOwnProperty.call(values, name);

/** The request's own values (`enumerable`: only those a copy by Object.assign would keep). */
export function requestParams(reader: RequestReader, enumerable = false): ParamSource {
  const has = enumerable
    ? (r: PlanRequest, name: string) => Object.prototype.propertyIsEnumerable.call(r.values, name)
    : (r: PlanRequest, name: string) => own(r.values, name);
  return {
    text: (name) => (reader.ask((r) => has(r, name)) ? reader.read((r) => r.values[name]) : undefined),
  };
}

/** A derived value computed at most once per request (in-list parts share one split). */
export function once<T>(d: Derived<T>): Derived<T> {
  const of = d.of;
  if (!of) return d;
  const seen = new WeakMap<PlanRequest, T>();
  return {
    now: d.now,
    of: (r) => {
      if (seen.has(r)) return seen.get(r)!;
      const v = of(r);
      seen.set(r, v);
      return v;
    },
  };
}
