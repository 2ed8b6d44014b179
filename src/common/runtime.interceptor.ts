import {
  applyDecorators,
  Injectable,
  StreamableFile,
  UseInterceptors,
  type CallHandler,
  type ExecutionContext,
  type NestInterceptor,
} from '@nestjs/common';
import { map, type Observable } from 'rxjs';
import { startRuntime } from './runtime.js';

/** An answer as its route builds it: everything but the `_runtime` the interceptor adds. */
export type WithoutRuntime<T extends { _runtime: number }> = Omit<T, '_runtime'>;

/**
 * Adds `_runtime` (elapsed seconds as a float, from when the request reached its route) as the
 * last field of a JSON answer. Streamed answers (a report as XML or CSV) go out as they are.
 */
@Injectable()
export class RuntimeInterceptor implements NestInterceptor {
  intercept(_context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const runtime = startRuntime();
    return next
      .handle()
      .pipe(
        map((answer: unknown) =>
          answer !== null && typeof answer === 'object' && !Array.isArray(answer) && !(answer instanceof StreamableFile)
            ? { ...answer, _runtime: runtime() }
            : answer,
        ),
      );
  }
}

/** Marks a route whose JSON answer carries `_runtime` (its response DTO documents the field). */
export function AnswersRuntime() {
  return applyDecorators(UseInterceptors(RuntimeInterceptor));
}
