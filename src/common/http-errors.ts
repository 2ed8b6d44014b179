import { HttpException } from '@nestjs/common';

/** An HttpException that also sets response headers (WWW-Authenticate, Retry-After…). */
export class HttpErrorWithHeaders extends HttpException {
  constructor(
    status: number,
    message: string,
    readonly headers: Record<string, string>,
  ) {
    super(message, status);
  }
}
