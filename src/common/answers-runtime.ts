import { StreamableFile } from '@nestjs/common';
import { startRuntime } from './runtime.js';

/** An answer as its route builds it: everything but the `_runtime` that `AnswersRuntime` adds. */
export type WithoutRuntime<T extends { _runtime: number }> = Omit<T, '_runtime'>;

type Handler = (this: unknown, ...args: unknown[]) => unknown;

/**
 * Marks a route whose JSON answer carries `_runtime` (its response DTO documents the field):
 * elapsed seconds as a float, from when the route's handler was called, added as the answer's
 * last field. Streamed answers (a report as XML or CSV) go out as they are.
 *
 * The handler is wrapped in place rather than given an interceptor: with no interceptor, NestJS
 * calls a handler without building an Observable chain per request, which cost about 3 % of the
 * CPU of a small report. Metadata that decorators below this one set on the handler is copied
 * to the wrapper; decorators above it set theirs on the wrapper.
 */
export function AnswersRuntime(): MethodDecorator {
  return (_target, _key, descriptor: PropertyDescriptor) => {
    const handler = descriptor.value as Handler;
    const wrapped = async function (this: unknown, ...args: unknown[]): Promise<unknown> {
      const runtime = startRuntime();
      return withRuntime(await handler.apply(this, args), runtime);
    };
    for (const key of Reflect.getOwnMetadataKeys(handler)) {
      Reflect.defineMetadata(key, Reflect.getOwnMetadata(key, handler), wrapped);
    }
    Object.defineProperty(wrapped, 'name', { value: handler.name });
    descriptor.value = wrapped;
  };
}

function withRuntime(answer: unknown, runtime: () => number): unknown {
  return answer !== null && typeof answer === 'object' && !Array.isArray(answer) && !(answer instanceof StreamableFile)
    ? { ...answer, _runtime: runtime() }
    : answer;
}
