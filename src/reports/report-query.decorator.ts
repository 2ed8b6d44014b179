import { createParamDecorator, ValidationPipe, type ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';

const urlParameters = createParamDecorator(
  (_: unknown, ctx: ExecutionContext) => ctx.switchToHttp().getRequest<Request>().query,
);

/** Keeps the keys the DTO names (transformed by it) and drops the others. */
const KNOWN_KEYS = new ValidationPipe({ whitelist: true, transform: true, validateCustomDecorators: true });

/**
 * The URL parameters of a reports route as the DTO of its parameter: the keys the DTO names,
 * other keys dropped rather than refused. The global ValidationPipe refuses unknown keys
 * (forbidNonWhitelisted) but leaves custom parameter decorators such as this one alone. Swagger
 * does not see it either: the route documents the DTO's keys with ApiQueryKeys.
 */
export const ReportQuery = (): ParameterDecorator => urlParameters(KNOWN_KEYS);
